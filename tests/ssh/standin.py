"""A stand-in game app and lobby for testing the SSH front door by itself.

The front door's own behaviour (authentication, identity, refusals, limits)
does not depend on what game runs behind it; these tests use a tiny app that
shows what the front door gave it.  The real lobby and client are tested in
``test_play.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import BindingType
from textual.widgets import Label

from server.config import ServerConfig
from server.netclient import ServerConnection
from server.ssh.frontdoor import PlayerSession, SSHFrontDoor, SSHOptions, start_ssh_front_door
from server.ssh.options import SSHLimits
from server.ssh.transport import SSHSessions
from server.termhost import HostLimits


class StandInLobby:
    """Records who opened in-process connections; the far end just closes."""

    def __init__(self, data_dir: Path) -> None:
        self.config = ServerConfig(host="127.0.0.1", data_dir=data_dir)
        self.identities: list[str | None] = []
        self._peers: list[socket.socket] = []

    async def open_in_process(
        self, identity: str | None = None, door: str = "local", address: str = ""
    ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        return await asyncio.open_connection(sock=await self.open_in_process_socket(identity))

    async def open_in_process_socket(
        self, identity: str | None = None, door: str = "local", address: str = ""
    ) -> socket.socket:
        self.identities.append(identity)
        ours, theirs = socket.socketpair()
        self._peers.append(theirs)
        return ours

    def close(self) -> None:
        for peer in self._peers:
            peer.close()


class WhoAmIApp(App[None]):
    """Shows the player the front door saw; ``a`` counts, ``q`` quits."""

    BINDINGS: ClassVar[list[BindingType]] = [("a", "bump"), ("q", "quit")]

    def __init__(self, player_session: PlayerSession) -> None:
        super().__init__()
        self.player_session = player_session
        self.connection: ServerConnection | None = None
        self.typed = ""
        self.resizes = 0

    def compose(self) -> ComposeResult:
        player = self.player_session.player
        yield Label(f"ID={player.identity or 'guest'} NAME={player.requested_name}", id="who")
        yield Label("", id="typed")

    async def on_mount(self) -> None:
        self.connection = await self.player_session.connect()

    async def on_unmount(self) -> None:
        if self.connection is not None:
            await self.connection.close()

    def on_key(self, event: Any) -> None:
        if event.character and event.character not in "aq":
            self.typed += event.character
            self.query_one("#typed", Label).update(f"TYPED {len(self.typed)}")

    def on_resize(self) -> None:
        self.resizes += 1

    def action_bump(self) -> None:
        self.query_one("#typed", Label).update("BUMPED")


@dataclass
class StandInDoor:
    door: SSHFrontDoor
    lobby: StandInLobby
    apps: list[WhoAmIApp] = field(default_factory=list)

    @property
    def port(self) -> int:
        return self.door.port

    @property
    def manager(self) -> SSHSessions:
        """The door's sessions (there from its start)."""
        assert self.door.manager is not None
        return self.door.manager


@contextlib.asynccontextmanager
async def stand_in_door(
    data_dir: Path,
    *,
    limits: HostLimits | None = None,
    connection_limits: SSHLimits | None = None,
    authorized_keys: Path | None = None,
    **asyncssh_options: Any,
) -> AsyncIterator[StandInDoor]:
    """A front door on 127.0.0.1:0 serving ``WhoAmIApp``; always closed."""
    lobby = StandInLobby(data_dir)
    apps: list[WhoAmIApp] = []

    def factory(player_session: PlayerSession) -> WhoAmIApp:
        app = WhoAmIApp(player_session)
        apps.append(app)
        return app

    options = SSHOptions(
        port=0,
        authorized_keys=authorized_keys,
        limits=limits or HostLimits(stop_timeout=2.0),
        connection_limits=connection_limits or SSHLimits(),
        gc_policy=None,  # process-wide; not for tests
        asyncssh_options=asyncssh_options,
    )
    door = await start_ssh_front_door(lobby, options, game_app_factory=factory)
    assert door is not None
    try:
        yield StandInDoor(door, lobby, apps)
    finally:
        await door.close(timeout=2.0)
        lobby.close()
