"""Journey: a count of one is said in the singular, in English and in French.

The review of a game where the person's own moves gave away a point in all read "1 costly
move, 1 points given away"; a move that gave away 1.3 points read "1,3 points perdus" in
French, where anything under 2 is singular. Each count is now said by its own words
(``Translator.plural``), a decimal one as written.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from server.bots.match import play_game
from server.bots.review import review_game
from server.engine import record_line
from server.engine.movelog import AWAY
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.replay import ReplayScreen
from skyjo_tui.screens.review import ReviewScreen

from ...support_records import with_standins
from .seen import on_screen, prompt_line, screen_text, until

#: What the person reads, by language: the summary, and the costly move's line (its end).
WORDS = {
    "en": ("1 costly move, 1 point given away", "(1.3 points given away)"),
    "fr": ("1 coup coûteux, 1 point perdu", "(1,3 point perdu)"),
}


def a_game_where_one_move_gave_away_a_point(tmp_path: Path) -> Path:
    """A finished game of Alice's (the greedy bot's moves) against an expert, where a bot
    played every move of hers but one costly one (step 227: 1.28 points given away), so that
    the review counts that move alone."""
    record = play_game(["expert", "greedy"], seed=5, record=True).record
    assert record is not None
    record["seats"][1] = {"name": "Alice", "bot": None}
    moves = review_game(record, 1).moves
    kept = next(move for move in moves if move.step == 227)
    assert kept.costly and round(kept.given_away) == 1 and round(kept.given_away, 1) == 1.3
    others = [move.step for move in moves if move is not kept]
    path = tmp_path / "games.jsonl"
    path.write_text(record_line(with_standins(record, others, "greedy", AWAY)) + "\n", "utf-8")
    return path


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_one_point_given_away_is_said_in_the_singular(
    make_app: Callable[..., SkyjoApp], tmp_path: Path, lang: str
) -> None:
    summary, line_end = WORDS[lang]
    app = make_app(replay=a_game_where_one_move_gave_away_a_point(tmp_path), lang=lang)
    async with app.run_test(size=(140, 34)) as pilot:
        await on_screen(pilot, ReplayScreen)
        await pilot.press("r")
        review: ReviewScreen = await on_screen(pilot, ReviewScreen)
        await until(pilot, lambda: summary in screen_text(app), "the summary in the singular")
        assert review.review is not None and len(review.review.costly) == 1
        await pilot.press("n", "enter")  # the costly move, in the replay
        await on_screen(pilot, ReplayScreen)
        await until(pilot, lambda: prompt_line(app).endswith(line_end), "the move's line")
