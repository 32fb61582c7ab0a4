"""Journey: a short local game to its end, then Statistics, and its replay from there."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Markdown, TabbedContent

from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.game_over import GameOverScreen
from skyjo_tui.screens.help import HelpScreen
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.replay import ReplayScreen
from skyjo_tui.screens.setup import SetupScreen
from skyjo_tui.screens.stats import StatsScreen

from ..players import KeyboardPlayer, play_to_game_over
from .seen import footer, on_screen, screen_text, until

REPLAY_KEYS = (
    "Next move",
    "Previous move",
    "Next round",
    "Previous round",
    "Review",
    "Every card",
    "Close",
)
#: Keys the replay's footer has no room for at 80 columns: in help.
HELP_ONLY_KEYS = (
    "Go to round",
    "Play/pause",
    "Last move",
    "First move",
    "Next game",
    "Previous game",
)


async def walk_statistics_and_a_replay_from_them(pilot: Pilot[Any]) -> None:
    app = pilot.app
    assert isinstance(app, SkyjoApp)
    await on_screen(pilot, HomeScreen)
    await pilot.press("n")
    setup = await on_screen(pilot, SetupScreen)
    setup.query_one("#variant-end-score", Input).value = "10"  # one round, most likely
    await pilot.press("enter")
    await play_to_game_over(pilot, app, KeyboardPlayer(pilot))
    await on_screen(pilot, GameOverScreen)
    assert (await footer(pilot)).has("Leave")
    await pilot.press("l")  # leave: home again
    await on_screen(pilot, HomeScreen)

    await pilot.press("s")
    stats = await on_screen(pilot, StatsScreen)
    await until(pilot, lambda: "1 game, " in screen_text(app), "one game in our statistics")
    assert "1 games" not in screen_text(app)
    tabs = stats.query_one("#stats-tabs", TabbedContent)
    await pilot.press("right", "right")  # the tabs have the keyboard: to Recent games
    await until(pilot, lambda: tabs.active == "recent", "the recent games")
    games = stats.query_one("#recent-games", DataTable)
    await until(pilot, lambda: games.row_count == 1, "our game in the recent games")
    assert "Enter on a game replays it." in screen_text(app)
    header = next(line for line in screen_text(app).splitlines() if "When" in line)
    assert "Winner" in header, header  # who won, within 80 columns (the players may not fit)
    assert (await footer(pilot)).has("Replay")  # as it says, without reaching for Tab first
    await pilot.press("enter")
    replay = await on_screen(pilot, ReplayScreen)  # on_screen: nothing of its footer is cut
    keys = await footer(pilot)
    assert all(keys.has(key) for key in REPLAY_KEYS), keys
    await until(pilot, lambda: "move 1/" in screen_text(app), "the first move")
    await pilot.press("right", "right")
    await until(pilot, lambda: "move 3/" in screen_text(app), "two moves later")
    await pilot.press("end")  # a key the footer does not show: it is in help
    await until(
        pilot,
        lambda: replay.recording is not None and replay.index == len(replay.recording.frames) - 1,
        "the last move",
    )
    await pilot.press("f1")
    help_screen = await on_screen(pilot, HelpScreen)
    text = help_screen.query_one(Markdown).source
    assert "| | |" not in text and "| Key | Does |" in text  # every keys table has its header
    for hidden in HELP_ONLY_KEYS:
        assert f"| {hidden} |" in text
    await pilot.press("escape")
    await on_screen(pilot, ReplayScreen)
    await pilot.press("q")
    await on_screen(pilot, StatsScreen)
    await pilot.press("escape")
    await on_screen(pilot, HomeScreen)


async def test_statistics_and_a_replay_from_them(make_app: Callable[..., SkyjoApp]) -> None:
    app = make_app(name="Zoé")
    async with app.run_test(size=(80, 24)) as pilot:
        await walk_statistics_and_a_replay_from_them(pilot)
