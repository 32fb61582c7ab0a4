"""A worker process: runs the Textual apps of the sessions it is given.

Started by ``server.termhost.workers.WorkerPool`` as ``python -m server.termhost.worker``
with one end of a control socket (``--control-fd``).  Over it the server process
sends ``open`` (a session: its description and, as an attached file
descriptor, the session's relay socket, see ``relay``) and ``exit``; the
worker asks for ``connect`` (a new connection to the lobby for a session) and
gets the lobby socket back the same way.  When the control socket closes
(the server process is gone) every app is stopped and the worker exits.

Each app runs exactly as in the server process (``hosted.prepare_app``): the
same hardening, the same driver, over a ``ChannelTerminal`` whose channel is
the relay.  The heap of a worker only ever holds its own sessions: a garbage
collection here pauses only them, and a recycled worker gives its memory back
by exiting (see ``workers``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import dataclasses
import functools
import gc
import importlib
import json
import logging
import os
import signal
import socket
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from textual.app import App

from .control import ControlChannel
from .driver import ChannelTerminal
from .gcpolicy import GCPolicy, GCScheduler
from .hardening import (
    clear_instance_keyed_caches,
    end_leftover_workers,
    install_stdio_guard,
    run_app_preserving_task_factory,
)
from .hosted import EXIT_FAILURE, DoorPlayer, SessionInfo, app_exit_status, prepare_app
from .painting import paint_changed_lines_only
from .relay import PipeChannel
from .sharing import share_parsed_css, use_lazy_render_caches

logger = logging.getLogger(__name__)

ConnectLobby = Callable[[], Awaitable[socket.socket]]
RemoteAppFactory = Callable[
    [SessionInfo, dict[str, Any], ConnectLobby], "App[Any] | Awaitable[App[Any]]"
]
"""``factory(info, extra, connect)``: ``extra`` is what the server side's
``describe`` said about the session; ``connect()`` opens a lobby connection."""

CONNECT_TIMEOUT = 10.0
PR_SET_PDEATHSIG = 1


@dataclass(frozen=True)
class HostSettings:
    """How a worker runs its sessions (given by the server process, as JSON)."""

    crashed: str
    """The message a player sees when their app fails."""
    stop_timeout: float
    """Seconds an app gets to exit once its player left, before it is cancelled."""
    pending_input_cap: int
    preload: tuple[str, ...] = ()
    """Modules imported at start (then frozen): not per session, never walked."""
    gc_policy: GCPolicy | None = None
    log_level: int = logging.WARNING
    log_format: str = "text"
    """The server's ``--log-format``: the workers write into the same stderr."""

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self))

    @classmethod
    def from_json(cls, text: str) -> HostSettings:
        data = json.loads(text)
        policy = data.pop("gc_policy", None)
        return cls(
            **{
                **data,
                "preload": tuple(data.get("preload", ())),
                "gc_policy": GCPolicy.from_dict(policy) if policy else None,
            }
        )


