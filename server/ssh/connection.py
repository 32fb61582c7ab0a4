"""The per-connection side of the SSH server: caps, one session, no forwarding.

``SSHAppServer`` is asyncssh's per-connection ``SSHServer``: subclass it for
authentication (see ``server.ssh.frontdoor``).  ``create_app_server`` starts
asyncssh with options that leave nothing open but the game: no agent or X11
forwarding, no SFTP/SCP, a login timeout and keepalives.

The keepalives are the kernel's (TCP), not asyncssh's: an SSH-level keepalive
wakes the event loop for every connection every interval (a round trip
through encryption and asyncssh, about a millisecond), which is all the CPU
200 idle players cost.  TCP keepalives notice a vanished client as quickly at
no cost to the process; a client that is connected but hung is dropped by the
write-buffer cap or the idle timeout.  ``keepalive_interval`` still turns on
SSH-level keepalives for whoever wants them.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import socket
from collections.abc import Callable
from typing import Any, Final

import asyncssh

from ..listen import peer_host
from .flow import connection_flow
from .transport import SSHSessions

logger = logging.getLogger(__name__)

SECURE_DEFAULTS: Final[dict[str, Any]] = {
    "agent_forwarding": False,  # asyncssh's default would open a socket in /tmp
    "x11_forwarding": False,
    "allow_scp": False,
    "login_timeout": 30.0,
    "keepalive_interval": 0,  # TCP keepalives instead: no wake-ups while idle
}
"""asyncssh options ``create_app_server`` uses unless told otherwise."""

TCP_KEEPALIVE: Final[tuple[tuple[str, int], ...]] = (
    ("TCP_KEEPIDLE", 30),  # seconds of silence before the first probe
    ("TCP_KEEPINTVL", 30),  # seconds between probes
    ("TCP_KEEPCNT", 3),  # unanswered probes before the kernel drops it
)
"""A vanished client is noticed within about two minutes, by the kernel."""

_FORBIDDEN_OPTIONS: Final = ("process_factory", "session_factory", "sftp_factory")


class SSHAppServer(asyncssh.SSHServer):
    """Per-connection asyncssh server that hands sessions to the door's ``SSHSessions``.

    Subclass it to add authentication (``begin_auth``,
    ``validate_public_key``...) and keep the player's identity on ``self``:
    ``SSHSessions.player_of`` is given this object.  asyncssh's
    defaults apply otherwise, i.e. authentication is required.

    Per connection it enforces: the manager's caps on connections (total and
    per address), one session at a time and only one in all, no port
    forwarding, and no connection that stays open without a session.
    """

    max_sessions_per_connection = 1

    def __init__(self, manager: SSHSessions) -> None:
        self.manager = manager
        self.connection: asyncssh.SSHServerConnection | None = None
        self.client_peername: tuple[str, int] | None = None
        """The player's (host, port) where the socket's peer is not the player: a load
        balancer's PROXY header gave it (``server.ssh.proxied``)."""
        self._address: str | None = None
        self._sessions_opened = 0
        self._session_open = False
        self._unused_timer: asyncio.TimerHandle | None = None

    # -- connection lifecycle -----------------------------------------------------

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.connection = conn
        if self.client_peername is not None:  # what every get_extra_info("peername") sees
            conn.set_extra_info(peername=self.client_peername)
        address = peer_host(conn.get_extra_info("peername"))
        refusal = self.manager.connections.admit(address, conn)
        if refusal is not None:
            logger.warning("ssh connection from %s refused: %s", address, refusal.value)
            # Not from inside this callback: asyncssh has not sent its
            # version string yet.  The reason reaches OpenSSH users as
            # "Received disconnect from ...: 12: <refusal>".
            loop = asyncio.get_running_loop()
            loop.call_soon(conn.disconnect, asyncssh.DISC_TOO_MANY_CONNECTIONS, refusal.value)
            return
        self._address = address
        connection_flow(conn)  # asyncssh's own answers are held back from here on
        keep_alive_in_the_kernel(conn.get_extra_info("socket"))
        self.manager.host.expect_session()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_unused_timer()
        if self._address is not None and self.connection is not None:
            self.manager.connections.release(self._address, self.connection)
            self._address = None

    def auth_completed(self) -> None:
        self._arm_unused_timer()

    # -- sessions ---------------------------------------------------------------------

    def session_requested(self) -> Any:
        if self.connection is None or self._address is None:
            return False
        if self._sessions_opened >= self.max_sessions_per_connection:
            logger.info("ssh connection from %s: extra session refused", self._address)
            return False
        result = self.manager.create_session(self.connection, self, self._session_closed)
        if result:
            self._sessions_opened += 1
            self._session_open = True
            self._cancel_unused_timer()
        return result

    def _session_closed(self) -> None:
        self._session_open = False
        self._arm_unused_timer()

    def _arm_unused_timer(self) -> None:
        """Disconnect a logged-in connection that has no session for too long."""
        self._cancel_unused_timer()
        if self._session_open or self.connection is None:
            return
        loop = asyncio.get_running_loop()
        delay = self.manager.limits.idle_connection_timeout
        self._unused_timer = loop.call_later(delay, self._disconnect_unused)

    def _disconnect_unused(self) -> None:
        self._unused_timer = None
        if self.connection is not None and not self._session_open:
            logger.info("ssh connection from %s closed: no session", self._address)
            self.connection.disconnect(asyncssh.DISC_BY_APPLICATION, "No session; goodbye.")

    def _cancel_unused_timer(self) -> None:
        if self._unused_timer is not None:
            self._unused_timer.cancel()
            self._unused_timer = None

    # -- everything but a session is refused --------------------------------------

    def connection_requested(
        self, dest_host: str, dest_port: int, orig_host: str, orig_port: int
    ) -> bool:
        logger.info("ssh connection from %s: port forwarding refused", self._address)
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        logger.info("ssh connection from %s: remote forwarding refused", self._address)
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        logger.info("ssh connection from %s: socket forwarding refused", self._address)
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        logger.info("ssh connection from %s: socket forwarding refused", self._address)
        return False


