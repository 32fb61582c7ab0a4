"""Journey: at the game over, Esc shows the table (the last round's cards); from there the
scores key brings the game over back, with its rematch, leave and review, which the
table's own keys do not offer; leaving from the table asks first, promising no bot."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.confirm import ConfirmScreen
from skyjo_tui.screens.game_over import GameOverScreen
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.table import TableScreen

from ..players import KeyboardPlayer, play_to_game_over
from .seen import a_local_game, footer, on_screen, screen_text


async def to_the_table_after_the_game_over(pilot: Pilot[Any], app: SkyjoApp) -> None:
    """A local game to 10 played to its end, then Esc from the game over: the table."""
    await a_local_game(pilot, end_score=10)
    await play_to_game_over(pilot, app, KeyboardPlayer(pilot))
    await on_screen(pilot, GameOverScreen)
    await pilot.press("escape")
    await on_screen(pilot, TableScreen)


async def test_the_game_over_comes_back_from_the_table(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await to_the_table_after_the_game_over(pilot, app)
        keys = await footer(pilot)
        assert keys.has("Scores") and not keys.has("Rematch"), keys
        await pilot.press("s")
        await on_screen(pilot, GameOverScreen)
        keys = await footer(pilot)
        assert keys.has("Rematch") and keys.has("Leave"), keys


async def test_leaving_the_table_after_the_game_over_promises_no_bot(
    make_app: Callable[..., SkyjoApp],
) -> None:
    """The game is over: nobody plays our seat any more, and the question says no such thing."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await to_the_table_after_the_game_over(pilot, app)
        await pilot.press("q")
        question: ConfirmScreen = await on_screen(pilot, ConfirmScreen)
        assert question.question == "Leave this table?"
        assert "A bot will play" not in screen_text(app)
        await pilot.press("y")
        await on_screen(pilot, HomeScreen)
