"""One Textual app per player's terminal, whichever door the player came in by.

A door (``server.ssh``, ``server.web``) owns its transport, authentication and
connection caps; for each player it hands the host a ``TerminalTransport`` and
a ``SessionStart`` (who, which terminal, what size) with ``SessionHost.open``.
From there everything is the host's, the same for every door: the app is
built by the factory, run here or in a worker process (``workers``), fed the
client's input (decoded, within an input budget: over it the door is told to
stop reading), resized (clamped), stopped when the client leaves or stays idle
too long, cancelled if it will not stop, and its exit status given back to
the door with ``transport.end(status)``.

Sessions are isolated: an app quitting or crashing ends only its own
terminal, and the process-wide side effects Textual would normally have are
neutralised (``hardening``).
"""

from __future__ import annotations

import asyncio
import contextlib
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
from typing import TYPE_CHECKING, Any, Final, Protocol

from textual.app import App

from ..limits import TokenBucket
from ..ratelog import RefusalLog
from .driver import ChannelTerminal, TerminalDriver, clamp_size
from .gcpolicy import GCScheduler
from .hardening import (
    clear_instance_keyed_caches,
    configure_terminal,
    end_leftover_workers,
    harden_app,
    install_stdio_guard,
    run_app_preserving_task_factory,
)
from .options import HostLimits, HostMessages
from .painting import paint_changed_lines_only
from .sharing import share_parsed_css, use_lazy_render_caches

if TYPE_CHECKING:
    from .relay import RemoteApp
    from .workers import WorkerPool

logger = logging.getLogger(__name__)

REFUSED_FULL: Final = RefusalLog(logger, "sessions refused: server full")
"""A flood at the host's cap: a line each at INFO, one WARNING a minute (any door's)."""

EXIT_OK: Final = 0
EXIT_FAILURE: Final = 1


class TerminalTransport(Protocol):
    """What a door gives the host for one player's terminal."""

    def write(self, data: bytes) -> None:
        """Terminal output (UTF-8); must not block (queue it)."""

    def get_write_buffer_size(self) -> int:
        """Bytes written but not yet sent: over the cap the client is dropped."""

    def is_closing(self) -> bool: ...

    def abort(self) -> None:
        """Drop the connection now, discarding what is queued."""

    def pause_reading(self) -> None:
        """Stop reading the client (it sends faster than the input budget)..."""

    def resume_reading(self) -> None:
        """...and read again."""

    def end(self, status: int) -> None:
        """The session is over (``EXIT_OK`` or ``EXIT_FAILURE``): close the terminal."""


@dataclass(frozen=True)
class DoorPlayer:
    """Who a session is for, as established by the door they came in by."""

    door: str
    """``"ssh"`` or ``"web"``."""
    identity: str | None
    """A trusted identity (``ssh-key:SHA256:...``, ``web:<hex>``) that owns the
    names it picks in the lobby; None: a guest."""
    requested_name: str | None = None
    """A name asked for at the door (``ssh alice@host``); None: ask, or remember."""
    peer: str = ""
    """The client's address (through trusted proxies only)."""
    login: str | None = None
    """What the client logged in as at the door, verbatim (the SSH user), for logs."""


@dataclass(frozen=True)
class SessionStart:
    """What a door knows about a terminal when it asks for a session."""

    player: DoorPlayer
    term_type: str = "xterm-256color"
    size: tuple[int, int] = (80, 24)
    """(columns, rows); clamped by the host."""
    env: Mapping[str, str] = field(default_factory=dict)
    """The terminal's environment (COLORTERM, LANG, NO_COLOR...): untrusted, capped by the door."""


@dataclass(frozen=True)
class SessionInfo:
    """What the app factory knows about the session it is building an app for."""

    session_id: int
    player: DoorPlayer
    term_type: str
    size: tuple[int, int]
    """Initial (clamped) terminal size; later changes reach the app as Resize."""
    env: Mapping[str, str]

    @property
    def username(self) -> str | None:
        """What the client logged in as (``DoorPlayer.login``)."""
        return self.player.login


AppFactory = Callable[[SessionInfo], App[Any] | Awaitable[App[Any]]]


