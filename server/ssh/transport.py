"""SSH sessions: asyncssh's channel callbacks, handed to the door-agnostic host.

A session with a PTY becomes one ``HostedSession`` (``server.termhost``), its
channel wrapped as the host's ``TerminalTransport``.  Everything SSH-specific
stays here: the PTY request, commands and subsystems (refused with a readable
message and exit status 1: a session is only ever the game), the capped
environment, the receive window, and the exit status sent back to the client.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

import asyncssh

from skyjo_tui.webpage import OWN_PREFIX

from ..limits import ConnectionRegistry
from ..listen import peer_host
from ..termhost import DoorPlayer, HostedSession, SessionHost, SessionStart
from ..termhost.hosted import EXIT_FAILURE
from .channels import cap_environment
from .flow import BUDGET, ConnectionFlow, connection_flow
from .options import SSHLimits

logger = logging.getLogger(__name__)

DEFAULT_TERM: Final = "xterm"


CLIENT_CLOSE_GRACE: Final = 2.0
"""Seconds a stopping server waits for each player's ssh to close its connection."""


@dataclass(frozen=True)
class SSHMessages:
    """Text shown to SSH clients that get no game (CRLF: raw terminal)."""

    no_pty: str = (
        "This server runs an interactive terminal game and needs a terminal.\r\n"
        "Connect with a PTY, e.g.: ssh -t <host>\r\n"
    )
    no_commands: str = (
        "This server only runs the game; it does not run commands or copy files.\r\n"
        "Connect without a command, e.g.: ssh <host>\r\n"
    )
    misconfigured: str = "Server configuration error; please tell the operator.\r\n"


PlayerOf = Callable[["asyncssh.SSHServerConnection", Any], DoorPlayer]
"""Who a connection's session is for (from the door's authentication)."""


def guest_player(connection: asyncssh.SSHServerConnection, server: Any) -> DoorPlayer:
    """No authentication of our own: everyone is a guest under their SSH user."""
    login = connection.get_extra_info("username")
    return DoorPlayer("ssh", None, None, peer_host(connection.get_extra_info("peername")), login)


class SSHChannelTransport:
    """An asyncssh server channel as the host's ``TerminalTransport``.

    With its connection's ``ConnectionFlow`` (the session is the connection's
    only one), what asyncssh queued on the connection counts as this
    channel's backlog too, and pausing the channel pauses the connection's
    reading: requests (window changes, keepalives) wait like keys do.
    """

    def __init__(self, chan: asyncssh.SSHServerChannel, flow: ConnectionFlow | None = None) -> None:
        self._chan = chan
        self._flow = flow

    def write(self, data: bytes) -> None:
        self._chan.write(data)

    def get_write_buffer_size(self) -> int:
        flow = self._flow
        return self._chan.get_write_buffer_size() + (flow.buffered() if flow is not None else 0)

    def is_closing(self) -> bool:
        return self._chan.is_closing()

    def abort(self) -> None:
        self._chan.abort()
        connection = self._chan.get_extra_info("connection")
        if connection is not None:
            connection.abort()  # its own backlog too: the client does not read

    def pause_reading(self) -> None:
        self._chan.pause_reading()
        if self._flow is not None:
            self._flow.pause(BUDGET)

    def resume_reading(self) -> None:
        self._chan.resume_reading()
        if self._flow is not None:
            self._flow.resume(BUDGET)

    def end(self, status: int) -> None:
        self._chan.exit(status)


