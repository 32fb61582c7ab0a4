"""Journeys: the person chooses whose moves the game review judges, every seat of the record
in turn, with a key of the footer; the title, the moves and the summary follow the seat.

After a local game the review opens on the person's own seat; a bots-only record's (a
`--record` file the person did not play in) on the first seat. The replay the review opens
(Enter) and its "next costly move" key follow the seat chosen, and so does the review opened
again from that replay.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from server.bots.match import play_game
from server.bots.review import Review, review_game
from server.engine import record_line
from skyjo_tui.app import SkyjoApp
from skyjo_tui.coaching import given_away_text
from skyjo_tui.i18n import Translator
from skyjo_tui.screens.game_over import GameOverScreen
from skyjo_tui.screens.replay import ReplayScreen
from skyjo_tui.screens.review import ReviewScreen
from skyjo_tui.widgets.text import TextTable

from ..hostile import BOLD_UNICODE, CLICK, CLOSE_TAG, LINK, STYLES, Cell
from ..hostile import screen_lines as screen_cells
from ..players import KeyboardPlayer, play_to_game_over
from .seen import (
    a_local_game,
    column_text,
    footer,
    footer_keys,
    notes,
    on_screen,
    prompt_line,
    screen_lines,
    screen_text,
    until,
)

#: What the person reads, by language: the title, the summary, the footer's key, the seats.
WORDS = {
    "en": {
        "title": "Review of {name}'s moves",
        "costly.one": "{count} costly move",
        "costly.other": "{count} costly moves",
        "points.one": "{count} point given away",
        "points.other": "{count} points given away",
        "key": "Next player",
        "costly_key": "Next costly move",
        "costly_hint": "n: the next costly move",
        "seats": "Players ({key} for the next): ",
        "line": "{name}, round {round}, turn {turn}: ",
        "no_costly": "No costly move: nothing to step to.",
    },
    "fr": {
        "title": "Bilan des coups joués par {name}",
        "costly.one": "{count} coup coûteux",
        "costly.other": "{count} coups coûteux",
        "points.one": "{count} point perdu",
        "points.other": "{count} points perdus",
        "key": "Joueur suivant",
        "costly_key": "Coup coûteux",
        "costly_hint": "n : le coup coûteux suivant",
        "seats": "Joueurs ({key} pour le suivant) : ",
        "line": "{name}, manche {round}, tour {turn} : ",
        "no_costly": "Aucun coup coûteux : rien à montrer.",
    },
}


#: Eight bots' seats named as people who mean harm might be (a record file is anyone's).
MARKUP_NAMES = (CLOSE_TAG, STYLES, CLICK, BOLD_UNICODE, "Ünïcødé ☃", "[b]", "eve", LINK)


def a_bots_only_record(
    tmp_path: Path, levels: tuple[str, ...] = ("expert", "greedy", "random")
) -> tuple[Path, dict[str, Any]]:
    """A finished game of bots (nobody the person is), as a `--record` file holds it."""
    record = play_game(levels, seed=5, record=True).record
    assert record is not None
    path = tmp_path / "bots.jsonl"
    path.write_text(record_line(record) + "\n", "utf-8")
    return path, json.loads(record_line(record))


def counted(lang: str, words: str, count: int) -> str:
    one = count in (0, 1) if lang == "fr" else count == 1  # French counts 0 as singular
    return WORDS[lang][f"{words}.{'one' if one else 'other'}"].format(count=count)


def summary_words(review: Review, lang: str) -> str:
    costly = counted(lang, "costly", len(review.costly))
    return f"{costly}, {counted(lang, 'points', round(review.points_given_away))}"


def points_seen(app: SkyjoApp) -> list[str]:
    """The review's Points column as drawn: the points of the moves on screen, top down."""
    rows = app.screen.query_one("#review-moves", TextTable)
    labels = [str(column.label) for column in rows.ordered_columns]
    return column_text(app, rows, labels, labels[2]).split()


