"""The move log after a drop or a restart: the round so far, told once (a real server, Pilot)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from server.app import SkyjoServer
from server.netclient import ServerConnection
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.room import RoomScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.session import Link
from skyjo_tui.widgets.line_log import LineLog

from .players import KeyboardPlayer, my_move, rows, wait_for
from .relay import Relay
from .test_network import Opponent


@pytest.fixture
async def server(make_server: Callable[..., Awaitable[SkyjoServer]]) -> SkyjoServer:
    return await make_server()


@pytest.fixture
async def relay(server: SkyjoServer) -> AsyncIterator[Relay]:
    relay = Relay(server.port)
    await relay.start()
    yield relay
    await relay.stop()


@pytest.fixture
async def bob(server: SkyjoServer) -> AsyncIterator[Opponent]:
    conn = await ServerConnection.open("127.0.0.1", server.port)
    await conn.hello(name="Bob")
    opponent = Opponent(conn)
    opponent.start()
    yield opponent
    await opponent.stop()


def log_lines(app: SkyjoApp) -> list[str]:
    screen = app.screen
    return screen.query_one(LineLog).lines if isinstance(screen, TableScreen) else []


def bobs_flips(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("Bob turned up")]


async def test_moves_made_while_the_link_was_down_are_in_the_log_once_back(
    make_app: Callable[..., SkyjoApp], relay: Relay, bob: Opponent
) -> None:
    await bob.conn.request({"type": "create_table", "name": "Bob's table", "seats": 2})
    app = make_app(tcp_connector("127.0.0.1", relay.port), name="Alice", server_label="test")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: rows(app, LobbyScreen, "#tables") == 1)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, RoomScreen))
        await pilot.press("r")
        await wait_for(pilot, lambda: any(s and s["name"] == "Alice" and s["ready"] for s in bob.table.get("seats", [])))

        relay.accepting = False
        relay.cut()  # Alice's link drops; meanwhile the game starts and Bob flips his two cards
        await wait_for(pilot, lambda: app.session is not None and app.session.link is Link.RECONNECTING)
        await bob.conn.request({"type": "start_game"})
        await wait_for(pilot, lambda: bob.moves == 2)
        relay.accepting = True
        await wait_for(pilot, lambda: my_move(app) is not None)
        lines = log_lines(app)
        assert lines[0].startswith("Round 1") and len(bobs_flips(lines)) == 2

        # Alice turns a card up; the link drops and comes back: nothing is told twice.
        await KeyboardPlayer(pilot).play(app.screen)
        await wait_for(pilot, lambda: len(log_lines(app)) == len(lines) + 1)
        before = log_lines(app)
        table = app.screen
        relay.cut()
        await wait_for(pilot, lambda: app.session.link is Link.RECONNECTING)
        await wait_for(pilot, lambda: app.session.link is Link.ONLINE and my_move(app) is not None)
        assert app.screen is table and log_lines(app) == before


async def test_coming_back_after_quitting_shows_the_round_so_far(
    make_app: Callable[..., SkyjoApp], server: SkyjoServer, bob: Opponent
) -> None:
    await bob.conn.request({"type": "create_table", "name": "Bob's table", "seats": 2})
    first = make_app(tcp_connector("127.0.0.1", server.port), name="Alice", server_label="test")
    async with first.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: rows(first, LobbyScreen, "#tables") == 1)
        await pilot.press("enter", "r")
        await wait_for(pilot, lambda: any(s and s["name"] == "Alice" and s["ready"] for s in bob.table.get("seats", [])))
        await bob.conn.request({"type": "start_game"})
        await wait_for(pilot, lambda: my_move(first) is not None and len(bobs_flips(log_lines(first))) == 2)
        await KeyboardPlayer(pilot).play(first.screen)
        await wait_for(pilot, lambda: len(log_lines(first)) == 4)
        seen = log_lines(first)
    again = make_app(tcp_connector("127.0.0.1", server.port), server_label="test")
    async with again.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: my_move(again) is not None)
        assert log_lines(again) == seen  # the round start, Bob's two flips, Alice's first
