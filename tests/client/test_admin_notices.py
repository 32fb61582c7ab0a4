"""What a player sees of the server's admin: an announcement on screen, a kick that
does not bounce back (a real server with its admin socket, the app under Pilot)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from server.admin.cli import ask
from server.admin.socketfile import admin_socket_path
from server.app import SkyjoServer
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.link import Link
from skyjo_tui.screens.disconnected import DisconnectedScreen
from skyjo_tui.screens.lobby import LobbyScreen

from .players import wait_for


async def admin(server: SkyjoServer, command: str, **fields: str) -> dict[str, object]:
    path = admin_socket_path(server.config.data_path)
    reply = await asyncio.to_thread(ask, path, {"command": command, **fields}, 20.0)
    assert reply["ok"], reply
    return reply


def notes(app: SkyjoApp) -> list[str]:
    return [f"{n.title}: {n.message}" for n in app._notifications]  # noqa: SLF001 - Textual's notifications (no public list)


async def test_an_announcement_shows_and_a_kick_stays_a_kick(
    make_app: Callable[..., SkyjoApp], admin_server: SkyjoServer
) -> None:
    server = admin_server
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Carol")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await admin(server, "announce", text="Restart at [b]noon[/b]")
        # Who speaks, and the words as typed (never markup).
        await wait_for(pilot, lambda: "From the server: Restart at [b]noon[/b]" in notes(app))

        await admin(server, "kick", name="carol")
        await wait_for(pilot, lambda: app.session is not None and app.session.link is Link.OFFLINE)
        await wait_for(pilot, lambda: isinstance(app.screen, DisconnectedScreen))
        dialog = app.screen
        assert isinstance(dialog, DisconnectedScreen) and "disconnected you" in dialog.why
        # Offline at once, not "reconnecting" (which comes first when the client tries again).
        assert not any("reconnecting" in note for note in notes(app))
        assert (await admin(server, "players"))["result"] == {"players": []}
