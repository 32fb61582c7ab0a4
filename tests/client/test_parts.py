"""The client's plain parts (no Textual): words, layout, choices, cursor, addresses, settings."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from server.engine import Action, Game, ViewPhase, view_for
from server.engine.events import (
    CardDrawn,
    CardExchanged,
    CardFlipped,
    ColumnRemoved,
    DiscardTaken,
    RoundScored,
    TotalsUpdated,
)
from server.protocol import ErrorCode, NameReason
from skyjo_tui import preferences
from skyjo_tui.address import DEFAULT_PORT, parse_address
from skyjo_tui.i18n import LANGUAGES, Translator, detect_language, load_catalog
from skyjo_tui.layout import CARD_SIZES, plan_table
from skyjo_tui.names import SeatInfo, level_name, seat_names, shorten
from skyjo_tui.narrate import describe, touched, winners_sentence
from skyjo_tui.preferences import Preferences
from skyjo_tui.presenter import present
from skyjo_tui.seat_line import SeatLine, fit_name_line
from skyjo_tui.summary import PlayerResult, RoundSummary
from skyjo_tui.table.choices import Choices, Mode, prompt_key
from skyjo_tui.table.cursor import move
from skyjo_tui.table.refusals import refusal_key
from skyjo_tui.widgets.card_art import CardLook, Face, draw_card
from skyjo_tui.widgets.results import standings

PACKAGE = Path(__file__).parents[2] / "skyjo_tui"
NAMES = ["Alice", "Bob"]


def test_english_and_french_have_the_same_strings_and_every_used_key() -> None:
    english, french = load_catalog("en"), load_catalog("fr")
    assert set(english) == set(french)
    used = set()
    for source in PACKAGE.rglob("*.py"):
        used |= set(re.findall(r"""(?:tr|self\.tr|plural)\(\s*"([a-z_.-]+)""", source.read_text()))
        used |= set(re.findall(r'"(keys\.[a-z_]+)"', source.read_text()))
    used |= {f"error.code.{code.value}" for code in ErrorCode}  # said in our words (errors.py)
    used |= {f"error.code.bad_name.reason.{reason.value}" for reason in NameReason}
    missing = sorted(key for key in used if key not in english and f"{key}.one" not in english)
    assert not missing
    for key, text in english.items():  # the same placeholders in both languages
        assert set(re.findall(r"{(\w+)}", text)) == set(re.findall(r"{(\w+)}", french[key])), key


def test_french_says_robot_throughout() -> None:
    """One word for a bot in each language: French mixed "bot" and "robot"."""
    words = {key: re.sub(r"{\w+}", "", text) for key, text in load_catalog("fr").items()}
    mixed = {key: text for key, text in words.items() if re.search(r"\bbots?\b", text, re.I)}
    assert not mixed


def test_language_from_option_then_locale() -> None:
    assert detect_language("fr", {"LANG": "en_US.UTF-8"}) == "fr"
    assert detect_language(None, {"LANG": "fr_FR.UTF-8"}) == "fr"
    assert detect_language(None, {"LC_ALL": "pt_BR.UTF-8", "LANG": "fr_FR"}) == "en"
    assert detect_language(None, {}) == "en"
    with pytest.raises(ValueError):
        detect_language("tlh", {})


def test_moves_in_words() -> None:
    tr = Translator("en")
    took = [DiscardTaken(0, 3), CardExchanged(0, 4, 3, 11, False)]
    assert describe(took, NAMES, tr) == ["Alice took the 3 and replaced a hidden 11."]
    kept = [CardExchanged(1, 2, 8, 5, True), ColumnRemoved(1, 0, 8, False)]
    assert describe(kept, NAMES, tr) == [
        "Bob kept the 8 and replaced their 5.",
        "Bob's column of 8s is removed.",
    ]
    assert describe([CardDrawn(1, 8)], NAMES, tr) == ["Bob drew an 8."]
    assert describe([RoundScored((30, 20), (30, 40), 1, True)], NAMES, tr) == [
        "Bob closed without the lowest score: doubled to 40."
    ]
    assert describe(took, NAMES, Translator("fr")) == ["Alice a pris le 3 et remplacé un 11 caché."]
    # No "de" before a name (that would need "d'Alice"): French puts the name first.
    removed = [ColumnRemoved(0, 0, 8, False)]
    assert describe(removed, NAMES, Translator("fr")) == ["Alice voit sa colonne de 8 retirée."]
    assert touched(took).cards == {(0, 4)} and touched(took).discard_pile