class HostedSession:
    """One player's terminal running one app, from ``SessionHost.open`` to
    ``transport.end``."""

    def __init__(
        self,
        host: SessionHost,
        transport: TerminalTransport,
        start: SessionStart,
        session_id: int,
        on_closed: Callable[[], None] | None,
    ) -> None:
        self.session_id = session_id
        self.player = start.player
        self._host = host
        self._transport = transport
        self._term_type = start.term_type or "xterm"
        self._on_closed = on_closed
        limits = host.limits
        self.terminal = ChannelTerminal(
            transport,
            start.size,
            env=dict(start.env),
            write_buffer_cap=limits.write_buffer_cap,
            pending_input_cap=limits.pending_input_cap,
            min_size=limits.min_size,
            max_size=limits.max_size,
            on_close=self.request_stop,
            input_budget=TokenBucket(limits.input_rate, limits.input_burst),
            resize_budget=host._resize_budget_for(start.player.peer),  # noqa: SLF001 - the module's own (SessionHost and its sessions)
            write_deadline=limits.write_deadline,
        )
        """The session's side of the terminal (input routing, output caps)."""
        self._idle_timer: asyncio.TimerHandle | None = None
        self._farewell = ""
        self._app: App[Any] | None = None
        self._remote: RemoteApp | None = None
        """The app's stand-in when it runs in a worker process."""
        self._task: asyncio.Task[None] | None = None
        self._stop_reason: str | None = None
        self._watchdog: asyncio.TimerHandle | None = None
        self._finished = asyncio.get_running_loop().create_future()

    @property
    def app(self) -> App[Any] | None:
        """The running app (None before it is built, after it finished, or in a worker)."""
        return self._app

    @property
    def task(self) -> asyncio.Task[None] | None:
        return self._task

    async def finished(self) -> None:
        """Until the app has exited and the transport was ended."""
        await asyncio.shield(self._finished)

    # -- from the door ------------------------------------------------------------

    def feed(self, data: bytes | str) -> None:
        """Client input (decoded here as UTF-8, errors replaced)."""
        self.terminal.feed(data)

    def resize(self, columns: int, rows: int) -> None:
        """The client's window changed (clamped, budgeted; the last size wins)."""
        self.terminal.resize(columns, rows)

    def charge(self, amount: int) -> None:
        """The client sent a request that is not input (a ping, a message the
        door ignored): it costs ``amount`` of its input budget (at least
        ``REQUEST_COST``), so that it is held back like a flood of keys."""
        self.terminal.charge(amount)

    def output_queued(self, amount: int) -> None:
        """The door queued ``amount`` bytes of its own to the client (a pong, a
        ping): they count against the same write-buffer cap and deadline as
        the app's output."""
        self.terminal.output_queued(amount)

    def transport_lost(self) -> None:
        """The connection is gone: stop the app (the player keeps their seat)."""
        self.terminal.close("connection lost")
        self.request_stop("connection lost")
        self._closed()

    # -- lifecycle ----------------------------------------------------------------

    def request_stop(self, reason: str) -> None:
        """Ask the app to exit (idempotent); cancel it if it does not comply."""
        if self._finished.done():
            return
        if self._stop_reason is None:
            self._stop_reason = reason
            logger.info("session %d stopping: %s", self.session_id, reason)
        if self._app is not None:
            self._app.exit()
        if self._remote is not None:
            self._remote.stop()
        if self._task is not None and self._watchdog is None:
            loop = asyncio.get_running_loop()
            self._watchdog = loop.call_later(self._host.limits.stop_timeout, self._cancel_stuck_app)

    def shut_down(self) -> None:
        """The server stops: end the app, then say so on the player's terminal."""
        self._farewell = self._host.messages.shutting_down
        self.request_stop("server shutting down")

    def _cancel_stuck_app(self) -> None:
        self._watchdog = None
        if self._task is not None and not self._task.done():
            logger.warning("session %d: app did not exit in time; cancelling", self.session_id)
            self._task.cancel()

    def _start(self) -> None:
        host = self._host
        running = self._run() if host.pool is None else self._run_in_worker(host.pool)
        self._task = asyncio.create_task(running, name=f"app-session-{self.session_id}")
        if host.limits.idle_timeout is not None:
            self._arm_idle_timer(host.limits.idle_timeout)

    def _arm_idle_timer(self, delay: float) -> None:
        # One timer per session, re-armed only when it fires: no CPU while idle.
        loop = asyncio.get_running_loop()
        self._idle_timer = loop.call_later(max(delay, 0.01), self._check_idle)

    def _check_idle(self) -> None:
        self._idle_timer = None
        timeout = self._host.limits.idle_timeout
        if timeout is None or self._finished.done():
            return
        idle_for = time.monotonic() - self.terminal.last_input
        if idle_for < timeout:
            self._arm_idle_timer(timeout - idle_for)
            return
        self._farewell = self._host.messages.idle
        self.request_stop(f"no input for {idle_for:.0f} s")

    def _session_info(self) -> SessionInfo:
        return SessionInfo(
            session_id=self.session_id,
            player=self.player,
            term_type=self._term_type,
            size=self.terminal.size,
            env=MappingProxyType(dict(self.terminal.env)),
        )

    async def _build_app(self) -> tuple[App[Any], Any]:
        """Call the factory and prepare the app to run on this terminal."""
        app = self._host.app_factory(self._session_info())
        if inspect.isawaitable(app):
            app = await app
        if not isinstance(app, App):
            raise TypeError(f"app_factory returned {type(app).__name__}, not a textual App")
        return app, prepare_app(app, self.terminal, self._term_type)

    async def _run(self) -> None:
        """Build and run the app in this process; always ends the transport."""
        terminal = self.terminal
        status = EXIT_FAILURE
        app: App[Any] | None = None
        try:
            app, errors = await self._build_app()
            self._app = app
            if self._stop_reason is not None:  # client left while we were building
                app.exit()
            await run_app_preserving_task_factory(app, mouse=True, size=terminal.size)
            await end_leftover_workers(
                app, self._host.limits.stop_timeout, f"session {self.session_id}"
            )
            status = app_exit_status(
                app, errors.getvalue(), self.session_id, terminal, self._host.messages.crashed
            )
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("session %d: app failed", self.session_id)
            terminal.write(self._host.messages.crashed)
        finally:
            if app is not None:
                # An app cancelled (stuck, or the host closing) before its message loop
                # ran never cancels its workers itself.
                app.workers.cancel_all()
            self._finish(status)

    async def _run_in_worker(self, pool: WorkerPool) -> None:
        """Run the app in one of ``pool``'s processes, relaying this terminal to it."""
        terminal = self.terminal
        status: int | None = EXIT_FAILURE
        worker = None
        try:
            info = self._session_info()
            worker, remote = await pool.open(info, terminal)
            self._remote = remote
            terminal.attach(remote)
            if terminal.size != info.size:  # the window changed while the worker was chosen
                remote.resize(*terminal.size)
            if self._stop_reason is not None:  # client left while we were starting it
                remote.stop()
            status = await remote.finished()
            if status is None:
                logger.error("session %d: its worker process vanished", self.session_id)
                terminal.write(self._host.messages.crashed)
                status = EXIT_FAILURE
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("session %d: no worker could run the app", self.session_id)
            terminal.write(self._host.messages.crashed)
        finally:
            running, self._remote = self._remote, None
            if running is not None:
                terminal.detach(running)
                running.close()
            if worker is not None:
                worker.session_ended(self.session_id)
            self._finish(status if status is not None else EXIT_FAILURE)

    def _finish(self, status: int) -> None:
        """End the transport with ``status`` and forget the app."""
        self._app = None
        for timer in (self._watchdog, self._idle_timer):
            if timer is not None:
                timer.cancel()
        self._watchdog = self._idle_timer = None
        self.terminal.write(self._farewell)  # after the app restored the screen
        self.terminal.close("session finished")
        with contextlib.suppress(OSError):
            self._transport.end(status)
        if not self._finished.done():
            self._finished.set_result(None)
        self._host._forget(self)  # noqa: SLF001 - the module's own (SessionHost and its sessions)
        self._closed()
        clear_instance_keyed_caches()
        logger.info("session %d closed (status %d)", self.session_id, status)

    def _closed(self) -> None:
        on_closed, self._on_closed = self._on_closed, None
        if on_closed is not None:
            on_closed()