class AppHost:
    """Runs the sessions of this worker; owns their tasks."""

    def __init__(
        self,
        control: ControlChannel,
        factory: RemoteAppFactory,
        settings: HostSettings,
        gc_scheduler: GCScheduler | None,
    ) -> None:
        self._control = control
        self._factory = factory
        self._settings = settings
        self._gc_scheduler = gc_scheduler
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._stops: dict[int, Callable[[str], None]] = {}
        self._lobby_replies: dict[int, asyncio.Future[socket.socket]] = {}
        self._requests = 0
        self._done = asyncio.get_running_loop().create_future()

    async def serve(self) -> None:
        """Handle control messages until told to exit or the server process is gone."""
        self._control.start(self._message)
        self._control.send({"op": "ready", "pid": os.getpid()})
        await asyncio.wait([self._done, self._control.closed], return_when=asyncio.FIRST_COMPLETED)
        await self.stop_all()

    def exit(self) -> None:
        """Stop every app, then the process (as the ``exit`` message does)."""
        if not self._done.done():
            self._done.set_result(None)

    async def stop_all(self) -> None:
        for stop in list(self._stops.values()):
            stop("worker exiting")
        tasks = list(self._tasks.values())
        if tasks:
            _done, pending = await asyncio.wait(tasks, timeout=self._settings.stop_timeout)
            for task in pending:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    # -- control messages -----------------------------------------------------------

    def _message(self, message: dict[str, Any], fds: list[int]) -> None:
        op = message.get("op")
        if op == "ping":
            self._control.send({"op": "pong"})
        elif op == "open" and len(fds) == 1 and self._done.done():
            self._refuse(int(message["session"]), socket.socket(fileno=fds[0]))
        elif op == "open" and len(fds) == 1:
            session_id = int(message["session"])
            task = asyncio.get_running_loop().create_task(
                self._run(session_id, message, socket.socket(fileno=fds[0])),
                name=f"app-session-{session_id}",
            )
            self._tasks[session_id] = task
            task.add_done_callback(functools.partial(self._forget_task, session_id))
        elif op == "lobby":
            reply = self._lobby_replies.pop(int(message["request"]), None)
            if reply is None or reply.done():
                for fd in fds:
                    os.close(fd)
            elif len(fds) == 1:
                reply.set_result(socket.socket(fileno=fds[0]))
            else:
                reply.set_exception(ConnectionError(str(message.get("error", "no lobby"))))
        elif op == "exit":
            self.exit()
        else:
            for fd in fds:
                os.close(fd)
            logger.error("worker: unexpected control message %r", op)

    def _refuse(self, session_id: int, sock: socket.socket) -> None:
        """An ``open`` after ``exit`` (they crossed): the session ends at once, said plainly."""
        logger.warning("session %d: arrived while this worker was exiting", session_id)

        async def refuse() -> None:
            pipe = PipeChannel(lambda _reason: None)
            await asyncio.get_running_loop().create_unix_connection(lambda: pipe, sock=sock)
            pipe.write(self._settings.crashed)
            await pipe.exit(EXIT_FAILURE, self._settings.stop_timeout)

        task = asyncio.get_running_loop().create_task(refuse())
        self._tasks[-session_id] = task
        task.add_done_callback(lambda _t: self._tasks.pop(-session_id, None))

    async def _connect(self, session_id: int) -> socket.socket:
        self._requests += 1
        request = self._requests
        reply = asyncio.get_running_loop().create_future()
        self._lobby_replies[request] = reply
        self._control.send({"op": "connect", "session": session_id, "request": request})
        try:
            # Not wait_for: on Python 3.11 it returns a reply that comes in the same moment
            # as our cancellation (an app ending as its connection opens) and drops the
            # cancellation, and the app's login worker ran on after its app had exited.
            async with asyncio.timeout(CONNECT_TIMEOUT):
                return await reply
        except asyncio.CancelledError:
            if reply.done() and not reply.cancelled() and reply.exception() is None:
                reply.result().close()  # the lobby answered anyway: nobody will use it
            raise
        finally:
            self._lobby_replies.pop(request, None)

    # -- one session ----------------------------------------------------------------

    def _forget_task(self, session_id: int, _task: asyncio.Task[None]) -> None:
        self._tasks.pop(session_id, None)

    async def _run(self, session_id: int, message: dict[str, Any], sock: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        app: App[Any] | None = None
        stop_reason: list[str] = []
        watchdog: list[asyncio.TimerHandle] = []

        def stop(reason: str) -> None:
            if not stop_reason:
                stop_reason.append(reason)
                watchdog.append(
                    loop.call_later(self._settings.stop_timeout, self._cancel_stuck, session_id)
                )
            if app is not None:
                app.exit()

        self._stops[session_id] = stop
        info = _session_info(session_id, message["info"])
        pipe = PipeChannel(stop)
        await loop.create_unix_connection(lambda: pipe, sock=sock)
        terminal = ChannelTerminal(
            pipe,
            info.size,
            env=dict(info.env),
            write_buffer_cap=2**62,  # capped on the server side
            pending_input_cap=self._settings.pending_input_cap,
            on_close=stop,
        )
        pipe.terminal = terminal
        if self._gc_scheduler is not None:
            self._gc_scheduler.session_started()
        status = EXIT_FAILURE
        try:
            built = self._factory(
                info, dict(message.get("extra") or {}), lambda: self._connect(session_id)
            )
            app = await built if not isinstance(built, App) else built
            errors = prepare_app(app, terminal, info.term_type)
            if stop_reason:
                app.exit()
            await run_app_preserving_task_factory(app, mouse=True, size=terminal.size)
            await end_leftover_workers(app, self._settings.stop_timeout, f"session {session_id}")
            status = app_exit_status(
                app, errors.getvalue(), session_id, terminal, self._settings.crashed
            )
        except asyncio.CancelledError:
            pass
        except Exception:
            logger.exception("session %d: app failed", session_id)
            terminal.write(self._settings.crashed)
        finally:
            if app is not None:  # cancelled before its message loop ran, it cancelled none
                app.workers.cancel_all()
            app = None
            self._stops.pop(session_id, None)
            stop_reason.append("finished")  # no watchdog from here on
            for handle in watchdog:
                handle.cancel()
            terminal.close("session finished")
            clear_instance_keyed_caches()
            if self._gc_scheduler is not None:
                self._gc_scheduler.session_ended()
            await pipe.exit(status, self._settings.stop_timeout)

    def _cancel_stuck(self, session_id: int) -> None:
        task = self._tasks.get(session_id)
        if task is not None and not task.done():
            logger.warning("session %d: app did not exit in time; cancelling", session_id)
            task.cancel()


def _session_info(session_id: int, described: dict[str, Any]) -> SessionInfo:
    player = described["player"]

    def text(key: str) -> str | None:
        value = player.get(key)
        return None if value is None else str(value)

    return SessionInfo(
        session_id=session_id,
        player=DoorPlayer(
            door=str(player["door"]),
            identity=text("identity"),
            requested_name=text("requested_name"),
            peer=str(player.get("peer") or ""),
            login=text("login"),
        ),
        term_type=str(described.get("term_type") or "xterm"),
        size=(int(described["size"][0]), int(described["size"][1])),
        env=MappingProxyType({str(k): str(v) for k, v in (described.get("env") or {}).items()}),
    )


def load_factory(spec: str) -> RemoteAppFactory:
    """``"package.module:function"`` -> the function."""
    module_name, _, attribute = spec.partition(":")
    factory = getattr(importlib.import_module(module_name), attribute)
    if not callable(factory):
        raise TypeError(f"{spec} is not callable")
    return factory


async def run_worker(control_fd: int, factory_spec: str, settings: HostSettings) -> None:
    install_stdio_guard()
    use_lazy_render_caches()
    paint_changed_lines_only()
    share_parsed_css()
    factory = load_factory(factory_spec)
    for module in settings.preload:
        importlib.import_module(module)
    scheduler: GCScheduler | None = None
    if settings.gc_policy is not None:
        settings.gc_policy.apply()
        scheduler = GCScheduler(settings.gc_policy)
        scheduler.start()
    control = ControlChannel(socket.socket(fileno=control_fd))
    host = AppHost(control, factory, settings, scheduler)
    # Stopped as when the server says so: every app restores its player's terminal.
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, host.exit)
    try:
        await host.serve()
    finally:
        control.close()
        if scheduler is not None:
            scheduler.close()


def die_with_the_server() -> None:
    """Ask Linux to kill this process when the server process dies, even if a
    stuck app keeps this loop from noticing that its control socket closed.
    (The players' SSH connections lived in the server: there is nothing left
    to restore.)  Best effort: elsewhere the control socket's end does it."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def main(argv: list[str] | None = None) -> None:
    die_with_the_server()
    parser = argparse.ArgumentParser(prog="python -m server.termhost.worker")
    parser.add_argument("--control-fd", type=int, required=True)
    parser.add_argument("--app", required=True, help="module:function building each app")
    parser.add_argument("--settings", required=True, help="HostSettings as JSON")
    args = parser.parse_args(argv)
    settings = HostSettings.from_json(args.settings)
    from ..logformat import configure_worker_logging

    configure_worker_logging(settings.log_level, settings.log_format, f"worker {os.getpid()}")
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run_worker(args.control_fd, args.app, settings))
    gc.collect()


if __name__ == "__main__":
    main()
