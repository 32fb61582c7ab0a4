"""Journey: a local game as "Player", then Settings (a new name), then Statistics: the
games played here are still yours under the new name (one person, whatever they are called).

Also with a data directory an earlier version left: it renamed by logging in afresh
under the new name, a second player without the games; they are found again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Select, TabbedContent

from server.app import SkyjoServer
from server.netclient import ServerConnection
from skyjo_tui import preferences
from skyjo_tui.app import LOCAL_LABEL, SkyjoApp
from skyjo_tui.screens.game_over import GameOverScreen
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.settings import SettingsScreen
from skyjo_tui.screens.setup import SetupScreen
from skyjo_tui.screens.stats import StatsScreen

from ..conftest import server_config
from ..players import KeyboardPlayer, play_to_game_over
from .seen import on_screen, screen_text, until


async def a_short_game_against_one_bot(pilot: Pilot[Any]) -> None:
    """From home: one bot, the game ends at 10 (one round, most likely); back home."""
    app = pilot.app
    await on_screen(pilot, HomeScreen)
    await pilot.press("n")
    setup = await on_screen(pilot, SetupScreen)
    setup.query_one("#bot-count", Select).value = 1
    setup.query_one("#variant-end-score", Input).value = "10"
    await pilot.press("enter")
    await play_to_game_over(pilot, app, KeyboardPlayer(pilot))
    await on_screen(pilot, GameOverScreen)
    await pilot.press("l")  # leave: home again
    await on_screen(pilot, HomeScreen)


async def statistics_say(pilot: Pilot[Any], name: str, games: str, recent: int) -> None:
    """From home, Statistics: "You" is ``name`` with ``games`` ("1 game, "); ``recent``
    games are listed under Recent games; back home."""
    app = pilot.app
    await pilot.press("s")
    stats = await on_screen(pilot, StatsScreen)
    await until(pilot, lambda: games in screen_text(app), f"{games!r} in our statistics")
    lines = screen_text(app).splitlines()
    you = next(lines[i - 1] for i, line in enumerate(lines) if games in line).split()
    assert you == [name], f"our statistics are {you}'s, not {name}'s"
    tabs = stats.query_one("#stats-tabs", TabbedContent)
    await pilot.press("right", "right")  # the tabs have the keyboard: to Recent games
    await until(pilot, lambda: tabs.active == "recent", "the recent games")
    table = stats.query_one("#recent-games", DataTable)
    await until(pilot, lambda: table.row_count == recent, f"{recent} recent games")
    await pilot.press("escape")
    await on_screen(pilot, HomeScreen)


async def rename_in_settings(pilot: Pilot[Any], name: str) -> None:
    await pilot.press("o")
    await on_screen(pilot, SettingsScreen)
    await pilot.press("ctrl+a", *name, "ctrl+k")  # the old name goes with ctrl+k
    await pilot.press("ctrl+s")
    await on_screen(pilot, HomeScreen)


async def walk_a_game_then_a_new_name(pilot: Pilot[Any]) -> None:
    await a_short_game_against_one_bot(pilot)
    await statistics_say(pilot, "Player", "1 game, ", recent=1)
    await rename_in_settings(pilot, "Zoé")
    await statistics_say(pilot, "Zoé", "1 game, ", recent=1)
    await a_short_game_against_one_bot(pilot)  # and the next game counts with the first
    await statistics_say(pilot, "Zoé", "2 games, ", recent=2)


async def test_a_new_name_keeps_your_games_and_statistics(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app(environ={})  # no USER: the first game's seat is "Player"
    async with app.run_test(size=(80, 24)) as pilot:
        await walk_a_game_then_a_new_name(pilot)


async def rename_as_earlier_versions_did(data_dir: Path, name: str) -> None:
    """What an earlier version's Settings left: a login under the new name (no token), a
    player of its own, whose token and name the app kept."""
    server = SkyjoServer(server_config(data_dir / "local"))
    await server.start()
    try:
        conn = ServerConnection.from_streams(*await server.open_in_process())
        welcome = await conn.hello(name=name)
        await conn.close()
    finally:
        await server.stop()
    prefs = preferences.load(data_dir).with_token(LOCAL_LABEL, welcome.token)
    preferences.save(data_dir, replace(prefs, name=name))


async def test_games_an_earlier_version_left_under_your_old_name_are_found_again(
    make_app: Callable[..., SkyjoApp], tmp_path: Path
) -> None:
    app = make_app(environ={})
    async with app.run_test(size=(80, 24)) as pilot:
        await a_short_game_against_one_bot(pilot)
    await rename_as_earlier_versions_did(tmp_path / "client", "Zoé")
    app = make_app(environ={})  # the same data directory
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, HomeScreen)
        await statistics_say(pilot, "Zoé", "1 game, ", recent=1)