def test_your_own_moves_are_told_to_you_as_you_in_both_languages() -> None:
    seats = [SeatInfo("Zoe"), SeatInfo("Bob")]
    for lang, lines, won, both in (
        (
            "en",
            [
                "You turned up a 5.",
                "You kept the 8 and replaced your 5.",
                "Your column of 8s is removed.",
                "Bob drew an 8.",
                "You closed without the lowest score: doubled to 40.",
            ],
            "You win the game!",
            "You and Bob share the win!",
        ),
        (
            "fr",
            [
                "Vous avez retourné un 5.",
                "Vous avez gardé le 8 et remplacé votre 5.",
                "Votre colonne de 8 est retirée.",
                "Bob a pioché un 8.",
                "Vous avez fermé sans le plus petit score : doublé à 40.",
            ],
            "Vous gagnez la partie !",
            "Vous et Bob partagez la victoire !",
        ),
    ):
        tr = Translator(lang)
        names = seat_names(seats, 2, tr, own=0)
        assert names == [tr("word.you"), "Bob"]
        events = [
            CardFlipped(0, 4, 5, False),
            CardExchanged(0, 2, 8, 5, True),
            ColumnRemoved(0, 0, 8, False),
            CardDrawn(1, 8),
            RoundScored((30, 20), (40, 20), 0, True),
        ]
        assert describe(events, names, tr, own=0) == lines
        assert describe([TotalsUpdated(5, (60, 120), True, (0,))], names, tr, own=0) == [won]
        assert describe([TotalsUpdated(5, (90, 90), True, (0, 1))], names, tr, own=0) == [both]
        assert winners_sentence(tr, "over.winners", [], True) == tr("over.winners.you")
    # A spectator (no seat of their own) reads everyone's names.
    spectator = seat_names(seats, 2, Translator("en"))
    assert describe([CardDrawn(0, 8)], spectator, Translator("en")) == ["Zoe drew an 8."]
    assert winners_sentence(Translator("en"), "over.winners", ["Zoe"], False) == "Zoe wins!"


def test_choices_come_from_the_legal_moves_only() -> None:
    game = Game(2, seed=1)
    flips = Choices.from_view(view_for(game, 0))
    assert flips.flip == frozenset(range(12)) and not flips.draw
    assert flips.action_for(Mode.NORMAL, 5) == Action.flip(0, 5)
    assert prompt_key(flips, Mode.NORMAL) == "prompt.initial_flip"
    for seat, pos in ((0, 0), (0, 1), (1, 0), (1, 1)):
        game.apply(Action.flip(seat, pos))
    current = game.current_player
    assert current is not None
    turn = Choices.from_view(view_for(game, current))
    assert turn.draw and turn.take and turn.mode_for_discard_pile() is Mode.TAKE
    assert turn.action_for(Mode.NORMAL, 3) is None  # draw or take first
    assert turn.action_for(Mode.TAKE, 3) == Action.take_discard(current, 3)
    waiting = Choices.from_view(view_for(game, 1 - current))
    assert not waiting.any and prompt_key(waiting, Mode.NORMAL) == ""


def test_cursor_moves_between_piles_and_cards_and_skips_removed_columns() -> None:
    assert (
        move(4, "left") == 1 and move(1, "left") == "discard" and move("discard", "left") == "draw"
    )
    assert move("draw", "right") == "discard" and move("discard", "right") == 1
    assert move(2, "down") == 0 and move(0, "up") == 2
    assert move(1, "right", removed_columns=(1, 2)) == 10
    assert move(10, "right") == 10