async def create_app_server(
    manager: SSHSessions,
    host: str | None,
    port: int,
    *,
    server_factory: Callable[[], SSHAppServer] | None = None,
    **options: Any,
) -> asyncssh.SSHAcceptor:
    """``asyncssh.create_server`` set up to serve ``manager``'s apps.

    ``options`` go to asyncssh (``server_host_keys``, ``login_timeout``...)
    over ``SECURE_DEFAULTS``.  Forces ``line_editor=False`` (asyncssh's line
    editor would echo input and rewrite every byte of output).
    """
    factory = server_factory or functools.partial(SSHAppServer, manager)
    return await asyncssh.create_server(factory, host, port, **app_server_options(**options))


def app_server_options(**options: Any) -> dict[str, Any]:
    """asyncssh server options (``create_app_server``'s, ``asyncssh.run_server``'s):
    ``options`` over ``SECURE_DEFAULTS``, and never asyncssh's line editor."""
    for forbidden in _FORBIDDEN_OPTIONS:
        if options.get(forbidden) is not None:
            raise ValueError(f"{forbidden} would bypass the app sessions")
    if options.get("line_editor"):
        raise ValueError("line_editor must be False for Textual apps")
    return {**SECURE_DEFAULTS, **options, "line_editor": False}


def keep_alive_in_the_kernel(sock: socket.socket | None) -> None:
    """Turn on TCP keepalives on ``sock`` with ``TCP_KEEPALIVE``'s timing.

    Options this platform lacks are skipped (its defaults apply there).
    """
    if sock is None or sock.family not in (socket.AF_INET, socket.AF_INET6):
        return
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        for name, value in TCP_KEEPALIVE:
            option = getattr(socket, name, None)
            if option is not None:
                sock.setsockopt(socket.IPPROTO_TCP, option, value)
    except OSError as exc:  # the connection may already be gone
        logger.debug("tcp keepalive not set: %s", exc)


__all__ = [
    "SECURE_DEFAULTS",
    "TCP_KEEPALIVE",
    "SSHAppServer",
    "app_server_options",
    "create_app_server",
    "keep_alive_in_the_kernel",
]
