"""Names, table names and chat that would be markup show as typed, on every screen.

Through the real client against a real server on 127.0.0.1: people whose
names are ``[/x]``, ``[reverse][blink]x`` and ``[@click=app.quit]x``, tables
named ``[link=...]free[/]`` and ``[/x] party``, chat lines full of tags. A
``MarkupError`` would end the app; a parsed tag would link, blink or style.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from server.app import SkyjoServer
from server.engine import Seat, Settings, game_record, record_line
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.name import NameScreen
from skyjo_tui.screens.replay import ReplayScreen
from skyjo_tui.screens.room import RoomScreen
from skyjo_tui.screens.round_summary import RoundSummaryScreen
from skyjo_tui.screens.stats import StatsScreen
from skyjo_tui.screens.table import TableScreen

from .hostile import (
    BOLD_UNICODE,
    CLICK,
    CLOSE_TABLE,
    CLOSE_TAG,
    LINK_TABLE,
    LOBBY_CHAT,
    LONG_TABLE,
    STYLES,
    TABLE_CHAT,
    Mischief,
    screen_text,
    shows_literally,
)
from .players import KeyboardPlayer, my_move, play_to_game_over, rows, wait_for
from .scenes import finished_game

SIZE = (160, 50)  # room for every whole name and line
OTHERS = (CLOSE_TAG, STYLES, CLICK)


async def shown(pilot: Pilot[Any], app: SkyjoApp, *texts: str) -> None:
    """Wait until each of ``texts`` is on screen; then nothing on it may be a parsed tag."""
    try:
        await wait_for(pilot, lambda: all(text in screen_text(app) for text in texts))
    except AssertionError:
        missing = [text for text in texts if text not in screen_text(app)]
        raise AssertionError(f"not on screen: {missing}\n{screen_text(app)}") from None
    await pilot.pause()
    assert shows_literally(app, *texts) == [], screen_text(app)


@dataclass
class Scene:
    server: SkyjoServer
    people: dict[str, Mischief]  # by name: the three at our table and the lobby's other hosts
    table_id: str


@contextlib.asynccontextmanager
async def hostile_lobby(server: SkyjoServer, end_score: int) -> AsyncIterator[Scene]:
    """[/x] hosts a table named [link=...]free[/]; two more tables have hostile names."""
    people: dict[str, Mischief] = {}
    try:
        for name in (*OTHERS, "Mallory", "Trent"):
            people[name] = await Mischief.arrive(server.port, name)
        created = await people[CLOSE_TAG].conn.request(
            {
                "type": "create_table",
                "name": LINK_TABLE,
                "seats": 4,
                "settings": {"end-score": end_score},
            }
        )
        await people["Mallory"].conn.request(
            {"type": "create_table", "name": CLOSE_TABLE, "seats": 2}
        )
        await people["Trent"].conn.request({"type": "create_table", "name": LONG_TABLE, "seats": 2})
        yield Scene(server, people, str(created["table"]["table_id"]))
    finally:
        for person in people.values():
            await person.leave()


@contextlib.asynccontextmanager
async def in_a_hostile_lobby(
    make_app: Callable[..., SkyjoApp], make_server: Callable[..., Any], end_score: int
) -> AsyncIterator[tuple[Scene, SkyjoApp, Pilot[Any]]]:
    """Our client, named like markup too, in the lobby of ``hostile_lobby``."""
    server = await make_server()
    async with hostile_lobby(server, end_score) as scene:
        app = make_app(tcp_connector("127.0.0.1", server.port), name=BOLD_UNICODE)
        async with app.run_test(size=SIZE) as pilot:
            yield scene, app, pilot


async def seated_at_the_hostile_table(
    pilot: Pilot[Any], app: SkyjoApp, scene: Scene, *, look: bool
) -> TableScreen:
    """From the lobby to the table in play, all four ready; ``look``: check each screen on the way."""
    await wait_for(pilot, lambda: rows(app, LobbyScreen, "#tables") == 3)
    lobby = app.screen
    assert isinstance(lobby, LobbyScreen)
    host = scene.people[CLOSE_TAG]
    if look:
        await host.conn.request({"type": "chat", "scope": "lobby", "text": LOBBY_CHAT})
        await shown(pilot, app, BOLD_UNICODE, LINK_TABLE, CLOSE_TABLE, LONG_TABLE, LOBBY_CHAT)
    for _ in range(3):  # the cursor to our table, as a player would move it
        if lobby._selected_id() == scene.table_id:  # noqa: SLF001
            break
        await pilot.press("down")
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(app.screen, RoomScreen))
    for name in (STYLES, CLICK):
        await scene.people[name].conn.request({"type": "join_table", "table_id": scene.table_id})
        await scene.people[name].conn.request({"type": "ready", "ready": True})
    if look:
        await scene.people[STYLES].conn.request(
            {"type": "chat", "scope": "table", "text": TABLE_CHAT}
        )
        await shown(pilot, app, LINK_TABLE, *OTHERS, BOLD_UNICODE, TABLE_CHAT)
    await pilot.press("r")
    await wait_for(pilot, lambda: all(s and s["ready"] for s in host.table.get("seats", [])[1:]))
    await host.conn.request({"type": "start_game"})
    await wait_for(
        pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.view is not None
    )
    table = app.screen
    assert isinstance(table, TableScreen)
    return table


def others_flipped(table: TableScreen) -> bool:
    view = table.view
    return view is not None and all(
        sum(card is not None for card in tableau.cards) == 2
        for seat, tableau in enumerate(view.tableaux)
        if seat != view.seat
    )


async def test_hostile_names_tables_and_chat_in_the_lobby_room_table_and_round_summary(
    make_app: Callable[..., SkyjoApp], make_server: Callable[..., Any]
) -> None:
    async with in_a_hostile_lobby(make_app, make_server, end_score=1000) as (scene, app, pilot):
        table = await seated_at_the_hostile_table(pilot, app, scene, look=True)
        await wait_for(pilot, lambda: others_flipped(table))
        for person in scene.people.values():
            person.hold()  # so that our screen shows whose turn it is
        player = KeyboardPlayer(pilot)
        for _ in range(20):  # our flips, and our first turn if we start
            await wait_for(pilot, lambda: my_move(app) is not None or "'s turn" in screen_text(app))
            if my_move(app) is None:
                break
            await player.play(table)
        assert table.view is not None and table.view.current_player is not None
        whose = [name for name in OTHERS if f"{name}'s turn" in screen_text(app)]
        assert whose, screen_text(app)
        # The status line, the prompt, every name line, the moves in words.
        await shown(
            pilot, app, f"{whose[0]}'s turn", f"Waiting for {whose[0]}", *OTHERS, BOLD_UNICODE
        )
        await shown(
            pilot, app, f"{CLOSE_TAG} turned up", f"{STYLES} turned up", f"{CLICK} turned up"
        )
        await scene.people[CLICK].conn.request(
            {"type": "chat", "scope": "table", "text": TABLE_CHAT}
        )
        await shown(pilot, app, f"{CLICK}: {TABLE_CHAT}")

        await pilot.press("s")  # the totals so far
        await wait_for(pilot, lambda: isinstance(app.screen, RoundSummaryScreen))
        await shown(pilot, app, *OTHERS, "You")  # our own seat is "You" to us
        await pilot.press("escape")

        for person in scene.people.values():
            person.go()
        deadline = time.monotonic() + 60
        for _ in range(3000):  # play on to the end of the round
            if isinstance(app.screen, RoundSummaryScreen) or time.monotonic() > deadline:
                break
            if my_move(app) is not None:
                await player.play(table)
            await pilot.pause(0.01)
        summary = app.screen
        assert isinstance(summary, RoundSummaryScreen) and summary.summary is not None
        closer = summary.summary.closer
        assert closer is not None
        await shown(pilot, app, *OTHERS, f"✓ {closer.name} closed the round")


async def test_hostile_names_at_game_over_in_statistics_and_in_the_replay(
    make_app: Callable[..., SkyjoApp], make_server: Callable[..., Any]
) -> None:
    async with in_a_hostile_lobby(make_app, make_server, end_score=10) as (scene, app, pilot):
        await seated_at_the_hostile_table(pilot, app, scene, look=False)
        over = await play_to_game_over(pilot, app, KeyboardPlayer(pilot))
        names = [
            p.name for p in over.summary.players if p.winner and p.seat != over.summary.own_seat
        ]
        await shown(pilot, app, *OTHERS, "You", *names)  # our own seat is "You" to us
        await pilot.press("g")  # the score sheet: each name heads its column, cut to 10 cells
        await shown(pilot, app, CLOSE_TAG, *(f"{name[:9]}…" for name in (STYLES, CLICK)))
        await pilot.press("g")

        await pilot.press("l")  # leave: back to the lobby, then the statistics
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, StatsScreen))
        await shown(pilot, app, BOLD_UNICODE)  # "You": our own name
        await pilot.click("#--content-tab-board")
        await shown(pilot, app, *OTHERS, BOLD_UNICODE)
        await pilot.click("#--content-tab-recent")
        await wait_for(pilot, lambda: rows(app, StatsScreen, "#recent-games") == 1)
        await shown(pilot, app, LINK_TABLE, *OTHERS, BOLD_UNICODE)
        await pilot.click("#recent-games")
        await pilot.press("enter")  # replay that game
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("end")
        await shown(pilot, app, *OTHERS, BOLD_UNICODE)

    # The names are stored: the statistics of a server restarted on the same data.
    await scene.server.stop()
    again = await make_server(scene.server.config.data_dir)
    app = make_app(tcp_connector("127.0.0.1", again.port), name="Walter")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("s")
        # The tab is clicked once it is there (under load the statistics take a moment).
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, StatsScreen) and app.screen.query("#--content-tab-recent")
            ),
        )
        await pilot.click("#--content-tab-recent")
        await shown(pilot, app, LINK_TABLE, CLOSE_TAG, STYLES, CLICK)


async def test_a_name_refused_because_it_is_taken_is_said_as_typed(
    make_app: Callable[..., SkyjoApp], make_server: Callable[..., Any]
) -> None:
    server = await make_server()
    first = await Mischief.arrive(server.port, CLOSE_TAG)
    try:
        app = make_app(tcp_connector("127.0.0.1", server.port), name=CLOSE_TAG)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, NameScreen))
            # The name as typed, kept to be changed; why, in our words (the server's own
            # words would name it too: tests/client/test_errors.py says them literally).
            await shown(pilot, app, CLOSE_TAG, "Someone online, or keeping a seat")
            app.notify(f"{STYLES} {CLICK}")  # a notification says it as it is, too
            app.notify(CLOSE_TABLE, title=CLOSE_TAG)
            await shown(pilot, app, f"{STYLES} {CLICK}", CLOSE_TABLE, f"{CLOSE_TAG} ")
    finally:
        await first.leave()


async def test_a_local_game_with_a_login_that_would_be_markup(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app(environ={"USER": CLOSE_TAG})  # the local player is named after the login
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("n")
        await pilot.press("ctrl+s")
        await wait_for(
            pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.view is not None
        )
        await shown(pilot, app, CLOSE_TAG)
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, RoundSummaryScreen))
        await shown(pilot, app, "You")  # the totals name our own seat "You", the board our login


async def test_a_replay_file_with_hostile_names_and_a_path_that_would_be_markup(
    tmp_path: Path, make_app: Callable[..., SkyjoApp]
) -> None:
    game = finished_game(3, seed=21, settings=Settings(end_score=60))
    record = game_record(game, [Seat(CLOSE_TAG), Seat(STYLES), Seat(CLICK)])
    path = tmp_path / "games.jsonl"
    path.write_text(record_line(record) + "\n", encoding="utf-8")
    app = make_app(replay=path)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("right", "right", "right")
        await shown(pilot, app, *OTHERS, f"{CLOSE_TAG} turned up")

    app = make_app(replay=Path("[b][/x]", "none.jsonl"))  # no such file: the error names it
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await shown(pilot, app, "cannot read [b][/x]/none.jsonl")
