"""One Textual app per SSH session, all inside the server's event loop.

Wiring (see also ``server/ssh/__init__.py``)::

    manager = AppSessionManager(app_factory)            # app_factory(info) -> App
    acceptor = await create_app_server(
        manager, host, port,
        server_factory=lambda: MyAuthServer(manager),    # subclass of SSHAppServer
        server_host_keys=[...],
    )
    ...
    acceptor.close(); await manager.close(); await acceptor.wait_closed()

Every session with a PTY gets a fresh app from the factory, driven by an
``SSHDriver`` over its channel.  Sessions are isolated: an app quitting or
crashing ends only its own channel (exit status 0 / 1), and the process-wide
side effects Textual would normally have are neutralised (``hardening``).
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import itertools
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, Union

import asyncssh
from textual.app import App

from .driver import (
    DEFAULT_PENDING_INPUT_CAP,
    DEFAULT_WRITE_BUFFER_CAP,
    MAX_SIZE,
    MIN_SIZE,
    ChannelTerminal,
    SSHDriver,
)
from .hardening import (
    DEFAULT_GC_POLICY,
    GCPolicy,
    clear_instance_keyed_caches,
    configure_terminal,
    harden_app,
    install_stdio_guard,
    run_app_preserving_task_factory,
)

logger = logging.getLogger(__name__)

EXIT_OK: Final = 0
EXIT_FAILURE: Final = 1


@dataclass(frozen=True)
class SessionInfo:
    """What the app factory knows about the session it is building an app for."""

    session_id: int
    username: str | None
    peer: tuple[Any, ...] | None
    """``(host, port, ...)`` of the client, as asyncssh reports ``peername``."""
    term_type: str
    size: tuple[int, int]
    """Initial (clamped) terminal size; later changes reach the app as Resize."""
    env: Mapping[str, str]
    """Environment variables the client sent (untrusted input)."""
    command: str | None
    """Command given as ``ssh -t host COMMAND``; None for a plain shell request."""
    connection: asyncssh.SSHServerConnection = field(repr=False)
    """For ``get_extra_info`` (e.g. the authenticated key)."""
    server: asyncssh.SSHServer | None = field(default=None, repr=False)
    """The per-connection ``SSHServer`` object, where auth code keeps identity."""


AppFactory = Callable[[SessionInfo], Union[App[Any], Awaitable[App[Any]]]]


@dataclass(frozen=True)
class SessionLimits:
    """Bounds that keep one client from hurting the server or other players."""

    min_size: tuple[int, int] = MIN_SIZE
    max_size: tuple[int, int] = MAX_SIZE
    write_buffer_cap: int = DEFAULT_WRITE_BUFFER_CAP
    pending_input_cap: int = DEFAULT_PENDING_INPUT_CAP
    max_sessions: int = 256
    stop_timeout: float = 5.0
    """Seconds an app gets to exit after its client left before it is cancelled."""


@dataclass(frozen=True)
class SessionMessages:
    """Text shown to clients when no app can be served (CRLF: raw terminal)."""

    no_pty: str = (
        "This server runs an interactive terminal game and needs a terminal.\r\n"
        "Connect with a PTY, e.g.: ssh -t <host>\r\n"
    )
    full: str = "The server is full right now, please try again later.\r\n"
    crashed: str = "\r\nSorry, something went wrong and this session was closed.\r\n"
    misconfigured: str = "Server configuration error; please tell the operator.\r\n"


class AppSession(asyncssh.SSHServerSession):  # type: ignore[type-arg]
    """asyncssh session callbacks for one channel, running one app.

    asyncssh calls the ``*_requested``/``*_received`` methods on the event
    loop; the app itself runs in a task owned by the manager.
    """

    def __init__(
        self,
        manager: AppSessionManager,
        connection: asyncssh.SSHServerConnection,
        server: asyncssh.SSHServer | None,
        session_id: int,
    ) -> None:
        self.session_id = session_id
        self._manager = manager
        self._connection = connection
        self._server = server
        self._chan: asyncssh.SSHServerChannel | None = None  # type: ignore[type-arg]
        self._term_type: str | None = None
        self._size: tuple[int, int] = (80, 24)
        self._command: str | None = None
        self._terminal: ChannelTerminal | None = None
        self._app: App[Any] | None = None
        self._task: asyncio.Task[None] | None = None
        self._stop_reason: str | None = None
        self._watchdog: asyncio.TimerHandle | None = None
        self._finished = False

    @property
    def app(self) -> App[Any] | None:
        """The running app (None before it is built and after it finished)."""
        return self._app

    @property
    def task(self) -> asyncio.Task[None] | None:
        return self._task

    # -- asyncssh callbacks -----------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel) -> None:  # type: ignore[type-arg]
        self._chan = chan

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Mapping[int, int]
    ) -> bool:
        self._term_type = term_type or "xterm"
        width, height = term_size[:2]
        self._size = (width or 80, height or 24)  # 0 means "unknown"
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        # "ssh -t host something": still serve the app; the factory may look
        # at the command.  Without -t, session_started refuses (no PTY).
        self._command = command
        return True

    def session_started(self) -> None:
        chan = self._chan
        assert chan is not None
        messages = self._manager.messages
        if isinstance(chan, asyncssh.SSHLineEditorChannel):
            # asyncssh's line editor would echo and rewrite all our output.
            logger.error("ssh session %d: line_editor must be False (use create_app_server)",
                         self.session_id)
            self._refuse(messages.misconfigured)
        elif self._term_type is None:
            logger.info("ssh session %d refused: no PTY requested", self.session_id)
            self._refuse(messages.no_pty)
        elif not self._manager._has_capacity():
            logger.warning("ssh session %d refused: server full", self.session_id)
            self._refuse(messages.full)
        else:
            self._start_app(chan)

    def data_received(self, data: bytes | str, datatype: int | None) -> None:
        if datatype is None and self._terminal is not None:
            self._terminal.feed(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if self._terminal is not None:
            self._terminal.resize(width, height)
        else:
            self._size = (width or 80, height or 24)

    def eof_received(self) -> bool:
        self.request_stop("client sent EOF")
        return True  # keep our side open so the app can restore the terminal

    def connection_lost(self, exc: Exception | None) -> None:
        if self._terminal is not None:
            self._terminal.close("connection lost")
        self.request_stop("connection lost")

    # -- lifecycle ----------------------------------------------------------------

    def request_stop(self, reason: str) -> None:
        """Ask the app to exit (idempotent); cancel it if it does not comply."""
        if self._finished:
            return
        if self._stop_reason is None:
            self._stop_reason = reason
            logger.info("ssh session %d stopping: %s", self.session_id, reason)
        if self._app is not None:
            self._app.exit()
        if self._task is not None and self._watchdog is None:
            loop = asyncio.get_running_loop()
            self._watchdog = loop.call_later(
                self._manager.limits.stop_timeout, self._cancel_stuck_app
            )

    def _cancel_stuck_app(self) -> None:
        self._watchdog = None
        if self._task is not None and not self._task.done():
            logger.warning("ssh session %d: app did not exit in time; cancelling", self.session_id)
            self._task.cancel()

    def _refuse(self, message: str) -> None:
        """Explain on stderr why there is no app, then close with status 1."""
        self._finished = True
        chan = self._chan
        assert chan is not None
        try:
            binary = chan.get_encoding()[0] is None
            chan.write_stderr(message.encode() if binary else message)
            chan.exit(EXIT_FAILURE)
        except OSError:
            pass

    def _start_app(self, chan: asyncssh.SSHServerChannel) -> None:  # type: ignore[type-arg]
        limits = self._manager.limits
        self._terminal = ChannelTerminal(
            chan,
            self._size,
            env=dict(chan.get_environment()),
            write_buffer_cap=limits.write_buffer_cap,
            pending_input_cap=limits.pending_input_cap,
            min_size=limits.min_size,
            max_size=limits.max_size,
            on_close=self.request_stop,
        )
        self._task = self._manager._spawn(self)

    def _session_info(self, terminal: ChannelTerminal) -> SessionInfo:
        return SessionInfo(
            session_id=self.session_id,
            username=self._connection.get_extra_info("username"),
            peer=self._connection.get_extra_info("peername"),
            term_type=self._term_type or "xterm",
            size=terminal.size,
            env=MappingProxyType(dict(terminal.env)),
            command=self._command,
            connection=self._connection,
            server=self._server,
        )

    async def _build_app(self, terminal: ChannelTerminal) -> tuple[App[Any], Any]:
        """Call the factory and prepare the app to run on this channel."""
        app = self._manager.app_factory(self._session_info(terminal))
        if inspect.isawaitable(app):
            app = await app
        if not isinstance(app, App):
            raise TypeError(f"app_factory returned {type(app).__name__}, not a textual App")
        errors = harden_app(app)
        configure_terminal(app, self._term_type, terminal.env)
        app.driver_class = functools.partial(SSHDriver, terminal=terminal)  # type: ignore[assignment]
        return app, errors

    async def run(self) -> None:
        """Build and run the app; always ends by closing this channel."""
        terminal = self._terminal
        assert terminal is not None
        status = EXIT_FAILURE
        try:
            app, errors = await self._build_app(terminal)
            self._app = app
            if self._stop_reason is not None:  # client left while we were building
                app.exit()
            await run_app_preserving_task_factory(app, mouse=True, size=terminal.size)
            status = self._exit_status(app, errors.getvalue())
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("ssh session %d: app failed", self.session_id)
            terminal.write(self._manager.messages.crashed)
        finally:
            self._finish(status)

    def _exit_status(self, app: App[Any], error_output: str) -> int:
        """Exit status for the client; log and announce crashes."""
        exception = getattr(app, "_exception", None)
        if exception is not None:
            logger.error(
                "ssh session %d: app crashed: %s", self.session_id, exception, exc_info=exception
            )
            # Textual's rich traceback (with locals) is verbose: debug level.
            logger.debug("ssh session %d: textual error output:\n%s", self.session_id, error_output)
            if self._terminal is not None:
                self._terminal.write(self._manager.messages.crashed)
            return EXIT_FAILURE
        return (app.return_code or EXIT_OK) & 0xFF

    def _finish(self, status: int) -> None:
        """Close the channel with ``status`` and forget the app."""
        self._finished = True
        self._app = None
        if self._watchdog is not None:
            self._watchdog.cancel()
            self._watchdog = None
        if self._terminal is not None:
            self._terminal.close("session finished")
        chan = self._chan
        if chan is not None:
            try:
                chan.exit(status)
            except OSError:
                pass
        self._manager._forget(self)
        clear_instance_keyed_caches()
        logger.info("ssh session %d closed (status %d)", self.session_id, status)


class AppSessionManager:
    """Owns all app sessions of a server: creation, limits, tasks, shutdown."""

    def __init__(
        self,
        app_factory: AppFactory,
        *,
        limits: SessionLimits | None = None,
        messages: SessionMessages | None = None,
    ) -> None:
        install_stdio_guard()
        self.app_factory = app_factory
        self.limits = limits or SessionLimits()
        self.messages = messages or SessionMessages()
        self._ids = itertools.count(1)
        self._sessions: dict[int, AppSession] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._closing = False

    @property
    def sessions(self) -> list[AppSession]:
        """Sessions currently running an app."""
        return list(self._sessions.values())

    def create_session(
        self, connection: asyncssh.SSHServerConnection, server: asyncssh.SSHServer | None = None
    ) -> tuple[asyncssh.SSHServerChannel, AppSession] | bool:  # type: ignore[type-arg]
        """Return value for ``SSHServer.session_requested``."""
        if self._closing:
            return False
        # Raw bytes regardless of the server's encoding option: input is
        # decoded incrementally by the terminal (UTF-8, errors replaced).
        chan = connection.create_server_channel(encoding=None)
        return chan, AppSession(self, connection, server, next(self._ids))

    async def close(self, timeout: float = 5.0) -> None:
        """Stop every app (they restore their client's terminal), then cancel stragglers."""
        self._closing = True
        for session in list(self._sessions.values()):
            session.request_stop("server shutting down")
        tasks = list(self._tasks)
        if not tasks:
            return
        _done, pending = await asyncio.wait(tasks, timeout=timeout)
        for task in pending:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # -- used by AppSession -------------------------------------------------------

    def _has_capacity(self) -> bool:
        return not self._closing and len(self._sessions) < self.limits.max_sessions

    def _spawn(self, session: AppSession) -> asyncio.Task[None]:
        self._sessions[session.session_id] = session
        task = asyncio.create_task(session.run(), name=f"ssh-app-{session.session_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _forget(self, session: AppSession) -> None:
        self._sessions.pop(session.session_id, None)


class SSHAppServer(asyncssh.SSHServer):
    """Per-connection asyncssh server that hands sessions to the manager.

    Subclass it to add authentication (``begin_auth``,
    ``validate_public_key``...) and keep the player's identity on ``self``;
    the app factory sees this object as ``SessionInfo.server``.  asyncssh's
    defaults apply otherwise, i.e. authentication is required.
    """

    def __init__(self, manager: AppSessionManager) -> None:
        self.manager = manager
        self.connection: asyncssh.SSHServerConnection | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.connection = conn

    def session_requested(self) -> Any:
        if self.connection is None:
            return False
        return self.manager.create_session(self.connection, self)


_gc_policy_applied = False


async def create_app_server(
    manager: AppSessionManager,
    host: str | None,
    port: int,
    *,
    server_factory: Callable[[], SSHAppServer] | None = None,
    gc_policy: GCPolicy | None = DEFAULT_GC_POLICY,
    **options: Any,
) -> asyncssh.SSHAcceptor:
    """``asyncssh.create_server`` set up to serve ``manager``'s apps.

    ``options`` go to asyncssh (``server_host_keys``, ``login_timeout``...).
    Forces ``line_editor=False`` (asyncssh's line editor would echo input and
    rewrite every byte of output) and applies ``gc_policy`` once per process
    (pass None to leave the GC alone, e.g. in tests).
    """
    for forbidden in ("process_factory", "session_factory"):
        if options.get(forbidden) is not None:
            raise ValueError(f"{forbidden} would bypass the app sessions")
    if options.get("line_editor"):
        raise ValueError("line_editor must be False for Textual apps")
    options["line_editor"] = False
    global _gc_policy_applied
    if gc_policy is not None and not _gc_policy_applied:
        gc_policy.apply()
        _gc_policy_applied = True
    factory = server_factory or functools.partial(SSHAppServer, manager)
    return await asyncssh.create_server(factory, host, port, **options)


__all__ = [
    "AppFactory",
    "AppSession",
    "AppSessionManager",
    "SSHAppServer",
    "SessionInfo",
    "SessionLimits",
    "SessionMessages",
    "create_app_server",
]
