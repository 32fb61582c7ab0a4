"""Journeys with the game review: after a local game, and from a `--record` file's replay."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Markdown

from server.bots.match import play_game
from server.bots.review import review_game
from server.engine import record_line
from skyjo_tui.app import SkyjoApp
from skyjo_tui.coaching import move_words
from skyjo_tui.i18n import LANGUAGES
from skyjo_tui.screens.game_over import GameOverScreen
from skyjo_tui.screens.help import HelpScreen
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.replay import ReplayScreen
from skyjo_tui.screens.review import ReviewScreen
from skyjo_tui.screens.setup import SetupScreen
from skyjo_tui.widgets.text import TextTable

from ..players import KeyboardPlayer, play_to_game_over
from .seen import (
    column_text,
    footer,
    footer_keys,
    on_screen,
    prompt_line,
    screen_lines,
    screen_text,
    until,
)


def a_record_with_alice(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """A finished game where Alice (a person: greedy played her moves) meets an expert."""
    record = play_game(["expert", "greedy"], seed=5, record=True).record
    assert record is not None
    record["seats"][1] = {"name": "Alice", "bot": None}
    path = tmp_path / "games.jsonl"
    path.write_text(record_line(record) + "\n", "utf-8")
    return path, json.loads(record_line(record))


async def the_review_from_the_replay(pilot: Pilot[Any]) -> tuple[ReviewScreen, TextTable]:
    """``r`` in the replay: the review, once worked out, and its table of moves."""
    await on_screen(pilot, ReplayScreen)
    await pilot.press("r")
    review: ReviewScreen = await on_screen(pilot, ReviewScreen)
    await until(pilot, lambda: review.review is not None, "the review worked out")
    rows = review.query_one("#review-moves", TextTable)
    await until(pilot, lambda: rows.row_count > 0, "the moves")
    return review, rows


async def test_the_best_move_is_named_unless_it_was_played(
    make_app: Callable[..., SkyjoApp], tmp_path: Path
) -> None:
    """A move that gave away a few tenths of a point was not "the same" as the best one:
    the review names the better move; "the same" is said of the best move itself, and of
    one the same words say (another hidden card of the column: alike to the model), never
    a best move worded as the one played beside it."""
    path, _ = a_record_with_alice(tmp_path)
    app = make_app(replay=path)
    async with app.run_test(size=(120, 30)) as pilot:
        review, rows = await the_review_from_the_replay(pilot)
        assert review.review is not None
        moves = review.review.moves
        played = [str(rows.get_row_at(index)[3]) for index in range(len(moves))]
        said = [str(rows.get_row_at(index)[4]) for index in range(len(moves))]
        assert "the same" in said and all(p != b for p, b in zip(played, said, strict=True))
        for move, best in zip(moves, said, strict=True):
            alike = move.played == move.best or move_words(move.best, move.view, app.tr) == (
                move_words(move.played, move.view, app.tr)
            )
            assert (best == "the same") == alike or best == "as good"
            assert not alike or move.given_away < 0.05  # alike: nothing given away
        close = [i for i, m in enumerate(moves) if 0 < m.given_away < 0.5]
        assert close and all(said[i] != "the same" for i in close)
        # Beside another move named as the best, the points never read 0.0: a hair worse
        # reads "<0.1".
        points = [str(rows.get_row_at(index)[2]) for index in range(len(moves))]
        hairs = [i for i, m in enumerate(moves) if 0 < m.given_away < 0.05]
        ties = [i for i, m in enumerate(moves) if not m.given_away and said[i] != "the same"]
        assert hairs and all(points[i] == "<0.1" for i in hairs)
        # Another move the model prices as the best is "as good": 0.0 beside its name read as
        # a contradiction.
        assert ties and all(said[i] == "as good" for i in ties)
        named = [
            p for p, best in zip(points, said, strict=True) if best not in ("the same", "as good")
        ]
        assert named and "0.0" not in named


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
        await pilot.press("q")  # back to the review, on the move replayed
        again: ReviewScreen = await on_screen(pilot, ReviewScreen)
        rows = again.query_one("#review-moves", TextTable)
        await until(pilot, lambda: rows.cursor_row == moves.index(target), "the same move")
        assert "points given away" in screen_text(app)  # at once: worked out already
        await pilot.press("escape")
        await on_screen(pilot, GameOverScreen)


def footer_has(pilot: Any, key: str) -> bool:
    return footer_keys(pilot.app).has(key)


def bottom_line(app: SkyjoApp) -> str:
    """The terminal's last row: the footer as the person reads it."""
    return screen_lines(app)[-1]


