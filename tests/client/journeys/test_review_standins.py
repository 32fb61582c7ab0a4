"""The review of a game where a bot played some of a person's moves while they were away.

From a records file's replay: the review lists the bot's moves as the bot's, counts
them in neither the costly moves nor the points given away, and ``n`` passes them by;
the replay says who played such a move, in its note and in its log. The person's name
would be markup (``[/x]``): it shows as typed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from server.bots.match import play_game
from server.bots.review import review_game
from server.engine import record_line
from server.engine.movelog import AWAY
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.replay import ReplayScreen
from skyjo_tui.screens.review import ReviewScreen
from skyjo_tui.widgets.line_log import LineLog
from skyjo_tui.widgets.text import TextTable

from ...support_records import with_standins
from ..hostile import CLOSE_TAG, shows_literally
from .seen import on_screen, prompt_line, screen_text, until

NAME = CLOSE_TAG  # the person whose seat a bot played now and then
WORDS = {
    "en": {
        "standins": f"2 moves played by a bot for {NAME}: not counted",
        "who": f"The greedy bot played for {NAME} while they were away",
        "line": "{name}, round {round}, turn {turn}: ",
        "not_counted": ": not counted in the review.",
        "summary": "{costly} costly moves, {points} points given away",
    },
    "fr": {
        "standins": f"2 coups joués par un robot pour {NAME} : non comptés",
        "who": f"Le robot glouton a joué pour {NAME} pendant son absence",
        "line": "{name}, manche {round}, tour {turn} : ",
        "not_counted": " : non compté dans le bilan.",
        "summary": "{costly} coups coûteux, {points} points perdus",
    },
}


def a_record_where_a_bot_played_for_them(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """A finished game against an expert; the greedy bot played the person's moves, and
    the record says so of the first two that were costly (the rest: as if theirs)."""
    record = play_game(["expert", "greedy"], seed=5, record=True).record
    assert record is not None
    record["seats"][1] = {"name": NAME, "bot": None}
    steps = [move.step for move in review_game(record, 1).costly[:2]]
    marked = with_standins(record, steps, "greedy", AWAY)
    path = tmp_path / "games.jsonl"
    path.write_text(record_line(marked) + "\n", "utf-8")
    return path, json.loads(record_line(marked))


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_review_shows_a_stand_ins_moves_as_the_bots_and_steps_past_them(
    make_app: Callable[..., SkyjoApp], tmp_path: Path, lang: str
) -> None:
    path, record = a_record_where_a_bot_played_for_them(tmp_path)
    expected, words = review_game(record, 1), WORDS[lang]
    bots = [expected.moves.index(move) for move in expected.standins]
    costly = [expected.moves.index(move) for move in expected.costly]
    assert len(bots) == 2 and costly and not set(bots) & set(costly)
    app = make_app(replay=path, lang=lang)
    async with app.run_test(size=(140, 34)) as pilot:
        await on_screen(pilot, ReplayScreen)
        await pilot.press("r")
        review: ReviewScreen = await on_screen(pilot, ReviewScreen)
        summary = words["summary"].format(
            costly=len(costly), points=round(expected.points_given_away)
        )
        await until(pilot, lambda: summary in screen_text(app), "the summary line")
        assert words["standins"] in screen_text(app)
        rows = review.query_one("#review-moves", TextTable)
        for row in bots:  # the bot's moves: no points, and who played them
            cells = [str(cell) for cell in rows.get_row_at(row)]
            assert cells[2] == "\N{EN DASH}" and cells[4] == words["who"], cells
        # n goes from costly move to costly move, around to the first: never to the bot's.
        visited = []
        for _ in range(len(costly) + 1):
            await pilot.press("n")
            await pilot.pause()
            visited.append(rows.cursor_row)
        assert set(visited) == set(costly), visited

        # Enter on the bot's first move: the replay says whose it was.
        while rows.cursor_row != bots[0]:
            await pilot.press("up" if rows.cursor_row > bots[0] else "down")
        move = expected.moves[bots[0]]
        await pilot.press("enter")
        replay: ReplayScreen = await on_screen(pilot, ReplayScreen)
        await until(pilot, lambda: replay.index == move.step - 1, "the position of that move")
        note = prompt_line(app)
        line = words["line"].format(name=NAME, round=move.round, turn=move.turn)
        assert note.startswith(line) and note.endswith(words["who"] + words["not_counted"]), note
        await pilot.press("right")  # the move itself: the log says the bot played it
        log = replay.query_one(LineLog)
        await until(pilot, lambda: words["who"] in "\n".join(log.lines), "the log")
        assert not shows_literally(app, NAME)