def shows_review_of(app: SkyjoApp, name: str, review: Review, lang: str = "en") -> bool:
    """The review on screen is ``review``, of ``name``'s moves: its title, its summary and the
    points of its first moves, as the table draws them."""
    text = "\n".join(screen_lines(app))
    if (
        WORDS[lang]["title"].format(name=name) not in text
        or summary_words(review, lang) not in text
    ):
        return False
    seen = points_seen(app)
    # French writes "2,5"; a hair over nothing reads "<0.1" (coaching.given_away_text).
    tr = Translator(lang)
    expected = [given_away_text(move.given_away, tr) for move in review.moves]
    return len(seen) >= min(3, len(expected)) and seen == expected[: len(seen)]


def seats_line(names: list[str], key: str, lang: str = "en") -> str:
    return WORDS[lang]["seats"].format(key=key) + " · ".join(names)


def markup_read(app: SkyjoApp, selector: str) -> list[Cell]:
    """The cells of ``selector``'s lines that link, blink or run an action when clicked: a
    name read as markup (the moves' table below runs its own clicks)."""
    region = app.screen.query_one(selector).region
    lines = screen_cells(app)[region.y : region.bottom]
    cells = [cell for line in lines for cell in line[region.x : region.right]]
    return [cell for cell in cells if cell.link or cell.blink or cell.click]


def seats_seen(app: SkyjoApp) -> str:
    """The line of the record's seats, as a sentence (eight names wrap at 80 columns)."""
    region = app.screen.query_one("#review-seats").region
    lines = screen_lines(app)[region.y : region.bottom]
    return " ".join(line[region.x : region.right].strip() for line in lines)


def footer_has(app: SkyjoApp, description: str) -> bool:
    return footer_keys(app).has(description)


async def the_review_of(
    pilot: Pilot[Any], name: str, review: Review, lang: str = "en"
) -> ReviewScreen:
    screen: ReviewScreen = await on_screen(pilot, ReviewScreen)
    app = pilot.app
    assert isinstance(app, SkyjoApp)
    await until(pilot, lambda: shows_review_of(app, name, review, lang), f"{name}'s review")
    return screen


