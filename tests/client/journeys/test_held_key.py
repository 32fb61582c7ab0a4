"""Journeys: a held key never costs the connection. In the lobby of a server with its
default limits (20 messages a second, 40 at once), Alice holds ``r`` (refresh) down: key
repeat sends about 60 presses a second. She stays connected (no "Connection lost" and no
"Connected again"), the lobby still says who is here, and it still follows the server.
Back after a drop, the lobby follows who is here again."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from server.config import Limits
from server.netclient import ServerConnection
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.link import Link
from skyjo_tui.screens.lobby import LobbyScreen

from ..players import burst
from ..relay import Relay
from .seen import notes, on_screen, screen_text, until

#: The server's own limits, as it runs by default (the other tests' servers take thousands).
DEFAULT_RATES = Limits(max_connections_per_address=64)
REPEAT = 60  # presses a second: a keyboard's auto-repeat


async def bob_arrives(pilot: Pilot[Any], port: int) -> None:
    """Bob comes online: until the lobby on screen says two are here."""
    bob = await ServerConnection.open("127.0.0.1", port)
    try:
        await bob.hello(name="Bob")
        await until(pilot, lambda: "Here (2):" in screen_text(pilot.app), "Bob here too")
    finally:
        await bob.close()


async def test_holding_refresh_down_keeps_the_connection_and_who_is_here(
    make_app: Callable[..., SkyjoApp], make_server: Callable[..., Any], tmp_path: Path
) -> None:
    server = await make_server(limits=DEFAULT_RATES)
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice")
    async with app.run_test(size=(100, 30)) as pilot:
        await on_screen(pilot, LobbyScreen)
        await until(pilot, lambda: "Here (1):" in screen_text(app), "who is here")
        session = app.session
        assert session is not None
        alices = {s for s in server.lobby.sessions if s.name == "Alice"}  # her connection
        for _ in range(REPEAT):  # a second of key repeat
            burst(app, "r")
            await pilot.pause(1 / REPEAT)
        # Bob arrives: the lobby, still followed, says so (its answers to the presses are in).
        await bob_arrives(pilot, server.port)
        assert session.link is Link.ONLINE and app.session is session
        assert not any("Connection" in note or "again" in note for note in notes(app)), notes(app)
        assert {s for s in server.lobby.sessions if s.name == "Alice"} == alices


async def test_back_after_a_drop_the_lobby_still_follows_who_is_here(
    make_app: Callable[..., SkyjoApp], make_server: Callable[..., Any]
) -> None:
    server = await make_server()
    link = Relay(server.port)
    await link.start()
    try:
        app = make_app(tcp_connector("127.0.0.1", link.port), name="Alice", server_label="t")
        async with app.run_test(size=(100, 30)) as pilot:
            await on_screen(pilot, LobbyScreen)
            await until(pilot, lambda: "Here (1):" in screen_text(app), "who is here")
            link.cut()
            await until(pilot, lambda: "Connected again." in notes(app), "back")
            await bob_arrives(pilot, server.port)
    finally:
        await link.stop()
