"""A stand-in for ``server.termhost`` until the shared host lands (then this file goes).

It implements the contract of docs (BRIEF: ``host.open(transport, start)``,
``session.feed/resize/transport_lost/finished``) with the SSH door's
in-process machinery: a ``ChannelTerminal`` over the door's transport, an
``SSHDriver``, the hardening, and the real client from ``build_app``.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Protocol

from ..netclient import ServerConnection
from ..ssh.driver import ChannelTerminal
from ..ssh.frontdoor import InProcessServer, _outside_the_app
from ..ssh.hardening import (
    clear_instance_keyed_caches,
    install_stdio_guard,
    run_app_preserving_task_factory,
)
from ..ssh.limits import InputBudget
from ..ssh.session import SessionLimits, SessionMessages, app_exit_status, prepare_app
from ..ssh.sharing import use_lazy_render_caches

logger = logging.getLogger(__name__)


class TerminalTransport(Protocol):
    def write(self, data: bytes) -> None: ...
    def get_write_buffer_size(self) -> int: ...
    def is_closing(self) -> bool: ...
    def abort(self) -> None: ...
    def pause_reading(self) -> None: ...
    def resume_reading(self) -> None: ...
    def end(self, status: int) -> None: ...


@dataclass(frozen=True)
class DoorPlayer:
    door: str
    identity: str | None
    requested_name: str | None
    peer: str


@dataclass(frozen=True)
class SessionStart:
    player: DoorPlayer
    term_type: str
    size: tuple[int, int]
    env: Mapping[str, str]


class _BinaryChannel:
    """A ``TerminalTransport`` as the ``ChannelLike`` a ``ChannelTerminal`` drives."""

    def __init__(self, transport: TerminalTransport) -> None:
        self._transport = transport
        self.write = transport.write
        self.get_write_buffer_size = transport.get_write_buffer_size
        self.is_closing = transport.is_closing
        self.abort = transport.abort
        self.pause_reading = transport.pause_reading
        self.resume_reading = transport.resume_reading

    def get_encoding(self) -> tuple[str | None, str]:
        return None, "strict"


class HostedSession:
    def __init__(self, host: InterimHost, session_id: int, transport: TerminalTransport,
                 start: SessionStart, on_closed: Callable[[], None] | None) -> None:
        self._host = host
        self.session_id = session_id
        self._transport = transport
        self._start = start
        self._on_closed = on_closed
        limits = host.limits
        self._app: Any = None
        self._stopping = False
        self.terminal = ChannelTerminal(
            _BinaryChannel(transport), start.size, env=dict(start.env),
            write_buffer_cap=limits.write_buffer_cap, pending_input_cap=limits.pending_input_cap,
            min_size=limits.min_size, max_size=limits.max_size, on_close=self._stop,
            input_budget=InputBudget(limits.input_rate, limits.input_burst),
        )
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"web-app-{session_id}")

    def feed(self, data: bytes) -> None:
        self.terminal.feed(data)

    def resize(self, columns: int, rows: int) -> None:
        self.terminal.resize(columns, rows)

    def transport_lost(self) -> None:
        self.terminal.close("connection lost")

    async def finished(self) -> None:
        await asyncio.gather(self._task, return_exceptions=True)

    def _stop(self, reason: str) -> None:
        if not self._stopping:
            self._stopping = True
            logger.info("web session %d stopping: %s", self.session_id, reason)
        if self._app is not None:
            self._app.exit()

    async def _run(self) -> None:
        from skyjo_tui.app import build_app

        start, terminal, host = self._start, self.terminal, self._host
        identity = start.player.identity

        async def connect() -> ServerConnection:
            reader, writer = await _outside_the_app(host.server.open_in_process(identity))
            return ServerConnection.from_streams(reader, writer)

        status = 1
        try:
            environ = MappingProxyType({**start.env, "TERM": start.term_type})
            app = build_app(connect, name=start.player.requested_name, environ=environ,
                            **host.app_options)
            errors = prepare_app(app, terminal, start.term_type)
            self._app = app
            if self._stopping:
                app.exit()
            await run_app_preserving_task_factory(app, mouse=True, size=terminal.size)
            status = app_exit_status(app, errors.getvalue(), self.session_id, terminal,
                                     host.messages.crashed)
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("web session %d: app failed", self.session_id)
            terminal.write(host.messages.crashed)
        finally:
            self._app = None
            terminal.close("session finished")
            self._transport.end(status)
            host._sessions.discard(self)
            clear_instance_keyed_caches()
            on_closed, self._on_closed = self._on_closed, None
            if on_closed is not None:
                on_closed()


class InterimHost:
    def __init__(self, server: InProcessServer, app_options: Mapping[str, Any] | None = None) -> None:
        install_stdio_guard()
        use_lazy_render_caches()
        self.server = server
        self.limits = SessionLimits()
        self.messages = SessionMessages()
        self.app_options = dict(app_options or {})
        self._ids = itertools.count(1)
        self._sessions: set[HostedSession] = set()
        self._closing = False

    def open(self, transport: TerminalTransport, start: SessionStart,
             on_closed: Callable[[], None] | None = None) -> HostedSession | None:
        if self._closing or len(self._sessions) >= self.limits.max_sessions:
            transport.write(self.messages.full.encode())
            transport.end(1)
            return None
        session = HostedSession(self, next(self._ids), transport, start, on_closed)
        self._sessions.add(session)
        return session

    async def close(self, timeout: float = 5.0) -> None:
        self._closing = True
        sessions = list(self._sessions)
        for session in sessions:
            session.transport_lost()
        tasks = [s._task for s in sessions]
        if tasks:
            _done, pending = await asyncio.wait(tasks, timeout=timeout)
            for task in pending:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
