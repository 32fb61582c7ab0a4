"""Every screen's keys fit 80 columns, in every language, in each state a player
meets: the footer cuts none of them (a key cut off the bottom line is not seen at all).

Each case walks the real app to its screens (a local game against bots, a replay and its
review, a real server's lobby and rooms) and checks every footer on the way with
``on_screen``, which fails on any key cut. The home and lobby screens have their own
tests (test_footer.py, test_lobby_footer.py).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input

from server.app import SkyjoServer
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.i18n import LANGUAGES
from skyjo_tui.screens.create_table import CreateTableScreen
from skyjo_tui.screens.game_over import GameOverScreen
from skyjo_tui.screens.help import HelpScreen
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.join import JoinScreen
from skyjo_tui.screens.keys import KeysScreen
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.replay import ReplayScreen
from skyjo_tui.screens.review import ReviewScreen
from skyjo_tui.screens.room import RoomScreen
from skyjo_tui.screens.round_summary import RoundSummaryScreen
from skyjo_tui.screens.settings import SettingsScreen
from skyjo_tui.screens.setup import SetupScreen
from skyjo_tui.screens.stats import StatsScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.table.choices import Mode

from .journeys.seen import TIMEOUT, footer_keys, on_screen, screen_text, until
from .players import KeyboardPlayer, my_move, play_to_game_over
from .test_network import hosting
from .test_replay import write_record

WAIT = TIMEOUT  # seconds, as every journey waits: a step takes a fraction of that


async def fits(pilot: Pilot[Any], screen: type[Screen[Any]], what: str) -> None:
    """``screen`` is shown (its footer redrawn after the last key) and cuts no key; at a
    table and in its room, Help and Leave end the line (they were the keys cut)."""
    app = pilot.app
    assert isinstance(app, SkyjoApp)
    await pilot.pause()  # the keys a press changed are laid out anew before we look
    await until(pilot, lambda: footer_keys(app).settled, f"the footer of {what}", WAIT)
    await on_screen(pilot, screen, WAIT)
    if screen in (TableScreen, RoomScreen):
        shown = footer_keys(app).descriptions
        assert shown[-2:] == [app.tr("keys.help"), app.tr("keys.leave")], (what, shown)


async def back_home(pilot: Pilot[Any]) -> None:
    await pilot.press("escape")
    await on_screen(pilot, HomeScreen, WAIT)


async def to_our_turn(pilot: Pilot[Any], table: TableScreen) -> KeyboardPlayer:
    """Our first cards turned up (as a player types them), until it is our turn."""
    app, player = pilot.app, KeyboardPlayer(pilot)
    deadline = time.monotonic() + WAIT
    while not (my_move(app) and table.choices.draw):
        assert time.monotonic() < deadline, "no turn of ours"
        if my_move(app) and table.choices.flip:
            await player.play(table)
        await pilot.pause(0.02)
    return player


async def walk_the_menus(pilot: Pilot[Any], _tmp: Path, _server: Any) -> None:
    """Home's screens: set-up, settings and their keys, statistics, help, join."""
    await on_screen(pilot, HomeScreen, WAIT)
    for key, screen in (
        ("n", SetupScreen),
        ("s", StatsScreen),
        ("question_mark", HelpScreen),
        ("j", JoinScreen),
    ):
        await pilot.press(key)
        await fits(pilot, screen, screen.__name__)
        await back_home(pilot)
    await pilot.press("o")
    await fits(pilot, SettingsScreen, "the settings")
    await pilot.press("ctrl+b")
    await fits(pilot, KeysScreen, "the keys")


async def walk_a_local_game(pilot: Pilot[Any], _tmp: Path, _server: Any) -> None:
    """The table on each kind of move of ours (the first cards, our turn, the discard
    taken, a card drawn, that card discarded), its help, its scores, the game over, and
    the table once the game is over."""
    app = pilot.app
    await on_screen(pilot, HomeScreen, WAIT)
    await pilot.press("n")
    setup = await on_screen(pilot, SetupScreen, WAIT)
    setup.query_one("#variant-end-score", Input).value = "10"  # one round, most likely
    await pilot.press("enter")
    table = await on_screen(pilot, TableScreen, WAIT)
    await until(pilot, lambda: my_move(app) and table.choices.flip, "the first cards", WAIT)
    await fits(pilot, TableScreen, "the first cards to turn up")
    player = await to_our_turn(pilot, table)
    await fits(pilot, TableScreen, "our turn")
    await pilot.press("t")
    await until(pilot, lambda: table.mode is Mode.TAKE, "the discard taken", WAIT)
    await fits(pilot, TableScreen, "the discard taken")
    await pilot.press("escape")
    await until(pilot, lambda: table.mode is Mode.NORMAL, "the take cancelled", WAIT)
    await pilot.press("d")
    await until(pilot, lambda: table.choices.discard_flip, "a card drawn", WAIT)
    await fits(pilot, TableScreen, "a card drawn")
    await pilot.press("x")
    await until(pilot, lambda: table.mode is Mode.DISCARD, "the card to discard", WAIT)
    await fits(pilot, TableScreen, "the card to discard")
    await pilot.press("question_mark")
    await fits(pilot, HelpScreen, "the table's help")
    await pilot.press("escape")
    await on_screen(pilot, TableScreen, WAIT)
    await pilot.press("escape")  # the discard cancelled: the drawn card is still ours
    await until(pilot, lambda: table.mode is Mode.NORMAL, "the discard cancelled", WAIT)
    await pilot.press("s")  # the scores so far
    await fits(pilot, RoundSummaryScreen, "the scores")
    await pilot.press("escape")
    await on_screen(pilot, TableScreen, WAIT)
    await play_to_game_over(pilot, app, player)
    await fits(pilot, GameOverScreen, "the game over")
    await pilot.press("escape")
    await fits(pilot, TableScreen, "the table after the game over")


