"""``skyjo-server --role doors``: the SSH and browser doors, their players on a lobby
elsewhere.

``DoorHostServer`` stands where ``SkyjoServer`` stands for the doors
(``doors.game.InProcessServer``: ``config``, ``open_in_process``,
``open_in_process_socket``; ``identity_banned`` for the SSH door), with no
store and no data directory of its own: its ``config.data_path`` only holds
the SSH host key, which every door host of one lobby shares (copy the file:
docs/scaling.md).  Each player's connection goes to the lobby over TCP,
claimed with the door secret (``client.LobbyLink``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from typing import Any, Protocol

from ..config import ServerConfig
from .client import LobbyLink
from .options import LinkOptions

logger = logging.getLogger(__name__)


class Door(Protocol):
    """A door on a door host: ``server.app.FrontDoor`` with this server in its place."""

    async def start(self, server: Any) -> None: ...

    async def stop(self) -> None: ...


class DoorHostServer:
    """The doors of a door host, and its link to the lobby."""

    def __init__(self, config: ServerConfig, link: LinkOptions) -> None:
        self.config = config
        self.link = LobbyLink(link)
        self.front_doors: list[Door] = []

    def add_front_door(self, door: Door) -> None:
        self.front_doors.append(door)

    async def start(self) -> None:
        """Bind every door, link to the lobby, serve.  A lobby not up yet is no reason
        not to start: the players that come meanwhile see "reconnecting"."""
        try:
            for door in self.front_doors:
                bind = getattr(door, "bind", None)
                if bind is not None:
                    await bind(self)
            await self.link.start()
            for door in self.front_doors:
                await door.start(self)
        except BaseException:
            await self.stop()
            raise
        logger.info(
            "door host %r: players play on the lobby at %s", self.link.options.name, self.link.lobby
        )

    async def stop(self) -> None:
        for door in reversed(self.front_doors):
            with contextlib.suppress(Exception):
                await door.stop()
        await self.link.stop()

    def identity_banned(self, identity: str | None) -> bool:
        """The lobby's bans, as it last said (the SSH door asks while authenticating)."""
        return self.link.identity_banned(identity)

    async def open_in_process(
        self, identity: str | None = None, door: str = "", address: str = ""
    ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """The player's connection to the lobby (over TCP, claimed: ``LobbyLink``)."""
        return await self.link.open_player(identity, door, address)

    async def open_in_process_socket(
        self, identity: str | None = None, door: str = "", address: str = ""
    ) -> socket.socket:
        return await self.link.open_player_socket(identity, door, address)