class SSHSession(asyncssh.SSHServerSession):
    """asyncssh session callbacks for one channel, running one app on the host."""

    def __init__(
        self,
        door: SSHSessions,
        connection: asyncssh.SSHServerConnection,
        server: Any,
        on_closed: Callable[[], None] | None = None,
    ) -> None:
        self._door = door
        self._connection = connection
        self._server = server
        self._on_closed = on_closed
        self._chan: asyncssh.SSHServerChannel | None = None
        self._term_type: str | None = None
        self._size: tuple[int, int] = (80, 24)
        self._command: str | None = None
        self.hosted: HostedSession | None = None
        """The app's session on the host, once started."""

    # -- asyncssh callbacks -----------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel) -> None:
        self._chan = chan

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Mapping[int, int]
    ) -> bool:
        self._term_type = term_type or DEFAULT_TERM
        width, height = term_size[:2]
        self._size = (width or 80, height or 24)  # 0 means "unknown"
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        # Accepted only to answer with a readable message (session_started):
        # a refused request would just print "exec request failed".
        self._command = command
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        logger.info("ssh session: subsystem %r refused", subsystem[:40])
        return False

    def session_started(self) -> None:
        chan = self._chan
        assert chan is not None
        messages = self._door.messages
        if isinstance(chan, asyncssh.SSHLineEditorChannel):
            # asyncssh's line editor would echo and rewrite all our output.
            logger.error("ssh session: line_editor must be False (use create_app_server)")
            self._refuse(messages.misconfigured)
        elif self._command is not None:
            logger.info("ssh session refused: command %r", self._command[:80])
            self._refuse(messages.no_commands)
        elif self._term_type is None:
            logger.info("ssh session refused: no PTY requested")
            self._refuse(messages.no_pty)
        else:
            start = SessionStart(
                player=self._door.player_of(self._connection, self._server),
                term_type=self._term_type,
                size=self._size,
                env=MappingProxyType(
                    {  # the client's own, but never what only a door says
                        **{
                            name: value
                            for name, value in chan.get_environment().items()
                            if not name.startswith(OWN_PREFIX)
                        },
                        **self._door.environment,
                    }
                ),
            )
            flow = connection_flow(self._connection)
            self.hosted = hosted = self._door.host.open(
                SSHChannelTransport(chan, flow), start, on_closed=self._session_closed
            )
            if hosted is not None:
                # The connection's buffer filled with asyncssh's own answers: the
                # session's cap and write deadline hold for them too.
                flow.on_full = lambda: hosted.output_queued(0)
                self._door._started(self)  # noqa: SLF001 - the module's own (SSHSessions and its sessions)

    def data_received(self, data: bytes | str, datatype: int | None) -> None:
        if datatype is None and self.hosted is not None:
            self.hosted.feed(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if self.hosted is not None:
            self.hosted.resize(width, height)
        else:
            self._size = (width or 80, height or 24)

    def eof_received(self) -> bool:
        if self.hosted is not None:
            self.hosted.request_stop("client sent EOF")
        return True  # keep our side open so the app can restore the terminal

    def connection_lost(self, exc: Exception | None) -> None:
        if self.hosted is not None:
            self.hosted.transport_lost()
        self._session_closed()

    # -- helpers --------------------------------------------------------------------

    def _refuse(self, message: str) -> None:
        """Explain on stderr why there is no app, then close with status 1."""
        chan = self._chan
        assert chan is not None
        try:
            chan.write_stderr(message.encode())
            chan.exit(EXIT_FAILURE)
        except OSError:
            pass

    def _session_closed(self) -> None:
        self._door._ended(self)  # noqa: SLF001 - the module's own (SSHSessions and its sessions)
        on_closed, self._on_closed = self._on_closed, None
        if on_closed is not None:
            on_closed()


class SSHSessions:
    """The SSH door's sessions and connections, on a ``SessionHost``.

    The host may be shared with other doors: closing the SSH door stops its
    own sessions and connections only.
    """

    def __init__(
        self,
        host: SessionHost,
        *,
        limits: SSHLimits | None = None,
        messages: SSHMessages | None = None,
        player_of: PlayerOf = guest_player,
        environment: Mapping[str, str] | None = None,
    ) -> None:
        self.host = host
        self.environment: Mapping[str, str] = MappingProxyType(dict(environment or {}))
        """Added to each terminal's environment (the page's address, ``skyjo_tui.webpage``)."""
        self.limits = limits or SSHLimits()
        self.messages = messages or SSHMessages()
        self.player_of = player_of
        self._closing = False
        self._running: dict[int, SSHSession] = {}
        self.connections: ConnectionRegistry[asyncssh.SSHServerConnection] = ConnectionRegistry(
            self.limits.max_connections, self.limits.max_connections_per_address
        )
        """Open SSH connections (maintained by ``SSHAppServer``)."""

    @property
    def sessions(self) -> list[HostedSession]:
        """This door's sessions currently running an app."""
        return [s.hosted for s in self._running.values() if s.hosted is not None]

    def create_session(
        self,
        connection: asyncssh.SSHServerConnection,
        server: Any = None,
        on_closed: Callable[[], None] | None = None,
    ) -> tuple[asyncssh.SSHServerChannel, SSHSession] | bool:
        """Return value for ``SSHServer.session_requested``.

        ``on_closed`` is called once when the session's channel has closed.
        """
        if self._closing:
            return False
        # Raw bytes regardless of the server's encoding option: input is
        # decoded incrementally by the host's terminal (UTF-8, errors
        # replaced).  A small receive window bounds what a paused (flooding)
        # client can make us buffer.
        chan = connection.create_server_channel(encoding=None, window=self.limits.input_window)
        cap_environment(chan, self.limits.max_env_vars)
        return chan, SSHSession(self, connection, server, on_closed)

    async def close(self, timeout: float = 5.0) -> None:
        """Stop this door's apps (they restore their client's terminal), then
        disconnect every connection still open."""
        self._closing = True
        hosted = self.sessions
        players = {id(s._connection): s._connection for s in self._running.values()}  # noqa: SLF001 - the module's own (SSHSessions and its sessions)
        for session in hosted:
            session.shut_down()
        if hosted:
            waits = [asyncio.ensure_future(s.finished()) for s in hosted]
            _done, pending = await asyncio.wait(waits, timeout=timeout + 1.0)
            for wait in pending:
                wait.cancel()
        if players:
            # A player's ssh closes the connection itself once its session ended, having
            # written all it read (the farewell) to the terminal; told to disconnect
            # before, it exits at once and the last lines may never reach the screen.
            waits = [asyncio.ensure_future(c.wait_closed()) for c in players.values()]
            _done, pending = await asyncio.wait(waits, timeout=CLIENT_CLOSE_GRACE)
            for wait in pending:
                wait.cancel()
        for connection in self.connections:
            connection.disconnect(asyncssh.DISC_BY_APPLICATION, "The server is shutting down.")

    def _started(self, session: SSHSession) -> None:
        assert session.hosted is not None
        self._running[id(session)] = session

    def _ended(self, session: SSHSession) -> None:
        self._running.pop(id(session), None)


__all__ = [
    "SSHChannelTransport",
    "SSHLimits",
    "SSHMessages",
    "SSHSession",
    "SSHSessions",
    "guest_player",
]
