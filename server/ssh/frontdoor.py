"""The SSH front door of ``skyjo-server``: ``ssh -p 2222 skyjo@host`` plays.

Wiring in ``skyjo-server`` (``server/cli.py`` has a plugin list for this)::

    from server.ssh.frontdoor import SSH_FRONT_DOOR_PLUGIN
    FRONT_DOOR_PLUGINS.append(SSH_FRONT_DOOR_PLUGIN)

which adds ``--ssh-port``, ``--no-ssh``, ``--authorized-keys``... to the
parser and attaches an ``SSHFrontDoor`` to the server (started and stopped
with it).  By hand: ``door = await start_ssh_front_door(server, options)``
then ``await door.close()`` before ``server.stop()``.

Every SSH session runs the Textual client in-process, connected to the lobby
through ``skyjo_server.open_in_process(identity=...)``; the identity is the
player's key fingerprint, so the lobby remembers their name and their seat.
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import logging
import socket
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final, Protocol, TypeVar

import asyncssh
from textual.app import App

from ..config import ServerConfig
from ..listen import describe_listening, dual_stack_socket
from ..netclient import ServerConnection
from .auth import SkyjoSSHServer
from .connection import create_app_server
from .gcpolicy import DEFAULT_GC_POLICY, GCPolicy
from .hostkey import HOST_KEY_FILENAME, fingerprint, load_or_create_host_key
from .identity import DEFAULT_LOBBY_USERNAME, AuthorizedKeys, SSHPlayer
from .session import AppSessionManager, SessionInfo, SessionLimits, SessionMessages
from .worker import HostSettings
from .workers import WorkerOptions, WorkerPool

logger = logging.getLogger(__name__)

DEFAULT_SSH_PORT = 2222
T = TypeVar("T")


class InProcessServer(Protocol):
    """What the front door needs from ``server.app.SkyjoServer``."""

    @property
    def config(self) -> ServerConfig: ...

    async def open_in_process(
        self, identity: str | None = None
    ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]: ...

    async def open_in_process_socket(self, identity: str | None = None) -> socket.socket: ...


# --------------------------------------------------------------------------
# one game app per session
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerSession:
    """What a game app is built from for one SSH player."""

    player: SSHPlayer
    connect: Callable[[], Awaitable[ServerConnection]]
    """Opens a new connection to the lobby as this player (call again to reconnect)."""
    environ: Mapping[str, str]
    """The player's terminal environment (TERM, LANG, NO_COLOR...), not the server's."""
    session: SessionInfo = field(repr=False)


GameAppFactory = Callable[[PlayerSession], "App[Any] | Awaitable[App[Any]]"]


def skyjo_app_factory(player_session: PlayerSession, **build_options: Any) -> App[Any]:
    """The real Textual client, built by its own factory (``build_app``).

    Nothing is kept on the server's disk for a player (no ``data_dir``): the
    lobby remembers them by their key.  ``build_options`` go to ``build_app``
    (tests pass ``pace="off"``).
    """
    from skyjo_tui.app import build_app  # the client is only needed with SSH on

    return build_app(
        player_session.connect,
        name=player_session.player.requested_name,
        environ=player_session.environ,
        **build_options,
    )


def _session_app_factory(
    skyjo_server: InProcessServer, game_app_factory: GameAppFactory
) -> Callable[[SessionInfo], App[Any] | Awaitable[App[Any]]]:
    """Adapt a ``GameAppFactory`` to the session manager's ``SessionInfo``."""

    def build(info: SessionInfo) -> App[Any] | Awaitable[App[Any]]:
        player = _player_of(info)
        identity = player.identity

        async def connect() -> ServerConnection:
            reader, writer = await _outside_the_app(skyjo_server.open_in_process(identity))
            return ServerConnection.from_streams(reader, writer)

        environ = MappingProxyType({**info.env, "TERM": info.term_type})
        return game_app_factory(PlayerSession(player, connect, environ, info))

    return build


async def _outside_the_app(opening: Coroutine[Any, Any, T]) -> T:
    """Run ``opening`` in an empty context, not in the calling app's.

    ``connect()`` is called by the app, whose context holds Textual's context
    variables (the active app, the active message pump).  Every task the
    lobby server starts while opening the connection, and every task those
    start (a table's game loop, which outlives the player's session), would
    copy that context and keep the finished app alive as long as they run.
    """
    task = asyncio.get_running_loop().create_task(opening, context=contextvars.Context())
    return await task


