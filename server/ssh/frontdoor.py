"""The SSH front door of ``skyjo-server``: ``ssh -p 2222 skyjo@host`` plays.

``skyjo-server`` attaches it (``server/cli.py``) after the shared
``GameHost`` that runs every door's players' screens; by hand:
``door = await start_ssh_front_door(server, options)`` (a host of its own)
then ``await door.close()`` before ``server.stop()``.

Each SSH session is a ``HostedSession`` for its authenticated player: the
identity is the player's key fingerprint, so the lobby remembers their name
and their seat.  Options (no asyncssh needed to parse them) are in
``server.ssh.options``.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import socket
from typing import Any

import asyncssh

from skyjo_tui.webpage import PAGE_ENV

from ..doors.game import GameAppFactory, InProcessServer, PlayerSession, skyjo_app_factory
from ..doors.host import GameHost, HostOptions
from ..listen import bound_sockets, describe_listening, peer_host
from ..termhost import DoorPlayer
from .auth import SkyjoSSHServer
from .connection import create_app_server
from .hostkey import fingerprint, load_or_create_host_key
from .identity import AuthorizedKeys
from .options import DEFAULT_SSH_PORT, SSHOptions, add_ssh_arguments, ssh_options_from_args
from .transport import SSHMessages, SSHSessions

logger = logging.getLogger(__name__)

__all__ = [
    "DEFAULT_SSH_PORT",
    "PlayerSession",
    "SSHFrontDoor",
    "SSHOptions",
    "add_ssh_arguments",
    "attach_ssh_front_door",
    "skyjo_app_factory",
    "start_ssh_front_door",
]


# --------------------------------------------------------------------------
# starting and stopping
# --------------------------------------------------------------------------


def _messages(lobby_username: str, port: int) -> SSHMessages:
    """Refusal messages that show the exact command to type."""
    port_option = "" if port == 22 else f"-p {port} "
    command = f"ssh {port_option}{lobby_username}@<host>"
    return SSHMessages(
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

    Its players' apps run on ``host`` (a ``GameHost`` shared with the other
    doors, attached to the server before this door); without one, the door
    runs a host of its own from its options (tests, tools).  ``skyjo-server``
    attaches it with ``server.add_front_door`` (see ``attach_ssh_front_door``);
    tests and tools may use ``start_ssh_front_door``.
    """

    def __init__(
        self,
        options: SSHOptions,
        *,
        host: GameHost | None = None,
        game_app_factory: GameAppFactory = skyjo_app_factory,
    ) -> None:
        self.options = options
        self._own_host = host is None
        self.game_host = host or GameHost(
            HostOptions(
                limits=options.limits,
                workers=options.workers,
                worker_app_options=options.worker_app_options,
                gc_policy=options.gc_policy,
            ),
            game_app_factory=game_app_factory,
        )
        # Checked now, so that a bad file stops the server before it starts.
        self._authorized = (
            AuthorizedKeys(options.authorized_keys) if options.authorized_keys else None
        )
        self.manager: SSHSessions | None = None
        """This door's sessions and connections, while started."""
        self.acceptors: list[asyncssh.SSHAcceptor] = []
        """Serving, one a socket (``server.listen.bound_sockets``)."""
        self._bound: list[socket.socket] = []
        """Bound by ``bind``, not served yet."""
        self._host_key: asyncssh.SSHKey | None = None
        self.host_key_fingerprint = ""
        """``SHA256:...``: what players' ssh shows the first time they connect."""

    @property
    def port(self) -> int:
        """The port listened on (the real one when configured as 0)."""
        if self.acceptors:
            return self.acceptors[0].get_port()
        if self._bound:
            return self._bound[0].getsockname()[1]
        return self.options.port

    @property
    def acceptor(self) -> asyncssh.SSHAcceptor | None:
        """The first of ``acceptors`` (the only one but where a host name has several
        addresses); None while not serving."""
        return self.acceptors[0] if self.acceptors else None

    async def bind(self, server: InProcessServer) -> None:
        """Bind the port (nobody can connect yet) and load the host key; raises
        ``OSError`` when either is unusable."""
        if self._bound or self.acceptors:
            return
        host_key = load_or_create_host_key(self.options.host_key_path(server.config))
        address = self.options.host if self.options.host is not None else server.config.host
        self._bound = bound_sockets(address or None, self.options.port)
        self._host_key = host_key
        self.host_key_fingerprint = fingerprint(host_key)

    async def start(self, server: InProcessServer) -> None:
        """Serve (binding first if ``bind`` was not called); raises ``OSError``
        when the port or the host key is unusable, or when the worker
        processes cannot start."""
        options = self.options
        quiet_asyncssh()
        await self.bind(server)
        host_key = self._host_key
        assert host_key is not None  # loaded by bind
        if self._own_host:
            try:
                await self.game_host.start(server)
            except BaseException:
                self._close_bound()
                raise
        host = self.game_host.host
        if host is None:
            self._close_bound()
            raise RuntimeError("the SSH door's GameHost must start before the door")
        manager = SSHSessions(
            host,
            limits=options.connection_limits,
            messages=_messages(options.lobby_username, self.port),
            player_of=_player_of,
            environment={PAGE_ENV: options.page} if options.page else None,
        )
        authorized = self._authorized
        # The lobby's bans: a SkyjoServer's own, a door host's copy (server.link).
        banned = getattr(server, "identity_banned", None) or (lambda identity: False)

        def server_factory() -> SkyjoSSHServer:
            return SkyjoSSHServer(
                manager,
                authorized_keys=authorized,
                lobby_username=options.lobby_username,
                banned=banned,
            )

        try:
            while self._bound:
                sock = self._bound[0]
                self.acceptors.append(
                    await create_app_server(
                        manager,
                        None,
                        sock.getsockname()[1],
                        sock=sock,
                        server_factory=server_factory,
                        server_host_keys=[host_key],
                        **dict(options.asyncssh_options),
                    )
                )
                self._bound.pop(0)  # asyncssh's now
        except BaseException:
            self._close_bound()
            for acceptor in self.acceptors:
                acceptor.close()
            self.acceptors = []
            if self._own_host:
                await self.game_host.stop()
            raise
        self.manager = manager
        logger.info(
            "SSH front door on %s (%s); host key %s",
            describe_listening([sock for a in self.acceptors for sock in a.sockets]),
            f"keys in {options.authorized_keys} only" if authorized else "open to all",
            self.host_key_fingerprint,
        )

    def _close_bound(self) -> None:
        """Close the sockets bound and never served (the server did not start)."""
        for sock in self._bound:
            sock.close()
        self._bound = []

    async def stop(self, timeout: float = 5.0) -> None:
        """Stop listening, let every app restore its player's terminal, disconnect."""
        self._close_bound()
        acceptors, self.acceptors = self.acceptors, []
        if not acceptors:
            return
        for acceptor in acceptors:
            acceptor.close()
        if self.manager is not None:
            await self.manager.close(timeout=timeout)
        if self._own_host:
            await self.game_host.stop(timeout=timeout)
        try:
            await asyncio.wait_for(
                asyncio.gather(*(acceptor.wait_closed() for acceptor in acceptors)), timeout
            )
        except TimeoutError:
            logger.warning("ssh front door: connections still open after %.0f s", timeout)

    close = stop


def _player_of(connection: asyncssh.SSHServerConnection, server: Any) -> DoorPlayer:
    """The authenticated player of a connection (``SkyjoSSHServer.player``)."""
    if not isinstance(server, SkyjoSSHServer) or server.player is None:
        raise RuntimeError("session without an authenticated Skyjo player")
    return server.player.door_player(peer_host(connection.get_extra_info("peername")))


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
    host: GameHost | None = None,
    game_app_factory: GameAppFactory = skyjo_app_factory,
) -> SSHFrontDoor | None:
    """Serve the game over SSH now; None if ``options.enabled`` is False.

    Raises ``ValueError`` when the authorized keys file has no usable key,
    and ``OSError`` when the port cannot be bound or the host key is unusable.
    ``await door.close()`` before stopping ``skyjo_server``.
    """
    if not options.enabled:
        return None
    door = SSHFrontDoor(options, host=host, game_app_factory=game_app_factory)
    await door.start(skyjo_server)
    return door


def attach_ssh_front_door(server: Any, args: argparse.Namespace, host: GameHost) -> None:
    """``skyjo-server``'s hook (``--no-ssh`` never gets here): the SSH door on ``host``."""
    server.add_front_door(SSHFrontDoor(ssh_options_from_args(args), host=host))
