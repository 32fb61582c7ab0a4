"""Journey: at the game over, Esc shows the table (the last round's cards); from there the
scores key brings the game over back, with its rematch, leave and review, which the
table's own keys do not offer."""

from __future__ import annotations

from collections.abc import Callable

from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.game_over import GameOverScreen
from skyjo_tui.screens.table import TableScreen

from ..players import KeyboardPlayer, play_to_game_over
from .seen import a_local_game, footer, on_screen


async def test_the_game_over_comes_back_from_the_table(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await a_local_game(pilot, end_score=10)
        await play_to_game_over(pilot, app, KeyboardPlayer(pilot))
        await on_screen(pilot, GameOverScreen)
        await pilot.press("escape")
        await on_screen(pilot, TableScreen)
        keys = await footer(pilot)
        assert keys.has("Scores") and not keys.has("Rematch"), keys
        await pilot.press("s")
        await on_screen(pilot, GameOverScreen)
        keys = await footer(pilot)
        assert keys.has("Rematch") and keys.has("Leave"), keys