def _describe_for_worker(build_options: Mapping[str, Any]) -> Callable[[SessionInfo], dict[str, Any]]:
    """What a worker needs to build a session's app: the player (plain data)
    and the client's build options."""

    def describe(info: SessionInfo) -> dict[str, Any]:
        player = _player_of(info)
        return {
            "player": {"identity": player.identity, "username": player.username,
                       "lobby_username": player.lobby_username},
            "build": dict(build_options),
        }

    return describe


def _lobby_for_worker(skyjo_server: InProcessServer) -> Callable[[SessionInfo], Awaitable[socket.socket]]:
    """Opens a session's lobby connection here, as its player, for its worker."""

    async def connect(info: SessionInfo) -> socket.socket:
        identity = _player_of(info).identity
        return await _outside_the_app(skyjo_server.open_in_process_socket(identity))

    return connect


def _player_of(info: SessionInfo) -> SSHPlayer:
    server = info.server
    if not isinstance(server, SkyjoSSHServer) or server.player is None:
        raise RuntimeError("session without an authenticated Skyjo player")
    return server.player


def remote_skyjo_app(
    info: SessionInfo,
    extra: dict[str, Any],
    connect_lobby: Callable[[], Awaitable[socket.socket]],
) -> App[Any]:
    """In a worker process (``server.ssh.worker``): the session's game app.

    ``extra`` is what ``_describe_for_worker`` said in the SSH process.
    """
    player = SSHPlayer(**extra["player"])

    async def connect() -> ServerConnection:
        reader, writer = await asyncio.open_connection(sock=await connect_lobby())
        return ServerConnection.from_streams(reader, writer)

    environ = MappingProxyType({**info.env, "TERM": info.term_type})
    return skyjo_app_factory(PlayerSession(player, connect, environ, info), **extra.get("build", {}))


# --------------------------------------------------------------------------
# options and the CLI
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class SSHOptions:
    """How the SSH front door runs (from ``ssh_options_from_args`` or by hand)."""

    enabled: bool = True
    port: int = DEFAULT_SSH_PORT
    host: str | None = None
    """The address to listen on; None: the lobby server's ``config.host``
    (whose None is every interface, IPv4 and IPv6)."""
    lobby_username: str = DEFAULT_LOBBY_USERNAME
    authorized_keys: Path | None = None
    host_key: Path | None = None
    """The host key file; None: ``<data dir>/ssh_host_ed25519_key``."""
    data_dir: Path | None = None
    """Where the host key lives when ``host_key`` is None; None: the lobby
    server's data directory."""
    limits: SessionLimits = SessionLimits()
    workers: WorkerOptions | None = None
    """Worker processes that run the apps (``server.ssh.workers``); None or
    0 processes: the apps run in the server's own process (``game_app_factory``)."""
    worker_app_options: Mapping[str, Any] = field(default_factory=dict)
    """``build_app`` options for the apps in workers (tests: ``pace="off"``)."""
    gc_policy: GCPolicy | None = DEFAULT_GC_POLICY
    asyncssh_options: Mapping[str, Any] = field(default_factory=dict)
    """Extra ``asyncssh.create_server`` options (e.g. ``login_timeout``)."""

    def host_key_path(self, server_config: ServerConfig) -> Path:
        if self.host_key is not None:
            return self.host_key
        return (self.data_dir or server_config.data_path) / HOST_KEY_FILENAME