def test_eight_players_fit_80x24_and_bigger_terminals_get_bigger_cards() -> None:
    small = plan_table(80, 24, opponents=7)
    large = plan_table(160, 50, opponents=7)
    assert small is not None and large is not None
    assert small.per_band * small.bands >= 7
    assert CARD_SIZES.index(large.own) > CARD_SIZES.index(small.own)
    assert CARD_SIZES.index(large.own) > CARD_SIZES.index(large.others)
    assert plan_table(50, 14, opponents=7) is None


def test_at_80x24_every_seated_table_leaves_the_prompt_a_second_row() -> None:
    """A hint is longer than one row at 80 columns: the prompt wraps onto a row the cards
    leave over (the log's), at every number of players."""
    for opponents in range(1, 8):
        plan = plan_table(80, 24, opponents)
        assert plan is not None and plan.prompt_rows >= 2, f"{opponents} opponents"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("example.org", ("example.org", DEFAULT_PORT)),
        ("10.0.0.2:8000", ("10.0.0.2", 8000)),
        ("[::1]:7000", ("::1", 7000)),
    ],
)
def test_addresses(text: str, expected: tuple[str, int]) -> None:
    assert parse_address(text) == expected


@pytest.mark.parametrize("text", ["", "host:port", "host:70000", "[::1", "a b:1"])
def test_bad_addresses_are_refused_with_a_reason(text: str) -> None:
    with pytest.raises(ValueError):
        parse_address(text)


def test_preferences_survive_a_damaged_file(tmp_path: Path) -> None:
    saved = Preferences(name="Zoé", pace="slow").with_token("host:7777", "secret")
    preferences.save(tmp_path, saved)
    assert preferences.load(tmp_path) == saved
    (tmp_path / preferences.FILE_NAME).write_text("{not json")
    assert preferences.load(tmp_path) == Preferences()
    assert (tmp_path / "client.bad").exists()  # kept aside, not lost
    (tmp_path / preferences.FILE_NAME).write_text(json.dumps({"pace": 3}))
    assert preferences.load(tmp_path) == Preferences()


def test_long_names_stay_distinct_when_shortened() -> None:
    assert shorten("Greedy bot 1", 10) == "Greedy b…1" != shorten("Greedy bot 2", 10)
    assert shorten("Alexandria Maximilian", 10) == "Alexandri…"
    assert shorten("Bob", 10) == "Bob"


def test_bots_are_named_in_the_players_language() -> None:
    english, french = Translator("en"), Translator("fr")
    greedy = SeatInfo("Greedy bot 2", "greedy")
    assert (greedy.shown(english), greedy.short(english)) == ("Greedy bot 2", "Greedy 2")
    assert (greedy.shown(french), greedy.short(french)) == ("Robot glouton 2", "Glouton 2")
    assert SeatInfo("Random bot 1", "random").shown(french) == "Robot aléatoire 1"
    # A level this client does not know yet keeps the server's words.
    counting = SeatInfo("Counting bot 3", "counting")
    assert (counting.shown(french), counting.short(french)) == (
        "Counting bot 3",
        "Counting 3",
    )
    # Only names the server made from the level are translated: a person, a renamed bot.
    assert SeatInfo("Greedy bot 2").shown(french) == "Greedy bot 2"
    assert SeatInfo("Max the bot", "greedy").shown(french) == "Max the bot"
    assert (
        level_name("greedy", french) == "glouton" and level_name("counting", french) == "counting"
    )
    assert seat_names([greedy], 2, french) == ["Robot glouton 2", "#2"]


