"""The Skyjo client as a hosted app: built for one door's player, connected
to the lobby in-process under the player's trusted identity."""

from __future__ import annotations

import asyncio
import contextvars
import socket
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol, TypeVar

from textual.app import App

from ..config import ServerConfig
from ..netclient import ServerConnection
from ..termhost import DoorPlayer, SessionInfo

T = TypeVar("T")


class InProcessServer(Protocol):
    """What the doors need from ``server.app.SkyjoServer``."""

    @property
    def config(self) -> ServerConfig: ...

    async def open_in_process(
        self, identity: str | None = None, door: str = ..., address: str = ...
    ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]: ...

    async def open_in_process_socket(
        self, identity: str | None = None, door: str = ..., address: str = ...
    ) -> socket.socket: ...


@dataclass(frozen=True)
class PlayerSession:
    """What a game app is built from for one player, whichever door."""

    player: DoorPlayer
    connect: Callable[[], Awaitable[ServerConnection]]
    """Opens a new connection to the lobby as this player (call again to reconnect)."""
    environ: Mapping[str, str]
    """The player's terminal environment (TERM, LANG, NO_COLOR...), not the server's."""
    session: SessionInfo = field(repr=False)


GameAppFactory = Callable[[PlayerSession], "App[Any] | Awaitable[App[Any]]"]


def skyjo_app_factory(player_session: PlayerSession, **build_options: Any) -> App[Any]:
    """The real Textual client, built by its own factory (``build_app``).

    Nothing is kept on the server's disk for a player (no ``data_dir``): the
    lobby remembers them by their identity.  ``build_options`` go to
    ``build_app`` (tests pass ``pace="off"``).
    """
    from skyjo_tui.app import build_app

    return build_app(
        player_session.connect,
        name=player_session.player.requested_name,
        environ=player_session.environ,
        instant_login=True,  # the lobby is in this process, or a socket away on this machine
        **build_options,
    )


def _environ(info: SessionInfo) -> Mapping[str, str]:
    return MappingProxyType({**info.env, "TERM": info.term_type})


def in_process_app_factory(
    skyjo_server: InProcessServer, game_app_factory: GameAppFactory
) -> Callable[[SessionInfo], App[Any] | Awaitable[App[Any]]]:
    """The host's app factory when apps run in the server's own process."""

    def build(info: SessionInfo) -> App[Any] | Awaitable[App[Any]]:
        player = info.player

        async def connect() -> ServerConnection:
            opening = skyjo_server.open_in_process(player.identity, player.door, player.peer)
            reader, writer = await outside_the_app(opening)
            return ServerConnection.from_streams(reader, writer)

        return game_app_factory(PlayerSession(info.player, connect, _environ(info), info))

    return build


async def outside_the_app(opening: Coroutine[Any, Any, T]) -> T:
    """Run ``opening`` in an empty context, not in the calling app's.

    ``connect()`` is called by the app, whose context holds Textual's context
    variables (the active app, the active message pump).  Every task the
    lobby server starts while opening the connection, and every task those
    start (a table's game loop, which outlives the player's session), would
    copy that context and keep the finished app alive as long as they run.
    """
    task = asyncio.get_running_loop().create_task(opening, context=contextvars.Context())
    return await task


def describe_for_worker(
    build_options: Mapping[str, Any],
) -> Callable[[SessionInfo], dict[str, Any]]:
    """What a worker needs besides the session itself: the client's build options."""

    def describe(info: SessionInfo) -> dict[str, Any]:
        return {"build": dict(build_options)}

    return describe


def lobby_for_worker(
    skyjo_server: InProcessServer,
) -> Callable[[SessionInfo], Awaitable[socket.socket]]:
    """Opens a session's lobby connection here, as its player, for its worker."""

    async def connect(info: SessionInfo) -> socket.socket:
        player = info.player
        return await outside_the_app(
            skyjo_server.open_in_process_socket(player.identity, player.door, player.peer)
        )

    return connect


def remote_skyjo_app(
    info: SessionInfo,
    extra: dict[str, Any],
    connect_lobby: Callable[[], Awaitable[socket.socket]],
) -> App[Any]:
    """In a worker process (``server.termhost.worker``): the session's game app.

    ``extra`` is what ``describe_for_worker`` said in the server process.
    """

    async def connect() -> ServerConnection:
        reader, writer = await asyncio.open_connection(sock=await connect_lobby())
        return ServerConnection.from_streams(reader, writer)

    player_session = PlayerSession(info.player, connect, _environ(info), info)
    return skyjo_app_factory(player_session, **extra.get("build", {}))


__all__ = [
    "GameAppFactory",
    "InProcessServer",
    "PlayerSession",
    "describe_for_worker",
    "in_process_app_factory",
    "lobby_for_worker",
    "outside_the_app",
    "remote_skyjo_app",
    "skyjo_app_factory",
]
