"""The client against a real server on 127.0.0.1: the lobby, a table, a drop, coming back."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.widgets import DataTable

from server.app import SkyjoServer
from server.netclient import ServerConnection, ServerError
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.link import Link
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.room import RoomScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.chat import ChatPanel
from skyjo_tui.widgets.line_log import LineLog

from .conftest import server_config
from .journeys.seen import screen_text
from .players import (
    KeyboardPlayer,
    current_screen,
    my_move,
    ready_at_the_listed_table,
    rows,
    wait_for,
)
from .relay import Relay


class Opponent:
    """Bob, on a plain protocol connection: plays his first legal move, is always ready."""

    def __init__(self, conn: ServerConnection) -> None:
        self.conn = conn
        self.table: dict[str, Any] = {}
        self.moves = 0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.ensure_future(self._play())

    async def _play(self) -> None:
        async for push in self.conn.pushes():
            if push["type"] == "table":
                self.table = push["table"]
            if push["type"] != "game":
                continue
            view = push["view"]
            with contextlib.suppress(ServerError):
                if view["legal_actions"]:
                    await self.conn.act(view["legal_actions"][0])
                    self.moves += 1
                elif view["phase"] == "round_over":
                    await self.conn.request({"type": "ready"})

    async def stop(self) -> None:
        # Closing first ends his pushes, so his task stops even if the cancel is lost
        # (Python 3.11's wait_for can swallow one when its reply lands at that moment).
        await self.conn.close()
        if self._task is not None:
            self._task.cancel()
            await asyncio.wait({self._task}, timeout=10)


@contextlib.asynccontextmanager
async def hosting(port: int, name: str, end_score: int = 10) -> AsyncIterator[Opponent]:
    """``name`` on the server at ``port``, host of a table of two, playing it."""
    conn = await ServerConnection.open("127.0.0.1", port)
    host = Opponent(conn)
    try:
        await conn.hello(name=name)
        settings = {"end-score": end_score}
        await conn.request({"type": "create_table", "name": name, "seats": 2, "settings": settings})
        host.start()
        yield host
    finally:
        await host.stop()


@pytest.fixture
async def bob(server: SkyjoServer) -> AsyncIterator[Opponent]:
    conn = await ServerConnection.open("127.0.0.1", server.port)
    await conn.hello(name="Bob")
    opponent = Opponent(conn)
    opponent.start()
    yield opponent
    await opponent.stop()


def status_text(table: TableScreen) -> str:
    return str(table.query_one("#status").render())


async def test_join_play_drop_and_come_back(
    make_app: Callable[..., SkyjoApp], server: SkyjoServer, relay: Relay, bob: Opponent
) -> None:
    created = await bob.conn.request(
        {"type": "create_table", "name": "Bob's table", "seats": 2, "settings": {"end-score": 10}}
    )
    app = make_app(tcp_connector("127.0.0.1", relay.port), name="Alice", server_label="test")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: rows(app, LobbyScreen, "#tables") == 1)
        await pilot.press("enter")  # join the selected table
        await wait_for(pilot, lambda: isinstance(app.screen, RoomScreen))
        await pilot.press("r")  # ready
        await wait_for(
            pilot,
            lambda: any(
                s and s["name"] == "Alice" and s["ready"] for s in bob.table.get("seats", [])
            ),
        )
        await bob.conn.request({"type": "start_game"})
        await wait_for(pilot, lambda: my_move(app) is not None)
        table = current_screen(app, TableScreen)
        assert table.view is not None and table.view.seat == 1

        player = KeyboardPlayer(pilot)
        await player.play(table)  # a first card turned up
        await wait_for(
            pilot,
            lambda: (
                table.view is not None
                and sum(c is not None for c in table.view.tableaux[1].cards) == 1
            ),
        )

        relay.accepting = False
        relay.cut()
        await wait_for(pilot, lambda: "reconnecting" in status_text(table))
        assert app.session is not None and app.session.link is Link.RECONNECTING
        relay.accepting = True
        await wait_for(
            pilot,
            lambda: (
                app.session is not None
                and app.session.link is Link.ONLINE
                and "reconnecting" not in status_text(table)
            ),
        )
        assert relay.connections >= 2 and app.screen is table  # back at the same table, same screen

        before = bob.moves
        for _ in range(6):  # the game goes on: we play, Bob answers
            await wait_for(pilot, lambda: my_move(app) is not None)
            await player.play(table)
            await pilot.pause(0.05)
        await wait_for(pilot, lambda: bob.moves > before)
        assert table.view is not None and table.view.seat == 1 and app.heard.table is not None
        assert created["table"]["table_id"] == app.heard.table["table_id"]


async def test_enter_joins_a_table_as_soon_as_it_is_listed(
    make_app: Callable[..., SkyjoApp], server: SkyjoServer, bob: Opponent
) -> None:
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice")
    async with app.run_test(size=(80, 24)) as pilot:
        app.post_message(events.AppBlur())  # the terminal says it lost focus (OpenSSH can)
        await wait_for(pilot, lambda: rows(app, LobbyScreen, "#tables") == 0)
        await bob.conn.request({"type": "create_table", "name": "Bob's table", "seats": 2})
        await wait_for(pilot, lambda: rows(app, LobbyScreen, "#tables") == 1)
        tables = app.screen.query_one("#tables", DataTable)
        await wait_for(pilot, lambda: tables.has_focus and tables.cursor_row == 0)
        await pilot.press("enter")  # no Down first
        await wait_for(pilot, lambda: isinstance(app.screen, RoomScreen))
        assert any(
            s and s["name"] == "Alice" for s in current_screen(app, RoomScreen).table["seats"]
        )


async def test_host_a_table_add_a_bot_start_and_see_the_turn_timer(
    make_app: Callable[..., SkyjoApp], server: SkyjoServer
) -> None:
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: rows(app, LobbyScreen, "#tables") == 0)
        await pilot.press("n")  # a new table
        await wait_for(pilot, lambda: app.screen.query("#timer"))
        await pilot.click("#timer")
        await pilot.press("3", "0")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: rows(app, RoomScreen, "#seats") == 4)
        room = app.screen
        assert isinstance(room, RoomScreen) and room.am_host
        await pilot.press("b")  # a bot of the level shown
        await wait_for(pilot, lambda: sum(1 for s in room.table["seats"] if s) == 2)
        await pilot.press("s")  # start
        await wait_for(
            pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.view is not None
        )
        assert "⏱" in status_text(current_screen(app, TableScreen))
        # The board took the place of the room and of the lobby (no lobby kept underneath);
        # leaving the game brings a lobby back.
        assert [type(s).__name__ for s in app.screen_stack[1:]] == ["TableScreen"]
        await pilot.press("q", "y")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        assert [type(s).__name__ for s in app.screen_stack[1:]] == ["LobbyScreen"]


async def test_watch_a_game_and_errors_are_said_plainly(
    make_app: Callable[..., SkyjoApp], server: SkyjoServer
) -> None:
    dan = await ServerConnection.open("127.0.0.1", server.port)  # Dan starts a game, then thinks
    try:
        await dan.hello(name="Dan")
        await dan.request({"type": "create_table", "name": "Dan's table", "seats": 2})
        await dan.request({"type": "add_bot", "level": "random"})
        await dan.request({"type": "start_game"})
        app = make_app(tcp_connector("127.0.0.1", server.port), name="Carol")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: rows(app, LobbyScreen, "#tables") == 1)
            await pilot.press("k")  # join by code: a code nobody uses
            await pilot.press(*"ZZZZZZ", "enter")
            # Said in the code's dialog (tests/client/journeys/test_dialog_refusals.py), not a crash
            await wait_for(pilot, lambda: "There is no such table" in screen_text(app))
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))

            await pilot.press("w")  # watch the table
            await wait_for(
                pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.view is not None
            )
            table = current_screen(app, TableScreen)
            assert table.view is not None and table.view.seat is None and not table.choices.any
            assert "watching" in str(table.query_one("#prompt").render())
    finally:
        await dan.close()


async def test_come_back_to_the_seat_after_quitting(
    make_app: Callable[..., SkyjoApp], server: SkyjoServer, bob: Opponent
) -> None:
    first = make_app(tcp_connector("127.0.0.1", server.port), name="Alice", server_label="test")
    async with first.run_test(size=(80, 24)) as pilot:
        # r once the room is there (pressed with Enter, under load it reached the lobby).
        await ready_at_bobs_table(pilot, first, bob)
        await bob.conn.request({"type": "start_game"})
        await wait_for(
            pilot, lambda: isinstance(first.screen, TableScreen) and first.screen.view is not None
        )
    # The app is closed; its resume token was saved: the next start returns to the seat.
    again = make_app(tcp_connector("127.0.0.1", server.port), server_label="test")
    async with again.run_test(size=(80, 24)) as pilot:
        await wait_for(
            pilot, lambda: isinstance(again.screen, TableScreen) and again.screen.view is not None
        )
        view = current_screen(again, TableScreen).view
        assert view is not None and view.seat == 1
        # The board took the lobby's place (nothing of the lobby is kept while seated).
        assert [type(s).__name__ for s in again.screen_stack[1:]] == ["TableScreen"]
        await pilot.press("q", "y")  # leave the game: back to the lobby
        await wait_for(pilot, lambda: isinstance(again.screen, LobbyScreen))


# -- the move log after a drop or a restart: the round so far, told once ----------------


async def ready_at_bobs_table(pilot: Any, app: SkyjoApp, bob: Opponent) -> None:
    """Bob opens a table for two; Alice (``app``) joins it from the lobby and is ready."""
    await bob.conn.request({"type": "create_table", "name": "Bob's table", "seats": 2})
    await ready_at_the_listed_table(pilot, "Alice")
    # Bob has heard it too: his next move may be to start.
    await wait_for(
        pilot,
        lambda: any(s and s["name"] == "Alice" and s["ready"] for s in bob.table.get("seats", [])),
    )


def log_lines(app: SkyjoApp) -> list[str]:
    screen = app.screen
    return screen.query_one(LineLog).lines if isinstance(screen, TableScreen) else []


def bobs_flips(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("Bob turned up")]


async def test_moves_made_while_the_link_was_down_are_in_the_log_once_back(
    make_app: Callable[..., SkyjoApp], relay: Relay, bob: Opponent
) -> None:
    app = make_app(tcp_connector("127.0.0.1", relay.port), name="Alice", server_label="test")
    async with app.run_test(size=(100, 30)) as pilot:
        await ready_at_bobs_table(pilot, app, bob)

        relay.accepting = False
        relay.cut()  # Alice's link drops; meanwhile the game starts and Bob flips his two cards
        await wait_for(
            pilot, lambda: app.session is not None and app.session.link is Link.RECONNECTING
        )
        await bob.conn.request({"type": "start_game"})
        await wait_for(pilot, lambda: bob.moves == 2)
        relay.accepting = True
        await wait_for(pilot, lambda: my_move(app) is not None)
        lines = log_lines(app)
        assert lines[0].startswith("Round 1") and len(bobs_flips(lines)) == 2

        # Alice turns a card up; the link drops and comes back: nothing is told twice.
        await KeyboardPlayer(pilot).play(current_screen(app, TableScreen))
        await wait_for(pilot, lambda: len(log_lines(app)) == len(lines) + 1)
        before = log_lines(app)
        table = current_screen(app, TableScreen)
        relay.cut()
        await wait_for(
            pilot, lambda: app.session is not None and app.session.link is Link.RECONNECTING
        )
        await wait_for(
            pilot,
            lambda: (
                app.session is not None
                and app.session.link is Link.ONLINE
                and my_move(app) is not None
            ),
        )
        assert app.screen is table and log_lines(app) == before


async def test_coming_back_after_quitting_shows_the_round_so_far(
    make_app: Callable[..., SkyjoApp], server: SkyjoServer, bob: Opponent
) -> None:
    first = make_app(tcp_connector("127.0.0.1", server.port), name="Alice", server_label="test")
    async with first.run_test(size=(100, 30)) as pilot:
        await ready_at_bobs_table(pilot, first, bob)
        await bob.conn.request({"type": "start_game"})
        await wait_for(
            pilot, lambda: my_move(first) is not None and len(bobs_flips(log_lines(first))) == 2
        )
        await KeyboardPlayer(pilot).play(current_screen(first, TableScreen))
        await wait_for(pilot, lambda: len(log_lines(first)) == 4)
        seen = log_lines(first)
    again = make_app(tcp_connector("127.0.0.1", server.port), server_label="test")
    async with again.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: my_move(again) is not None)
        assert log_lines(again) == seen  # the round start, Bob's two flips, Alice's first


# -- who is here: the lobby's earlier chat, watchers, a player away ------------------------


def label_text(screen: Any, selector: str) -> str:
    return str(screen.query_one(selector).render())


async def test_someone_arriving_in_the_lobby_sees_its_earlier_chat_as_written(
    make_app: Callable[..., SkyjoApp], server: SkyjoServer, bob: Opponent
) -> None:
    await bob.conn.request({"type": "chat", "text": "hi [b]all[/b]", "scope": "lobby"})
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice", server_label="test")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: rows(app, LobbyScreen, "#tables") == 0)
        chat = app.screen.query_one(ChatPanel)
        await wait_for(pilot, lambda: "Bob: hi [b]all[/b]" in chat.text)


async def test_players_are_told_who_watches_and_who_is_away(
    make_app: Callable[..., SkyjoApp], server: SkyjoServer, bob: Opponent
) -> None:
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice", server_label="test")
    carol = await ServerConnection.open("127.0.0.1", server.port)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await ready_at_bobs_table(pilot, app, bob)
            room = app.screen
            await carol.hello(name="Carol")
            await carol.request({"type": "spectate", "table_id": bob.table["table_id"]})
            await wait_for(pilot, lambda: label_text(room, "#room-watchers") == "Watching: Carol")
            assert "Carol is watching." in room.query_one(ChatPanel).text

            await bob.conn.request({"type": "start_game"})
            await wait_for(pilot, lambda: my_move(app) is not None)
            assert log_lines(app)[0] == "Watching: Carol"
            await bob.stop()  # Bob's connection drops: the grace time is 60 s
            await wait_for(
                pilot, lambda: "Bob is away: a bot plays for them in 60 s." in log_lines(app)
            )
    finally:
        await carol.close()


async def test_someone_who_leaves_the_game_is_said_to_have_left_not_to_be_away(
    make_app: Callable[..., SkyjoApp], server: SkyjoServer, bob: Opponent
) -> None:
    """Bob leaves mid-game (a bot plays his seat to the end): Alice is told he left, his
    seat says "left", and nobody says he is away or, later, back."""
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice", server_label="test")
    async with app.run_test(size=(100, 30)) as pilot:
        await ready_at_bobs_table(pilot, app, bob)
        await bob.conn.request({"type": "start_game"})
        await wait_for(pilot, lambda: my_move(app) is not None)
        await bob.conn.request({"type": "leave_table"})
        told = "Bob left the game: a bot plays for them to its end."
        await wait_for(pilot, lambda: told in log_lines(app))
        await wait_for(pilot, lambda: "Bob left" in screen_text(app))  # his seat's line
        assert not any("away" in line or "back" in line for line in log_lines(app))


def notices(app: SkyjoApp) -> list[str]:
    return [n.message for n in app._notifications]  # noqa: SLF001 - Textual's notifications (no public list)


async def test_a_server_that_stops_is_said_to_be_shutting_down(
    make_app: Callable[..., SkyjoApp], tmp_path: Path
) -> None:
    """The admin stops the server while Alice sits in its lobby over TCP: she reads that the
    server is shutting down (it said "Connection lost"), and the client waits for it."""
    server = SkyjoServer(server_config(tmp_path / "data"))
    await server.start()
    running = True
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice", server_label="test")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await server.stop()
            running = False
            await wait_for(pilot, lambda: bool(notices(app)))
            assert notices(app) == ["The server is shutting down: reconnecting once it is back…"]
            assert app.session is not None and app.session.link is Link.RECONNECTING
    finally:
        if running:
            await server.stop()