def test_a_name_line_says_the_scores_in_words_when_there_is_room_the_same_way_for_everyone() -> (
    None
):
    lines = [
        SeatLine(
            "Greedy bot 1", 17, 0, short="Greedy 1", scores=("17 pts · total 0", "17 pts · Σ0")
        ),
        SeatLine("Greedy bot 2", 5, 0, short="Greedy 2", scores=("5 pts · total 0", "5 pts · Σ0")),
    ]
    lines = [replace(line, score_widths=(16, 11, 5), name_room=8) for line in lines]
    wide = [fit_name_line(line, 40) for line in lines]
    assert wide == [
        ("Greedy bot 1", "", " 17 pts · total 0"),
        ("Greedy bot 2", "", " 5 pts · total 0"),
    ]
    # 80 columns, 3 opponents: the total by its sign; narrower: the bot without "bot".
    assert [fit_name_line(line, 24) for line in lines] == [
        ("Greedy bot 1", "", " 17 pts · Σ0"),
        ("Greedy bot 2", "", " 5 pts · Σ0"),
    ]
    assert [fit_name_line(line, 20)[0] for line in lines] == ["Greedy 1", "Greedy 2"]
    assert [fit_name_line(line, 12)[2] for line in lines] == [" 17 Σ0", " 5 Σ0"]
    name, _, scores = fit_name_line(lines[0], 12, closer=" ✓")
    assert name.endswith(" ✓") and len(name) + len(scores) <= 12


def test_a_name_keeps_its_form_through_a_round_as_the_points_change() -> None:
    """The bot's name line at each width around the one where "Casual bot 1" only just
    fits: the points go from one digit to two and back, the name reads the same all round."""
    game, seats = Game(2, seed=7), [SeatInfo("Alice"), SeatInfo("Casual bot 1", "casual")]
    for seat, pos in ((0, 0), (0, 1), (1, 0), (1, 1)):
        game.apply(Action.flip(seat, pos))
    names: dict[int, set[str]] = {room: set() for room in range(20, 36)}
    points = set()
    for _ in range(60):  # turns, bounded: the first round ends well before
        if game.round_number != 1 or game.is_over:
            break
        lines = present(view_for(game, 0), seats, Translator("en")).lines
        line = lines[1]
        for room, shown in names.items():
            shown.add(fit_name_line(line, room)[0])
        points.add(max(abs(line.visible) for line in lines))  # the widest points shown
        current = game.current_player
        assert current is not None
        game.apply(game.legal_actions(current)[0])
    assert min(points) < 10 <= max(points)
    assert all(len(shown) == 1 for shown in names.values()), names
    assert names[29] == {"Casual bot 1"} and names[28] == {"Casual 1"}


def test_a_key_that_does_nothing_says_why() -> None:
    drawing = Choices(0, draw=True, take=frozenset({1, 2}))
    holding = Choices(0, swap=frozenset({1}), discard_flip=frozenset())
    assert (
        refusal_key("draw", Choices(0), ViewPhase.CHOOSE, spectator=False)
        == "refused.not_your_turn"
    )
    assert (
        refusal_key("take", Choices(0), ViewPhase.INITIAL_FLIPS, spectator=False)
        == "refused.wait_flips"
    )
    refused = refusal_key(
        "draw", Choices(0, flip=frozenset({3})), ViewPhase.INITIAL_FLIPS, spectator=False
    )
    assert refused == "refused.flip_first"
    assert (
        refusal_key("discard", drawing, ViewPhase.CHOOSE, spectator=False) == "refused.draw_first"
    )
    assert refusal_key("draw", holding, ViewPhase.DRAWN, spectator=False) == "refused.already_drew"
    assert (
        refusal_key("discard", holding, ViewPhase.DRAWN, spectator=False) == "refused.no_face_down"
    )
    assert (
        refusal_key("draw", Choices(None), ViewPhase.CHOOSE, spectator=True) == "refused.watching"
    )
    assert (
        refusal_key("draw", drawing, ViewPhase.CHOOSE, spectator=False, link="reconnecting")
        == "refused.reconnecting"
    )
    assert (
        refusal_key("draw", Choices(0), ViewPhase.ROUND_OVER, spectator=False)
        == "refused.round_over"
    )