async def walk_a_replay_and_its_review(pilot: Pilot[Any], _tmp: Path, _server: Any) -> None:
    """A finished game's replay, its review, and the replay once reviewed (one key more)."""
    await fits(pilot, ReplayScreen, "the replay")
    await pilot.press("r")
    await fits(pilot, ReviewScreen, "the review")
    await pilot.press("escape")
    await fits(pilot, ReplayScreen, "the replay reviewed")


async def walk_a_room_as_host(pilot: Pilot[Any], _tmp: Path, _server: Any) -> None:
    """A new table of ours: its form, and its room before the game with a bot seated."""
    await on_screen(pilot, LobbyScreen, WAIT)
    await pilot.press("n")
    await fits(pilot, CreateTableScreen, "the new table's form")
    await pilot.press("ctrl+s")
    room: RoomScreen = await on_screen(pilot, RoomScreen, WAIT)
    await fits(pilot, RoomScreen, "our room")
    await pilot.press("b")
    await until(pilot, lambda: sum(1 for s in room.table["seats"] if s) == 2, "a bot", WAIT)
    await fits(pilot, RoomScreen, "our room with a bot")


async def walk_a_room_as_guest(pilot: Pilot[Any], _tmp: Path, server: SkyjoServer) -> None:
    """Dan's table, not started: its room as a guest, before and once ready."""
    app = pilot.app
    async with hosting(server.port, "Dan"):
        await on_screen(pilot, LobbyScreen, WAIT)
        await until(pilot, lambda: "Dan" in screen_text(app), "Dan's table listed", WAIT)
        await pilot.press("enter")
        room: RoomScreen = await on_screen(pilot, RoomScreen, WAIT)
        await fits(pilot, RoomScreen, "Dan's room")
        await pilot.press("r")
        await until(
            pilot,
            lambda: any(s and s.get("ready") for s in room.table["seats"] if s and not s["host"]),
            "ready",
            WAIT,
        )
        await fits(pilot, RoomScreen, "Dan's room, ready")


Walk = Callable[[Pilot[Any], Path, Any], Awaitable[None]]
#: (walk, where the app starts: home, a replay file, or a server's lobby)
WALKS: dict[str, tuple[Walk, str]] = {
    "menus": (walk_the_menus, "home"),
    "local game": (walk_a_local_game, "home"),
    "replay": (walk_a_replay_and_its_review, "replay"),
    "room as host": (walk_a_room_as_host, "server"),
    "room as guest": (walk_a_room_as_guest, "server"),
}


@pytest.mark.parametrize("walk", list(WALKS))
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_no_key_is_cut_at_80_columns(
    make_app: Callable[..., SkyjoApp],
    make_server: Callable[..., Awaitable[SkyjoServer]],
    tmp_path: Path,
    lang: str,
    walk: str,
) -> None:
    steps, start = WALKS[walk]
    server: SkyjoServer | None = None
    if start == "replay":
        write_record(tmp_path / "games.jsonl")
        app = make_app(lang=lang, replay=tmp_path / "games.jsonl")
    elif start == "server":
        server = await make_server()
        app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice", lang=lang)
    else:
        app = make_app(lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await steps(pilot, tmp_path, server)


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_a_narrow_table_keeps_help_and_leave_on_its_footer(
    make_app: Callable[..., SkyjoApp], lang: str
) -> None:
    """At 60 columns the table's keys on our turn do not all fit: whole keys give way
    before Help and Leave, a "…" says so, and no key is cut at the edge."""
    app = make_app(lang=lang)
    async with app.run_test(size=(60, 20)) as pilot:
        await on_screen(pilot, HomeScreen, WAIT)
        await pilot.press("n")
        await on_screen(pilot, SetupScreen, WAIT)
        await pilot.press("enter")
        table = await on_screen(pilot, TableScreen, WAIT)
        await to_our_turn(pilot, table)
        await fits(pilot, TableScreen, "our turn at 60 columns")
        line = screen_text(app).splitlines()[-1]
        assert app.tr("keys.group.draw_take") in line, line  # the move's keys come first
        assert " …  " in line and not footer_keys(app).has(app.tr("keys.scores")), line