def add_ssh_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the SSH front door's options to ``skyjo-server``'s parser."""
    group = parser.add_argument_group("SSH front door (players connect with: ssh -p PORT skyjo@HOST)")
    group.add_argument("--ssh-port", type=_port, default=DEFAULT_SSH_PORT, metavar="PORT",
                       help=f"SSH port (default {DEFAULT_SSH_PORT}; see the README to use 22)")
    group.add_argument("--no-ssh", action="store_true", help="do not serve the game over SSH")
    group.add_argument("--authorized-keys", type=_authorized_keys_file, metavar="FILE",
                       help="private server: only these public keys (OpenSSH authorized_keys "
                            "format, re-read when it changes) may play; no guests")
    group.add_argument("--ssh-username", default=DEFAULT_LOBBY_USERNAME, metavar="NAME",
                       help="the SSH user that asks for a name (default %(default)s); "
                            "any other user name is the name to play as")
    defaults = SessionLimits()
    group.add_argument("--ssh-max-connections", type=_positive, metavar="N",
                       default=defaults.max_connections,
                       help="SSH connections at once (default %(default)s)")
    group.add_argument("--ssh-max-per-address", type=_positive, metavar="N",
                       default=defaults.max_connections_per_address,
                       help="SSH connections from one address (default %(default)s)")
    workers = WorkerOptions()
    group.add_argument("--ssh-workers", type=_non_negative, metavar="N", default=workers.processes,
                       help="worker processes running the players' screens (default %(default)s; "
                            "0: inside the server process, simplest but a large server pauses "
                            "for seconds to free memory)")
    group.add_argument("--ssh-recycle-after", type=_positive, metavar="N",
                       default=workers.recycle_after,
                       help="replace a worker once this many of its sessions have ended "
                            "(default %(default)s); it exits when its last player leaves")
    group.add_argument("--ssh-idle-minutes", type=float, metavar="MIN",
                       default=(defaults.idle_timeout or 0) / 60,
                       help="close an SSH session after this long without a key press "
                            "(default %(default)g; 0: never); the seat is kept")


def ssh_options_from_args(args: argparse.Namespace) -> SSHOptions:
    """``SSHOptions`` from arguments parsed with ``add_ssh_arguments``.

    The interface and the data directory are the lobby server's own.
    """
    idle = args.ssh_idle_minutes * 60 if args.ssh_idle_minutes > 0 else None
    limits = replace(
        SessionLimits(),
        max_connections=args.ssh_max_connections,
        max_sessions=args.ssh_max_connections,
        max_connections_per_address=args.ssh_max_per_address,
        idle_timeout=idle,
    )
    return SSHOptions(
        enabled=not args.no_ssh,
        port=args.ssh_port,
        lobby_username=args.ssh_username,
        authorized_keys=args.authorized_keys,
        limits=limits,
        workers=WorkerOptions(processes=args.ssh_workers, recycle_after=args.ssh_recycle_after),
    )


def _port(text: str) -> int:
    port = int(text)
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port number (0-65535)")
    return port


def _authorized_keys_file(text: str) -> Path:
    """A usable authorized keys file, or a usage error before anything starts."""
    path = Path(text).expanduser()
    try:
        AuthorizedKeys(path)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return path


def _non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} must be 0 or more")
    return value


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be at least 1")
    return value


# --------------------------------------------------------------------------
# starting and stopping
# --------------------------------------------------------------------------


def _messages(lobby_username: str, port: int) -> SessionMessages:
    """Refusal messages that show the exact command to type."""
    port_option = "" if port == 22 else f"-p {port} "
    command = f"ssh {port_option}{lobby_username}@<host>"
    return SessionMessages(
        no_pty=(
            "Skyjo is a full-screen game and needs a terminal.\r\n"
            f"Connect with: {command}   (or add -t)\r\n"
        ),
        no_commands=(
            "This server only runs the Skyjo game; it does not run commands or copy files.\r\n"
            f"Connect with: {command}\r\n"
        ),
    )


class SSHFrontDoor:
    """The SSH way in, as a ``server.app.FrontDoor``: ``start(server)``, ``stop()``.

    ``skyjo-server`` attaches it with ``server.add_front_door`` (see
    ``attach_ssh_front_door``); tests and tools may use ``start_ssh_front_door``.
    """

    def __init__(
        self, options: SSHOptions, *, game_app_factory: GameAppFactory = skyjo_app_factory
    ) -> None:
        self.options = options
        self._game_app_factory = game_app_factory
        # Checked now, so that a bad file stops the server before it starts.
        self._authorized = (
            AuthorizedKeys(options.authorized_keys) if options.authorized_keys else None
        )
        self.manager: AppSessionManager | None = None
        self.acceptor: asyncssh.SSHAcceptor | None = None
        self.host_key_fingerprint = ""
        """``SHA256:...``: what players' ssh shows the first time they connect."""

    @property
    def port(self) -> int:
        """The port listened on (the real one when configured as 0)."""
        return self.acceptor.get_port() if self.acceptor is not None else self.options.port

    async def start(self, server: InProcessServer) -> None:
        """Listen; raises ``OSError`` when the port or the host key is unusable, or
        when the worker processes cannot start."""
        options = self.options
        quiet_asyncssh()
        host_key = load_or_create_host_key(options.host_key_path(server.config))
        self.host_key_fingerprint = fingerprint(host_key)
        manager = AppSessionManager(
            _session_app_factory(server, self._game_app_factory),
            limits=options.limits,
            messages=_messages(options.lobby_username, options.port),
        )
        authorized = self._authorized

        def server_factory() -> SkyjoSSHServer:
            return SkyjoSSHServer(
                manager, authorized_keys=authorized, lobby_username=options.lobby_username
            )

        if options.workers is not None and options.workers.processes > 0:
            manager.pool = await self._start_workers(server, options, manager)
        host = options.host if options.host is not None else server.config.host
        try:
            self.acceptor = await _listen(
                manager,
                host or None,
                options.port,
                server_factory=server_factory,
                gc_policy=options.gc_policy,
                server_host_keys=[host_key],
                **dict(options.asyncssh_options),
            )
        except BaseException:
            if manager.pool is not None:
                await manager.pool.close()
            raise
        self.manager = manager
        manager.messages = _messages(options.lobby_username, self.port)  # the real port
        logger.info(
            "SSH front door on %s (%s); host key %s",
            describe_listening(self.acceptor.sockets),
            f"keys in {options.authorized_keys} only" if authorized else "open to all",
            self.host_key_fingerprint,
        )

    @staticmethod
    async def _start_workers(
        server: InProcessServer, options: SSHOptions, manager: AppSessionManager
    ) -> WorkerPool:
        assert options.workers is not None
        limits = options.limits
        pool = WorkerPool(
            options.workers,
            f"{__name__}:remote_skyjo_app",
            describe=_describe_for_worker(options.worker_app_options),
            connect_lobby=_lobby_for_worker(server),
            settings=HostSettings(
                crashed=manager.messages.crashed, stop_timeout=limits.stop_timeout,
                pending_input_cap=limits.pending_input_cap, preload=("skyjo_tui.app",),
                gc_policy=options.gc_policy,
            ),
        )
        try:
            await pool.start()
        except BaseException:
            await pool.close()
            raise
        logger.info("SSH sessions run in %d worker processes (recycled after %d sessions)",
                    options.workers.processes, options.workers.recycle_after)
        return pool

    async def stop(self, timeout: float = 5.0) -> None:
        """Stop listening, let every app restore its player's terminal, disconnect."""
        acceptor, self.acceptor = self.acceptor, None
        if acceptor is None:
            return
        acceptor.close()
        if self.manager is not None:
            await self.manager.close(timeout=timeout)
        try:
            await asyncio.wait_for(acceptor.wait_closed(), timeout)
        except asyncio.TimeoutError:
            logger.warning("ssh front door: connections still open after %.0f s", timeout)

    close = stop