def test_standings_go_from_the_lowest_total_and_ties_share_a_rank() -> None:
    def result(seat: int, total: int) -> PlayerResult:
        return PlayerResult(seat, f"P{seat}", (None,) * 12, (), 0, 0, False, total, False, False)

    summary = RoundSummary(
        2, (result(0, 40), result(1, 12), result(2, 40), result(3, 7)), False, (), 0
    )
    assert [(rank, r.seat) for rank, r in standings(summary)] == [(1, 3), (2, 1), (3, 0), (3, 2)]


def test_a_piles_count_is_written_on_its_edge_not_where_a_value_goes() -> None:
    for size in CARD_SIZES[1:]:
        lines = [line.plain for line in draw_card(CardLook(Face.DOWN), size, caption="101")]
        assert "101" in lines[-1] and not any("1" in line for line in lines[:-1])
        assert len({len(line) for line in lines}) == 1  # still a card's width


def test_every_mark_of_a_card_has_its_own_frame_shape() -> None:
    """Plain, the last move, the hint, the cursor, and the cursor on the hint's card: each
    drawn with its own corner (or, on one line, its own edges), colour or not: on one line
    the cursor's ``[12]`` hid the hint's mark."""
    looks = (
        CardLook.of(5),
        CardLook.of(5, highlight=True),
        CardLook.of(5, hint=True, highlight=True),
        CardLook.of(5, cursor=True, highlight=True),
        CardLook.of(5, cursor=True, hint=True),
    )
    for size in CARD_SIZES:
        frames = [draw_card(look, size)[0].plain for look in looks]
        edges = [frame[:2] + frame[-1] for frame in frames]  # the corners and an edge
        assert len(set(edges)) == len(edges), (size, frames)


def test_the_score_sheet_follows_the_rounds_and_starts_again_for_a_rematch() -> None:
    from server.engine.events import RoundScored, RoundStarted, TotalsUpdated
    from skyjo_tui.sheet import ScoreSheet

    def a_round(
        number: int, scores: tuple[int, int], totals: tuple[int, int], doubled: bool
    ) -> list:
        return [
            RoundStarted(number, 5, 120),
            RoundScored((scores[0] // (2 if doubled else 1), scores[1]), scores, 0, doubled),
            TotalsUpdated(number, totals, False, ()),
        ]

    sheet = ScoreSheet()
    sheet.feed(a_round(1, (20, 5), (20, 5), True) + a_round(2, (3, 9), (23, 14), False))
    assert [(line.round, line.scores, line.totals) for line in sheet.lines] == [
        (1, (20, 5), (20, 5)),
        (2, (3, 9), (23, 14)),
    ]
    assert (
        sheet.lines[0].penalised(0)
        and not sheet.lines[0].penalised(1)
        and not sheet.lines[1].penalised(0)
    )
    sheet.feed(a_round(2, (3, 9), (23, 14), False))  # a catch-up repeating round 2: still one line
    assert len(sheet.lines) == 2
    sheet.feed(a_round(1, (7, 8), (7, 8), False))  # the rematch's first round: a new sheet
    assert [(line.round, line.totals) for line in sheet.lines] == [(1, (7, 8))]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_word_has_one_entry_in_each_language(lang: str) -> None:
    # A second "keys.discard" (leaving a form) once replaced the table's "Défausser".
    words = load_catalog(lang)
    table = {
        "de": "Ablegen",
        "en": "Discard",
        "es": "Descartar",
        "fr": "Défausser",
        "it": "Scarta",
        "nl": "Afleggen",
    }
    form = {
        "de": "Verwerfen",
        "en": "Discard",
        "es": "Descartar",
        "fr": "Abandonner",
        "it": "Annulla modifiche",
        "nl": "Weggooien",
    }
    assert (words["keys.discard"], words["keys.discard_changes"]) == (table[lang], form[lang])