async def test_after_a_local_game_the_review_goes_from_my_moves_to_a_bots(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await a_local_game(pilot, end_score=10)
        await play_to_game_over(pilot, app, KeyboardPlayer(pilot))
        await on_screen(pilot, GameOverScreen)
        await until(pilot, lambda: footer_has(app, "Review"), "the review key")
        await pilot.press("v")
        review: ReviewScreen = await on_screen(pilot, ReviewScreen)
        record = review.record  # the stored game's record, from the real local server
        names = [str(seat["name"]) for seat in record["seats"]]
        assert names[0] == "Player" and len(names) >= 2, names
        mine, bots = review_game(record, 0), review_game(record, 1)
        await the_review_of(pilot, "Player", mine)  # my own seat first
        assert seats_line(names, "p") in "\n".join(screen_lines(app))
        keys = await footer(pilot)
        assert keys.has("Next player") and " p Next player " in screen_lines(app)[-1], keys

        await pilot.press("p")  # the next seat's moves: a bot's
        await the_review_of(pilot, names[1], bots)
        assert (mine.moves, mine.costly) != (bots.moves, bots.costly)
        first = bots.moves[0]
        await pilot.press("enter")  # its first move in the replay, in the review's words
        replay: ReplayScreen = await on_screen(pilot, ReplayScreen)
        await until(pilot, lambda: replay.index == first.step - 1, "the bot's first move")
        line = WORDS["en"]["line"].format(name=names[1], round=first.round, turn=first.turn)
        assert prompt_line(app).startswith(line), prompt_line(app)

        await pilot.press("r")  # the review again: on the seat chosen last
        await the_review_of(pilot, names[1], bots)
        for _ in range(len(names) - 1):  # round the table, back to my seat
            await pilot.press("p")
        await the_review_of(pilot, "Player", mine)


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_bots_only_record_opens_on_the_first_seat_and_reaches_every_seat(
    make_app: Callable[..., SkyjoApp], tmp_path: Path, lang: str
) -> None:
    path, record = a_bots_only_record(tmp_path)
    names = [str(seat["name"]) for seat in record["seats"]]  # "expert 1": not named by a server
    reviews = [review_game(record, seat) for seat in range(len(names))]
    assert len({(len(r.moves), len(r.costly)) for r in reviews}) == len(names)  # told apart
    assert reviews[-1].costly
    words = WORDS[lang]
    app = make_app(replay=path, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        replay: ReplayScreen = await on_screen(pilot, ReplayScreen)
        await pilot.press("r")
        await the_review_of(pilot, names[0], reviews[0], lang)  # nobody's own: the first seat
        assert seats_line(names, "p", lang) in "\n".join(screen_lines(app))
        keys = await footer(pilot)  # every key of the footer whole, at 80 columns
        assert keys.has(words["key"]) and f" p {words['key']} " in screen_lines(app)[-1], keys
        # The footer's key and the hint above it name costly moves in the same words.
        costly = next(words for key, words in keys.shown if key == "n")
        read = " ".join(screen_text(app).split())
        assert words["costly_hint"] in read and costly.lower() in words["costly_hint"], costly
        await pilot.press("n")  # the expert's moves: none costly, nothing to step to
        await until(pilot, lambda: words["no_costly"] in notes(app), "no costly move, said")
        for seat in range(1, len(names)):
            await pilot.press("p")
            await the_review_of(pilot, names[seat], reviews[seat], lang)
        last = reviews[-1]
        target = last.next_costly(last.moves[0].step)
        assert target is not None
        rows = app.screen.query_one("#review-moves", TextTable)
        await pilot.press("n")  # now the last seat's next costly move
        await until(pilot, lambda: rows.cursor_row == last.moves.index(target), "its costly move")
        await pilot.press("escape")  # the last seat's review, for the replay's next costly move
        await on_screen(pilot, ReplayScreen)
        first = last.costly[0]
        await until(pilot, lambda: footer_has(app, words["costly_key"]), "the key c")
        await pilot.press("c")
        await until(pilot, lambda: replay.index == first.step - 1, "its first costly move")
        line = words["line"].format(name=names[-1], round=first.round, turn=first.turn)
        assert prompt_line(app).startswith(line), prompt_line(app)
        await pilot.press("r")
        await the_review_of(pilot, names[-1], last, lang)
        await pilot.press("p")  # round the table: the first seat again
        await the_review_of(pilot, names[0], reviews[0], lang)


async def test_the_key_to_the_next_player_is_the_one_the_person_chose(
    make_app: Callable[..., SkyjoApp], tmp_path: Path
) -> None:
    path, record = a_bots_only_record(tmp_path)
    names = [str(seat["name"]) for seat in record["seats"]]
    data = tmp_path / "client"
    data.mkdir()
    (data / "client.json").write_text(json.dumps({"keys": {"review.next_seat": "w"}}), "utf-8")
    app = make_app(replay=path, data_dir=data)
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, ReplayScreen)
        await pilot.press("r")
        await the_review_of(pilot, names[0], review_game(record, 0))
        assert seats_line(names, "w") in "\n".join(screen_lines(app))
        keys = await footer(pilot)
        assert ("w", "Next player") in keys.shown and " w Next player " in screen_lines(app)[-1]
        await pilot.press("p")  # no longer the key: still the first seat
        await pilot.press("w")
        await the_review_of(pilot, names[1], review_game(record, 1))


async def test_eight_seats_named_with_markup_each_read_as_typed_at_80_columns(
    make_app: Callable[..., SkyjoApp], tmp_path: Path
) -> None:
    levels = ("expert", "greedy", "random", "greedy", "random", "greedy", "random", "greedy")
    path, record = a_bots_only_record(tmp_path, levels)
    for seat, name in zip(record["seats"], MARKUP_NAMES, strict=True):
        seat["name"] = name  # still bots: the first seat is the one reviewed first
    path.write_text(record_line(record) + "\n", "utf-8")
    names = list(MARKUP_NAMES)
    app = make_app(replay=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, ReplayScreen)
        await pilot.press("r")
        for seat, name in enumerate(names):  # every seat in turn, each by its name
            if seat:
                await pilot.press("p")
            await the_review_of(pilot, name, review_game(record, seat))
            assert seats_seen(app) == seats_line(names, "p"), seats_seen(app)
            for words in ("#review-title", "#review-seats"):
                assert not markup_read(app, words), (words, markup_read(app, words))
        assert not footer_keys(app).cut, footer_keys(app)