def prepare_app(app: App[Any], terminal: ChannelTerminal, term_type: str | None) -> io.StringIO:
    """Make ``app`` safe to run beside others and bind it to ``terminal``.

    Returns the buffer that receives Textual's error output (tracebacks).
    """
    errors = harden_app(app)
    configure_terminal(app, term_type, terminal.env)
    app.driver_class = functools.partial(TerminalDriver, terminal=terminal)  # type: ignore[assignment]
    return errors


def app_exit_status(
    app: App[Any], error_output: str, session_id: int, terminal: ChannelTerminal, crashed: str
) -> int:
    """The client's exit status once ``app`` has finished; a crash is logged and
    announced on the terminal."""
    exception = getattr(app, "_exception", None)
    if exception is not None:
        logger.error("session %d: app crashed: %s", session_id, exception, exc_info=exception)
        # Textual's rich traceback (with locals) is verbose: debug level.
        logger.debug("session %d: textual error output:\n%s", session_id, error_output)
        terminal.write(crashed)
        return EXIT_FAILURE
    return (app.return_code or EXIT_OK) & 0xFF


class SessionHost:
    """Runs every player's app, for every door: creation, limits, tasks, shutdown."""

    def __init__(
        self,
        app_factory: AppFactory,
        *,
        limits: HostLimits | None = None,
        messages: HostMessages | None = None,
    ) -> None:
        install_stdio_guard()
        use_lazy_render_caches()
        paint_changed_lines_only()
        share_parsed_css()
        self.app_factory = app_factory
        self.limits = limits or HostLimits()
        self.messages = messages or HostMessages()
        self._ids = itertools.count(1)
        self._sessions: dict[int, HostedSession] = {}
        self._resize_budgets: dict[str, TokenBucket] = {}
        """Window sizes applied per client address, every session of it together
        (kept while one of them runs): six tabs resizing cost what one does."""
        self._closing = False
        self.gc_scheduler: GCScheduler | None = None
        """Set when a GC policy is applied (``start_gc``)."""
        self.pool: WorkerPool | None = None
        """Worker processes that run the apps (None: apps run in this process)."""

    @property
    def sessions(self) -> list[HostedSession]:
        """Sessions currently running an app."""
        return list(self._sessions.values())

    def start_gc(self, scheduler: GCScheduler) -> None:
        """Let ``scheduler`` settle and thaw the heap as sessions come and go."""
        self.gc_scheduler = scheduler
        scheduler.start()

    def expect_session(self) -> None:
        """A door accepted a connection that may become a session (before its handshake
        and authentication): no collection pauses it on its way to the first screen."""
        if self.gc_scheduler is not None:
            self.gc_scheduler.grant_grace()

    def open(
        self,
        transport: TerminalTransport,
        start: SessionStart,
        *,
        on_closed: Callable[[], None] | None = None,
    ) -> HostedSession | None:
        """Start an app on ``transport``; None when full or closing (the refusal
        has been written and the transport ended with ``EXIT_FAILURE``).

        ``on_closed`` is called once, when the session is over.
        """
        if self._closing or len(self._sessions) >= self.limits.max_sessions:
            logger.info("session refused for %s: server full", start.player.peer or "?")
            REFUSED_FULL.refused(start.player.peer or "?")
            try:
                transport.write(self.messages.full.encode())
                transport.end(EXIT_FAILURE)
            except OSError:
                pass
            return None
        session = HostedSession(self, transport, start, next(self._ids), on_closed)
        self._sessions[session.session_id] = session
        if self.gc_scheduler is not None:
            self.gc_scheduler.session_started()
        session._start()  # noqa: SLF001 - the module's own (SessionHost and its sessions)
        return session

    async def close(self, timeout: float = 5.0) -> None:
        """Stop every app (they restore their client's terminal), cancel stragglers."""
        self._closing = True
        if self.pool is not None:
            self.pool.begin_close()  # sessions ending now must not start new workers
        if self.gc_scheduler is not None:
            # No thaw (a long pause) while everyone leaves at once: give the
            # frozen heap back to the ordinary collector instead.
            if self.gc_scheduler.freezes:
                gc.unfreeze()
            self.gc_scheduler.close()
            self.gc_scheduler = None
        sessions = list(self._sessions.values())
        for session in sessions:
            session.shut_down()
        tasks = [s.task for s in sessions if s.task is not None]
        if tasks:
            _done, pending = await asyncio.wait(tasks, timeout=timeout)
            for task in pending:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        if self.pool is not None:
            await self.pool.close()

    def _resize_budget_for(self, address: str) -> TokenBucket:
        limits = self.limits
        if not address:  # no address known: a budget of its own
            return TokenBucket(limits.resize_rate, limits.resize_burst)
        budget = self._resize_budgets.get(address)
        if budget is None:
            budget = TokenBucket(limits.resize_rate, limits.resize_burst)
            self._resize_budgets[address] = budget
        return budget

    def _forget(self, session: HostedSession) -> None:
        if self._sessions.pop(session.session_id, None) is not None and self.gc_scheduler:
            self.gc_scheduler.session_ended()
        address = session.player.peer
        if address and not any(s.player.peer == address for s in self._sessions.values()):
            self._resize_budgets.pop(address, None)


__all__ = [
    "EXIT_FAILURE",
    "EXIT_OK",
    "AppFactory",
    "DoorPlayer",
    "HostLimits",
    "HostMessages",
    "HostedSession",
    "SessionHost",
    "SessionInfo",
    "SessionStart",
    "TerminalTransport",
    "app_exit_status",
    "clamp_size",
    "prepare_app",
]
