"""The coach's words, in every language, from the server's structured hint."""

from __future__ import annotations

import json

from server.engine import Action, PlayerView, TableauView, ViewPhase
from server.engine.movelog import AWAY, LEFT, TIMER, Standin
from skyjo_tui.coaching import Hint, hint_marks, hint_text, review_summary, standin_words
from skyjo_tui.i18n import LANGUAGES, Translator, load_catalog

MINE = (5, None, None, 9, None, None, None, None, None, None, None, None)


def seat_zero_view(drawn: int | None = None) -> PlayerView:
    tableau = TableauView(MINE, (), 14)
    return PlayerView(
        0,
        1,
        ViewPhase.CHOOSE if drawn is None else ViewPhase.DRAWN,
        0,
        (tableau, tableau),
        3,
        90,
        drawn,
        None,
        (),
        (0, 0),
        None,
        (),
        (),
    )


def wire(move: Action, alternative: Action | None, given_away: float) -> Hint:
    """A hint as it comes over the wire (JSON-like maps)."""
    other = (
        None if alternative is None else {"move": alternative.to_dict(), "given_away": given_away}
    )
    return Hint.from_wire(
        json.loads(json.dumps({"move": move.to_dict(), "alternative": other, "moves": []}))
    )


def test_the_issues_example_in_english_and_french() -> None:
    hint = wire(Action.take_discard(0, 4), Action.draw(0), 3.12)
    view = seat_zero_view()
    assert hint_text(hint, view, Translator("en")) == (
        "Hint: Take the 3 and put it on your hidden card in column 2: "
        "about 3 points better than drawing."
    )
    assert hint_text(hint, view, Translator("fr")) == (
        "Conseil : Prenez le 3 et posez-le sur votre carte cachée de la colonne 2 : "
        "environ 3 points de mieux que piocher."
    )
    assert hint_marks(hint.move, view) == (frozenset({4}), frozenset({"discard"}))


def test_a_drawn_card_a_close_call_and_one_point() -> None:
    view = seat_zero_view(drawn=1)
    en = Translator("en")
    keep = wire(Action.swap_drawn(0, 3), Action.discard_and_flip(0, 1), 1.2)
    assert hint_text(keep, view, en) == (
        "Hint: Keep the 1 and put it on your 9 in column 2: about 1 point better than discarding it."
    )
    close = wire(Action.discard_and_flip(0, 7), Action.swap_drawn(0, 0), 0.3)
    assert hint_text(close, view, en) == (
        "Hint: Discard the 1 and turn up a card in column 3: about as good as keeping it."
    )
    assert hint_marks(close.move, view) == (frozenset({7}), frozenset({"discard"}))
    assert hint_marks(Action.draw(0), view) == (frozenset(), frozenset({"draw"}))
    assert review_summary(3, 11.4, en) == "3 costly moves, 11 points given away"
    assert review_summary(1, 2.0, Translator("fr")) == "1 coup coûteux, 2 points perdus"
    assert review_summary(1, 1.2, en) == "1 costly move, 1 point given away"
    assert review_summary(2, 1.4, Translator("fr")) == "2 coups coûteux, 1 point perdu"


def test_every_language_has_every_word_of_the_coach() -> None:
    english = {k for k in load_catalog("en") if k.startswith(("hint.", "review."))}
    assert len(english) > 20
    for lang in LANGUAGES:
        assert english <= set(load_catalog(lang)), lang


def test_a_stand_ins_move_is_said_to_be_the_bots_with_why_in_every_language() -> None:
    en, fr = Translator("en"), Translator("fr")
    said = {
        (AWAY, "en"): "The expert bot played for Ann while they were away",
        (TIMER, "en"): "The expert bot played for Ann: their time ran out",
        (LEFT, "en"): "The expert bot played for Ann, who had left the game",
        ("sleepy", "en"): "The expert bot played for Ann",  # a reason from a newer server
        (AWAY, "fr"): "Le robot expert a joué pour Ann pendant son absence",
        (LEFT, "fr"): "Le robot expert a joué pour Ann après son départ de la partie",
    }
    for (reason, lang), words in said.items():
        tr = en if lang == "en" else fr
        assert standin_words(Standin("expert", reason), "Ann", tr) == words
    assert standin_words(Standin("gentle", AWAY), "Ann", en).startswith("The gentle bot")
    assert review_summary(3, 11.4, en, standins=4, name="Ann") == (
        "3 costly moves, 11 points given away · 4 moves played by a bot for Ann: not counted"
    )
    assert review_summary(0, 0.0, fr, standins=1, name="Ann") == (
        "0 coup coûteux, 0 point perdu · 1 coup joué par un robot pour Ann : non compté"
    )