async def _listen(
    manager: AppSessionManager, host: str | None, port: int, **options: Any
) -> asyncssh.SSHAcceptor:
    """``create_app_server`` on ``host``; None: every interface, IPv4 and IPv6,
    on one port (``server.listen``)."""
    sock = dual_stack_socket(host, port)
    if sock is None:
        return await create_app_server(manager, host, port, **options)
    try:
        return await create_app_server(manager, host, port, sock=sock, **options)
    except BaseException:
        sock.close()  # asyncssh never took it
        raise


def quiet_asyncssh() -> None:
    """asyncssh logs every connection, channel and request at INFO: with many
    players that drowns the server's own log.  Warnings and errors still show;
    an operator who set asyncssh's level keeps theirs."""
    library_logger = logging.getLogger("asyncssh")
    if library_logger.level == logging.NOTSET:
        library_logger.setLevel(logging.WARNING)


async def start_ssh_front_door(
    skyjo_server: InProcessServer,
    options: SSHOptions,
    *,
    game_app_factory: GameAppFactory = skyjo_app_factory,
) -> SSHFrontDoor | None:
    """Serve the game over SSH now; None if ``options.enabled`` is False.

    Raises ``ValueError`` when the authorized keys file has no usable key,
    and ``OSError`` when the port cannot be bound or the host key is unusable.
    ``await door.close()`` before stopping ``skyjo_server``.
    """
    if not options.enabled:
        return None
    door = SSHFrontDoor(options, game_app_factory=game_app_factory)
    await door.start(skyjo_server)
    return door


def attach_ssh_front_door(server: Any, args: argparse.Namespace) -> None:
    """``skyjo-server``'s hook: add the SSH front door unless ``--no-ssh``."""
    options = ssh_options_from_args(args)
    if options.enabled:
        server.add_front_door(SSHFrontDoor(options))


SSH_FRONT_DOOR_PLUGIN: Final = (add_ssh_arguments, attach_ssh_front_door)
"""For ``server.cli.FRONT_DOOR_PLUGINS``."""
