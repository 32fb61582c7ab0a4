"""Whole local games against bots, through the real in-process server, by keys and by mouse."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.game_over import GameOverScreen
from skyjo_tui.screens.setup import SetupScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.line_log import LineLog

from .players import KeyboardPlayer, MousePlayer, play_to_game_over, wait_for


async def test_keyboard_game_from_home_to_game_over(make_app: Callable[..., SkyjoApp]) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")  # home: "Play against bots"
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
        await pilot.click("#variant-end-score")
        await pilot.press("end", "backspace", "backspace", "backspace", "1", "0")
        await pilot.click("#bot-count")
        await pilot.press("up", "up", "enter")  # from 3 bots to 1 bot
        await pilot.press("ctrl+s")  # start
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.view is not None)
        table = app.screen
        assert isinstance(table, TableScreen)
        assert len(table.view.tableaux) == 2  # type: ignore[union-attr]

        player = KeyboardPlayer(pilot)
        over = await play_to_game_over(pilot, app, player)

        assert {"enter", "space", "d", "x"} <= player.keys_used
        assert {"up", "down", "k", "j"} & player.keys_used and {"left", "right", "h", "l"} & player.keys_used
        assert over.summary.game_over and over.summary.winners
        assert max(p.total for p in over.summary.players) >= 10  # the chosen end score
        log = table.query_one(LineLog).lines
        assert any(" drew " in line for line in log) and any("Round 1 begins" in line for line in log)


async def test_two_key_presses_start_a_local_game(make_app: Callable[..., SkyjoApp]) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.view is not None)
        view = app.screen.view  # type: ignore[attr-defined]
        assert view.phase == "initial_flips" and len(view.tableaux) == 4  # three bots by default


async def test_mouse_game_to_game_over_then_rematch(make_app: Callable[..., SkyjoApp]) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.click("#menu", offset=(3, 1))  # "Play against bots"
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
        await pilot.click("#variant-end-score")
        await pilot.press("end", "backspace", "backspace", "backspace", "1", "5")
        await pilot.click("#start")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.view is not None)
        table = app.screen
        assert isinstance(table, TableScreen)

        player = MousePlayer(pilot)
        over = await play_to_game_over(pilot, app, player)
        assert player.clicks > 10 and over.summary.winners

        await pilot.click("#rematch")
        await wait_for(pilot, lambda: not isinstance(app.screen, GameOverScreen))
        await wait_for(pilot, lambda: table.view is not None and table.view.round == 1 and table.view.phase == "initial_flips")
        assert all(total == 0 for total in table.view.totals)  # type: ignore[union-attr]
