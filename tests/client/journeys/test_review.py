"""Journeys with the game review: after a local game, and from a `--record` file's replay."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.widgets import Markdown

from server.bots.match import play_game
from server.bots.review import review_game
from server.engine import record_line
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.game_over import GameOverScreen
from skyjo_tui.screens.help import HelpScreen
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.replay import ReplayScreen
from skyjo_tui.screens.review import ReviewScreen
from skyjo_tui.screens.setup import SetupScreen
from skyjo_tui.widgets.text import TextTable

from ..players import KeyboardPlayer, play_to_game_over
from .seen import footer, on_screen, prompt_line, screen_text, until


def a_record_with_alice(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """A finished game where Alice (a person: greedy played her moves) meets an expert."""
    record = play_game(["expert", "greedy"], seed=5, record=True).record
    assert record is not None
    record["seats"][1] = {"name": "Alice", "bot": None}
    path = tmp_path / "games.jsonl"
    path.write_text(record_line(record) + "\n", "utf-8")
    return path, json.loads(record_line(record))


async def test_review_after_a_local_game(make_app: Callable[..., SkyjoApp]) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await on_screen(pilot, HomeScreen)
        await pilot.press("n")
        setup = await on_screen(pilot, SetupScreen)
        setup.query_one("#variant-end-score").value = "10"  # type: ignore[attr-defined]
        await pilot.press("enter")
        await play_to_game_over(pilot, app, KeyboardPlayer(pilot))
        await on_screen(pilot, GameOverScreen)
        await until(pilot, lambda: footer_has(pilot, "Review"), "the review key")
        await pilot.press("v")
        review: ReviewScreen = await on_screen(pilot, ReviewScreen)
        await until(pilot, lambda: "points given away" in screen_text(app), "the summary line")
        assert "Review of Player's moves" in screen_text(app)  # the local player's name
        assert review.review is not None and review.review.moves
        rows = review.query_one("#review-moves", TextTable)
        assert rows.row_count == len(review.review.moves)
        moves, costly = review.review.moves, review.review.costly
        assert costly  # the journeys' deal, and the keyboard player's plain moves
        assert f"{len(costly)} costly moves" in screen_text(app)
        assert (await footer(pilot)).has("Next costly move")
        target = review.review.next_costly(moves[0].step)  # from the first row, the next
        assert target is not None
        await pilot.press("n")
        await until(pilot, lambda: rows.cursor_row == moves.index(target), "the costly move")
        await pilot.press("enter")  # that move in the game's replay, with the review's words
        replay: ReplayScreen = await on_screen(pilot, ReplayScreen)
        await until(pilot, lambda: replay.index == target.step - 1, "the position of that move")
        words = prompt_line(app)
        assert words.startswith(f"Player, round {target.round}, turn {target.turn}: "), words
        await pilot.press("q")
        await on_screen(pilot, GameOverScreen)


def footer_has(pilot: Any, key: str) -> bool:
    from .seen import footer_keys

    return footer_keys(pilot.app).has(key)


async def test_review_from_a_record_file_steps_to_each_costly_move(
    make_app: Callable[..., SkyjoApp], tmp_path: Path
) -> None:
    path, record = a_record_with_alice(tmp_path)
    expected = review_game(record, 1)
    assert len(expected.costly) >= 2
    first, second = expected.costly[:2]
    app = make_app(replay=path)
    async with app.run_test(size=(80, 24)) as pilot:
        replay: ReplayScreen = await on_screen(pilot, ReplayScreen)
        await footer(pilot)  # 80 columns: the review's keys are in help (F1), not the footer
        await pilot.press("f1")
        help_text = (await on_screen(pilot, HelpScreen)).query_one(Markdown).source
        assert "| Review |" in help_text and "| Next costly move |" in help_text
        await pilot.press("escape")
        await on_screen(pilot, ReplayScreen)
        await pilot.press("r")
        review: ReviewScreen = await on_screen(pilot, ReviewScreen)
        summary = f"{len(expected.costly)} costly moves, {round(expected.points_given_away)} points"
        await until(pilot, lambda: summary in screen_text(app), "the summary line")
        assert "Review of Alice's moves" in screen_text(app)
        await pilot.press("n")  # straight to the first costly move, then see it in the replay
        rows = review.query_one("#review-moves", TextTable)
        await until(pilot, lambda: rows.cursor_row == expected.moves.index(first), "costly row")
        await pilot.press("enter")
        await on_screen(pilot, ReplayScreen)
        await until(pilot, lambda: replay.index == first.step - 1, "the position of that move")
        words = prompt_line(app)
        assert words.startswith(f"Alice, round {first.round}, turn {first.turn}: "), words
        assert f"({first.given_away:.1f} points given away)" in words
        # From the replay itself: c steps to the next costly move.
        await pilot.press("c")
        await until(pilot, lambda: replay.index == second.step - 1, "the next costly move")
        assert prompt_line(app).startswith(f"Alice, round {second.round}, turn {second.turn}: ")
        await pilot.press("right")  # stepping on: the replay's own words again
        await until(pilot, lambda: not prompt_line(app).startswith("Alice,"), "the move played")