@pytest.mark.parametrize("size", [(80, 24), (120, 30)], ids=["80x24", "120x30"])
async def test_review_from_a_record_file_steps_to_each_costly_move(
    make_app: Callable[..., SkyjoApp], tmp_path: Path, size: tuple[int, int]
) -> None:
    path, record = a_record_with_alice(tmp_path)
    expected = review_game(record, 1)
    assert len(expected.costly) >= 2
    first, second = expected.costly[:2]
    app = make_app(replay=path)
    async with app.run_test(size=size) as pilot:
        replay: ReplayScreen = await on_screen(pilot, ReplayScreen)  # no key of its footer cut
        # The review's key is in the footer; its next costly move comes with the review.
        keys = await footer(pilot)
        assert keys.has("Review") and not keys.has("Next costly move"), keys
        assert " r Review " in bottom_line(app)
        await pilot.press("c")  # no review yet: nothing to step to
        await pilot.pause()
        assert replay.index == 0 and not prompt_line(app).startswith("Alice,")
        # Keys the footer has no room for at 80 columns are in help (F1).
        await pilot.press("f1")
        help_text = (await on_screen(pilot, HelpScreen)).query_one(Markdown).source
        assert "| Go to round |" in help_text and "| Play/pause |" in help_text
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
        await until(pilot, lambda: footer_has(pilot, "Next costly move"), "the key c")
        assert " c Next costly move " in bottom_line(app), bottom_line(app)
        assert not footer_keys(app).cut, footer_keys(app)
        # From the replay itself: c steps to the next costly move.
        await pilot.press("c")
        await until(pilot, lambda: replay.index == second.step - 1, "the next costly move")
        assert prompt_line(app).startswith(f"Alice, round {second.round}, turn {second.turn}: ")
        await pilot.press("right")  # stepping on: the replay's own words again
        await until(pilot, lambda: not prompt_line(app).startswith("Alice,"), "the move played")


async def test_in_french_at_80_columns_the_footer_holds_the_review_keys_too(
    make_app: Callable[..., SkyjoApp], tmp_path: Path
) -> None:
    """The longest labels: after a review left with Escape, every key still fits."""
    path, record = a_record_with_alice(tmp_path)
    first = review_game(record, 1).costly[0]
    app = make_app(replay=path, lang="fr")
    async with app.run_test(size=(80, 24)) as pilot:
        replay: ReplayScreen = await on_screen(pilot, ReplayScreen)
        assert " r Bilan " in bottom_line(app) and not footer_has(pilot, "Coup coûteux")
        await pilot.press("r")
        review: ReviewScreen = await on_screen(pilot, ReviewScreen)
        await until(pilot, lambda: review.review is not None, "the review worked out")
        await pilot.press("escape")
        await on_screen(pilot, ReplayScreen)  # nothing of its footer cut
        await until(pilot, lambda: footer_has(pilot, "Coup coûteux"), "the key c")
        assert " c Coup coûteux " in bottom_line(app), bottom_line(app)
        await pilot.press("c")
        await until(pilot, lambda: replay.index == first.step - 1, "the first costly move")
        assert prompt_line(app).startswith(f"Alice, manche {first.round}"), prompt_line(app)


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_at_80_columns_each_move_is_read_whole(
    make_app: Callable[..., SkyjoApp], tmp_path: Path, lang: str
) -> None:
    """The words of the move played and of the best one wrap in their columns: nothing of a
    row is off the right edge, nor behind a sideways scroll."""
    path, _ = a_record_with_alice(tmp_path)
    app = make_app(replay=path, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        review, rows = await the_review_from_the_replay(pilot)
        await pilot.press("n")  # to the first costly move: its best move is not "the same"
        await pilot.pause()
        assert rows.max_scroll_x == 0 and rows.region.right <= 80
        labels = [str(column.label) for column in rows.ordered_columns]
        await until(
            pilot, lambda: all(c in screen_text(app) for c in labels), "the headers drawn whole"
        )
        shown = {label: column_text(app, rows, labels, label) for label in labels}
        for index in (0, rows.cursor_row):
            points, played, best = (str(cell) for cell in rows.get_row_at(index)[2:])
            assert points in shown[labels[2]], (points, shown)
            assert played in shown[labels[3]], (played, shown)
            assert best in shown[labels[4]], (best, shown)
        costly = review.review.costly[0] if review.review else None
        assert costly is not None and "…" not in shown[labels[4]]
