"""One Textual app per SSH session, all inside the server's event loop.

Wiring: see ``server/ssh/__init__.py``; the per-connection side (auth,
connection caps) is in ``server/ssh/connection.py``.

Every session with a PTY gets a fresh app from the factory, driven by an
``SSHDriver`` over its channel.  Sessions are isolated: an app quitting or
crashing ends only its own channel (exit status 0 / 1), and the process-wide
side effects Textual would normally have are neutralised (``hardening``).
A session is only ever the game: commands (``ssh host ls``, scp) get a
message and exit status 1, subsystems (sftp) are refused.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import inspect
import io
import itertools
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, Union

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
from .gcpolicy import GCScheduler
from .limits import ConnectionRegistry, InputBudget
from .sharing import share_parsed_css, use_lazy_render_caches
from .channels import cap_environment
from .hardening import (
    clear_instance_keyed_caches,
    configure_terminal,
    harden_app,
    install_stdio_guard,
    run_app_preserving_task_factory,
)

if TYPE_CHECKING:
    from .relay import RemoteApp
    from .workers import WorkerPool

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
    """Environment variables the client sent (untrusted input, capped)."""
    connection: asyncssh.SSHServerConnection | None = field(default=None, repr=False)
    """For ``get_extra_info`` (e.g. the authenticated key); None in a worker process."""
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
    idle_timeout: float | None = 30 * 60.0
    """Seconds without any input before a session is closed (None: never)."""
    input_rate: float = 8 * 1024
    """Characters of input per second, sustained; faster clients are paused."""
    input_burst: float = 32 * 1024
    input_window: int = 64 * 1024
    """SSH receive window per session: the most input buffered while paused."""
    max_env_vars: int = 32
    """Environment variables kept per session (each name and value is capped too)."""
    max_connections: int = 300
    max_connections_per_address: int = 20
    """Several players behind one NAT share an address: keep this generous."""
    idle_connection_timeout: float = 30.0
    """Seconds a logged-in connection may stay open without a running session."""


@dataclass(frozen=True)
class SessionMessages:
    """Text shown to clients when no app can be served (CRLF: raw terminal)."""

    no_pty: str = (
        "This server runs an interactive terminal game and needs a terminal.\r\n"
        "Connect with a PTY, e.g.: ssh -t <host>\r\n"
    )
    full: str = "The server is full right now, please try again later.\r\n"
    no_commands: str = (
        "This server only runs the game; it does not run commands or copy files.\r\n"
        "Connect without a command, e.g.: ssh <host>\r\n"
    )
    idle: str = "\r\nClosed after a long time without a key press. See you soon!\r\n"
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
        on_closed: Callable[[], None] | None = None,
    ) -> None:
        self.session_id = session_id
        self._on_closed = on_closed
        self._manager = manager
        self._connection = connection
        self._server = server
        self._chan: asyncssh.SSHServerChannel | None = None  # type: ignore[type-arg]
        self._term_type: str | None = None
        self._size: tuple[int, int] = (80, 24)
        self._command: str | None = None
        self._terminal: ChannelTerminal | None = None
        self._idle_timer: asyncio.TimerHandle | None = None
        self._farewell = ""
        self._app: App[Any] | None = None
        self._remote: RemoteApp | None = None
        """The app's stand-in when it runs in a worker process."""
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

    @property
    def terminal(self) -> ChannelTerminal | None:
        """The session's side of the channel (None until an app is started)."""
        return self._terminal

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
        # Accepted only to answer with a readable message (session_started):
        # a refused request would just print "exec request failed".
        self._command = command
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        logger.info("ssh session %d: subsystem %r refused", self.session_id, subsystem[:40])
        return False

    def session_started(self) -> None:
        chan = self._chan
        assert chan is not None
        messages = self._manager.messages
        if isinstance(chan, asyncssh.SSHLineEditorChannel):
            # asyncssh's line editor would echo and rewrite all our output.
            logger.error("ssh session %d: line_editor must be False (use create_app_server)",
                         self.session_id)
            self._refuse(messages.misconfigured)
        elif self._command is not None:
            logger.info("ssh session %d refused: command %r", self.session_id, self._command[:80])
            self._refuse(messages.no_commands)
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
        on_closed, self._on_closed = self._on_closed, None
        if on_closed is not None:
            on_closed()

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
        if self._remote is not None:
            self._remote.stop()
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
            input_budget=InputBudget(limits.input_rate, limits.input_burst),
        )
        self._task = self._manager._spawn(self)
        if limits.idle_timeout is not None:
            self._arm_idle_timer(limits.idle_timeout)

    def _arm_idle_timer(self, delay: float) -> None:
        # One timer per session, re-armed only when it fires: no CPU while idle.
        loop = asyncio.get_running_loop()
        self._idle_timer = loop.call_later(max(delay, 0.01), self._check_idle)

    def _check_idle(self) -> None:
        self._idle_timer = None
        timeout = self._manager.limits.idle_timeout
        terminal = self._terminal
        if timeout is None or terminal is None or self._finished:
            return
        idle_for = time.monotonic() - terminal.last_input
        if idle_for < timeout:
            self._arm_idle_timer(timeout - idle_for)
            return
        self._farewell = self._manager.messages.idle
        self.request_stop(f"no input for {idle_for:.0f} s")

    def _session_info(self, terminal: ChannelTerminal) -> SessionInfo:
        return SessionInfo(
            session_id=self.session_id,
            username=self._connection.get_extra_info("username"),
            peer=self._connection.get_extra_info("peername"),
            term_type=self._term_type or "xterm",
            size=terminal.size,
            env=MappingProxyType(dict(terminal.env)),
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
        return app, prepare_app(app, terminal, self._term_type)

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

    async def run_in_worker(self, pool: WorkerPool) -> None:
        """Run the app in one of ``pool``'s processes, relaying this channel to it."""
        terminal = self._terminal
        assert terminal is not None
        status: int | None = EXIT_FAILURE
        worker = None
        try:
            info = self._session_info(terminal)
            worker, remote = await pool.open(info, terminal)
            self._remote = remote
            terminal.attach(remote)
            if terminal.size != info.size:  # the window changed while the worker was chosen
                remote.resize(*terminal.size)
            if self._stop_reason is not None:  # client left while we were starting it
                remote.stop()
            status = await remote.finished()
            if status is None:
                logger.error("ssh session %d: its worker process vanished", self.session_id)
                terminal.write(self._manager.messages.crashed)
                status = EXIT_FAILURE
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("ssh session %d: no worker could run the app", self.session_id)
            terminal.write(self._manager.messages.crashed)
        finally:
            remote, self._remote = self._remote, None
            if remote is not None:
                terminal.detach(remote)
                remote.close()
            if worker is not None:
                worker.session_ended(self.session_id)
            self._finish(status if status is not None else EXIT_FAILURE)

    def _exit_status(self, app: App[Any], error_output: str) -> int:
        """Exit status for the client; log and announce crashes."""
        assert self._terminal is not None
        return app_exit_status(
            app, error_output, self.session_id, self._terminal, self._manager.messages.crashed
        )

    def _finish(self, status: int) -> None:
        """Close the channel with ``status`` and forget the app."""
        self._finished = True
        self._app = None
        for timer in (self._watchdog, self._idle_timer):
            if timer is not None:
                timer.cancel()
        self._watchdog = self._idle_timer = None
        if self._terminal is not None:
            self._terminal.write(self._farewell)  # after the app restored the screen
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


def prepare_app(app: App[Any], terminal: ChannelTerminal, term_type: str | None) -> io.StringIO:
    """Make ``app`` safe to run beside others and bind it to ``terminal``.

    Returns the buffer that receives Textual's error output (tracebacks).
    """
    errors = harden_app(app)
    share_parsed_css(app)
    configure_terminal(app, term_type, terminal.env)
    app.driver_class = functools.partial(SSHDriver, terminal=terminal)  # type: ignore[assignment]
    return errors


def app_exit_status(
    app: App[Any], error_output: str, session_id: int, terminal: ChannelTerminal, crashed: str
) -> int:
    """The client's exit status once ``app`` has finished; a crash is logged and
    announced on the terminal."""
    exception = getattr(app, "_exception", None)
    if exception is not None:
        logger.error("ssh session %d: app crashed: %s", session_id, exception, exc_info=exception)
        # Textual's rich traceback (with locals) is verbose: debug level.
        logger.debug("ssh session %d: textual error output:\n%s", session_id, error_output)
        terminal.write(crashed)
        return EXIT_FAILURE
    return (app.return_code or EXIT_OK) & 0xFF


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
        use_lazy_render_caches()
        self.app_factory = app_factory
        self.limits = limits or SessionLimits()
        self.messages = messages or SessionMessages()
        self._ids = itertools.count(1)
        self._sessions: dict[int, AppSession] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._closing = False
        self.gc_scheduler: GCScheduler | None = None
        """Set by ``create_app_server`` when it applies a GC policy."""
        self.pool: WorkerPool | None = None
        """Worker processes that run the apps (None: apps run in this process)."""
        self.connections: ConnectionRegistry[asyncssh.SSHServerConnection] = ConnectionRegistry(
            self.limits.max_connections, self.limits.max_connections_per_address
        )
        """Open SSH connections (maintained by ``SSHAppServer``)."""

    @property
    def sessions(self) -> list[AppSession]:
        """Sessions currently running an app."""
        return list(self._sessions.values())

    def create_session(
        self,
        connection: asyncssh.SSHServerConnection,
        server: asyncssh.SSHServer | None = None,
        on_closed: Callable[[], None] | None = None,
    ) -> tuple[asyncssh.SSHServerChannel, AppSession] | bool:  # type: ignore[type-arg]
        """Return value for ``SSHServer.session_requested``.

        ``on_closed`` is called once when the session's channel has closed.
        """
        if self._closing:
            return False
        # Raw bytes regardless of the server's encoding option: input is
        # decoded incrementally by the terminal (UTF-8, errors replaced).
        # A small receive window bounds what a paused (flooding) client can
        # make us buffer.
        chan = connection.create_server_channel(encoding=None, window=self.limits.input_window)
        cap_environment(chan, self.limits.max_env_vars)
        session = AppSession(self, connection, server, next(self._ids), on_closed)
        return chan, session

    async def close(self, timeout: float = 5.0) -> None:
        """Stop every app (they restore their client's terminal), cancel
        stragglers, then disconnect every connection still open."""
        self._closing = True
        if self.pool is not None:
            self.pool.begin_close()  # sessions ending now must not start new workers
        if self.gc_scheduler is not None:
            # No thaw (a long pause) while everyone leaves at once: give the
            # frozen heap back to the ordinary collector instead.
            self.gc_scheduler.close()
            self.gc_scheduler = None
            gc.unfreeze()
        for session in list(self._sessions.values()):
            session.request_stop("server shutting down")
        tasks = list(self._tasks)
        if tasks:
            _done, pending = await asyncio.wait(tasks, timeout=timeout)
            for task in pending:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        if self.pool is not None:
            await self.pool.close()
        for connection in self.connections:
            connection.disconnect(asyncssh.DISC_BY_APPLICATION, "The server is shutting down.")

    # -- used by AppSession -------------------------------------------------------

    def _has_capacity(self) -> bool:
        return not self._closing and len(self._sessions) < self.limits.max_sessions

    def _spawn(self, session: AppSession) -> asyncio.Task[None]:
        self._sessions[session.session_id] = session
        if self.gc_scheduler is not None:
            self.gc_scheduler.session_started()
        running = session.run() if self.pool is None else session.run_in_worker(self.pool)
        task = asyncio.create_task(running, name=f"ssh-app-{session.session_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _forget(self, session: AppSession) -> None:
        if self._sessions.pop(session.session_id, None) is not None and self.gc_scheduler:
            self.gc_scheduler.session_ended()


__all__ = [
    "AppFactory",
    "AppSession",
    "AppSessionManager",
    "SessionInfo",
    "SessionLimits",
    "SessionMessages",
]
