"""Worker processes for the players. apps, recycled like a prefork server's.

CPython's cyclic garbage collector stops the whole process for as long as it
walks every object it considers, and a Textual session holds tens of
thousands.  In one process with hundreds of sessions, freeing what finished
sessions left behind (their objects are full of reference cycles) means one
collection over every session: seconds during which nobody's screen moves
(see ``gcpolicy``).  So the apps run in worker processes instead:

* the server process keeps the connections, authentication, limits and the
  lobby; each session's terminal is relayed to a worker (``relay``) and its
  lobby connections are in-process sockets handed over to the worker, so the
  lobby trusts them exactly as before;
* each worker freezes what its sessions keep (``gcpolicy``), so its routine
  collections stay short, and it never runs the long collection that frees
  finished sessions: after ``recycle_after`` of its sessions have ended it
  takes no new ones (a fresh worker takes its place) and it exits when its
  last player leaves, giving all its memory back to the system at once;
* sessions go to the worker with the fewest, so the apps use every core.

A worker that dies takes only its own sessions (their players see the
"something went wrong" message and can reconnect to their seats); a new
worker replaces it.  So does a worker that stops answering: when a key or a
new session goes to a worker not heard from for a while, it is pinged, and
killed if it does not answer (an idle server sends nothing at all).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import socket
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, Final

from ..logformat import current_log_format
from .control import ControlChannel, control_pair
from .driver import ChannelTerminal
from .hosted import SessionInfo
from .options import WorkerOptions
from .relay import RemoteApp
from .worker import HostSettings

logger = logging.getLogger(__name__)

IMPORT_ROOT: Final = Path(__file__).resolve().parents[2]
"""The directory holding the ``server`` package (a checkout or site-packages):
a worker imports ``server.termhost.worker`` from there whatever its working directory."""
NEVER: Final = 2**31


Describe = Callable[[SessionInfo], dict[str, Any]]
"""What a worker's app factory needs to know about a session (plain data)."""
ConnectLobby = Callable[[SessionInfo], Awaitable[socket.socket]]
"""Opens one lobby connection for a session (the worker gets the socket)."""


class WorkerUnavailable(OSError):
    """No worker process could be started, or none can take a session (an
    ``OSError``, like the other reasons a server cannot start: a taken port)."""


class Worker:
    """One worker process, seen from the server process."""

    def __init__(self, pool: WorkerPool, number: int) -> None:
        self.pool = pool
        self.number = number
        self.process: asyncio.subprocess.Process | None = None
        self.control: ControlChannel | None = None
        self.pid: int | None = None
        self.sessions: dict[int, SessionInfo] = {}
        self.ended = 0
        self.retiring = False
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.exited: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._last_heard = time.monotonic()
        self._ping_check: asyncio.TimerHandle | None = None

    @property
    def accepting(self) -> bool:
        control = self.control
        return (
            self.ready.done()
            and not self.ready.exception()
            and not self.retiring
            and not self.exited.done()
            and control is not None
            and not control.closed.done()
        )

    def gone(self, code: int, reason: str) -> None:
        """The process is gone (or never started: ``code`` -1); if it never got
        ready, ``reason`` says why."""
        if not self.ready.done():
            self.ready.set_exception(WorkerUnavailable(reason))
            self.ready.exception()  # retrieved: the pool reports it
        if not self.exited.done():
            self.exited.set_result(code)

    async def start(self, settings: HostSettings) -> None:
        ours, theirs = control_pair()
        environment = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(
                p for p in (str(IMPORT_ROOT), os.environ.get("PYTHONPATH", "")) if p
            ),
        }
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "server.termhost.worker",
                "--control-fd",
                str(theirs.fileno()),
                "--app",
                self.pool.app_spec,
                "--settings",
                settings.to_json(),
                pass_fds=(theirs.fileno(),),
                stdin=asyncio.subprocess.DEVNULL,
                env=environment,
                start_new_session=True,  # the operator's Ctrl-C is for the server, which stops us
            )
        except BaseException:
            ours.close()  # a worker that did start sees its control socket close, and exits
            raise
        finally:
            theirs.close()
        self.process = process
        self.pid = process.pid
        self.control = ControlChannel(ours)
        self.control.start(self._message)
        self._spawn(self._watch())

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _watch(self) -> None:
        assert self.process is not None and self.control is not None
        exiting = asyncio.ensure_future(self.process.wait())
        closed: asyncio.Future[Any] = self.control.closed
        await asyncio.wait([closed, exiting], return_when=asyncio.FIRST_COMPLETED)
        self.control.close()
        try:  # without its control socket a worker stops by itself, unless it is stuck
            code = await asyncio.wait_for(exiting, self.pool.options.stop_timeout)
        except TimeoutError:
            logger.error("worker %d (pid %s) did not exit; killing it", self.number, self.pid)
            self.kill()
            code = await self.process.wait()
        self.gone(code, f"worker exited ({code}) before it was ready")
        self.pool._worker_exited(self, code)  # noqa: SLF001 - the module's own (the pool and its workers)

    def poke(self) -> None:
        """Something was sent that the worker should act on (a key, a session):
        if it has been quiet a while, make sure it is still alive."""
        options = self.pool.options
        if self._ping_check is not None or not self.ready.done() or self.control is None:
            return
        if time.monotonic() - self._last_heard < options.heartbeat_interval:
            return
        self.control.send({"op": "ping"})
        self._ping_check = asyncio.get_running_loop().call_later(
            options.heartbeat_timeout, self._unanswered
        )

    def _unanswered(self) -> None:
        self._ping_check = None
        if self.exited.done():
            return
        logger.error(
            "worker %d (pid %s) has not answered for %.0f s; killing it "
            "(its %d players lose their screens)",
            self.number,
            self.pid,
            self.pool.options.heartbeat_timeout,
            len(self.sessions),
        )
        self.kill()

    def _message(self, message: dict[str, Any], fds: list[int]) -> None:
        for fd in fds:  # a worker never hands us anything
            os.close(fd)
        self._last_heard = time.monotonic()
        if self._ping_check is not None:  # any message answers a ping
            self._ping_check.cancel()
            self._ping_check = None
        op = message.get("op")
        if op == "pong":
            pass
        elif op == "ready" and not self.ready.done():
            self.ready.set_result(None)
        elif op == "connect":
            self._spawn(
                self._connect(int(message.get("session", -1)), int(message.get("request", 0)))
            )
        else:
            logger.error("worker %s: unexpected message %r", self.pid, op)

    async def _connect(self, session_id: int, request: int) -> None:
        info = self.sessions.get(session_id)
        reply: dict[str, Any] = {"op": "lobby", "request": request}
        if info is None:
            assert self.control is not None
            self.control.send({**reply, "error": "no such session"})
            return
        try:
            sock = await self.pool.connect_lobby(info)
        except Exception as exc:  # noqa: BLE001 - the lobby refused or is stopping
            # A lobby out of reach (a door host's, restarting) fails every player's try
            # again and again: the door host's link says so once; a line each at INFO.
            logger.log(
                logging.INFO if isinstance(exc, OSError) else logging.WARNING,
                "worker %s: lobby connection for session %d failed: %s",
                self.pid,
                session_id,
                exc,
            )
            if self.control is not None:
                self.control.send({**reply, "error": str(exc)})
            return
        if self.control is None:
            sock.close()
            return
        self.control.send(reply, handing_over=[sock])

    def reserve(self, info: SessionInfo) -> None:
        """Count the session here from the moment it is placed (so the worker is
        neither stopped nor chosen as empty while it is being opened)."""
        self.sessions[info.session_id] = info

    async def open_session(
        self, info: SessionInfo, extra: dict[str, Any], terminal: ChannelTerminal
    ) -> RemoteApp:
        """Start the (reserved) session's app here; ``session_ended`` when it is over."""
        ours, theirs = socket.socketpair()
        try:
            _transport, remote = await asyncio.get_running_loop().create_unix_connection(
                lambda: RemoteApp(terminal, on_input=self.poke), sock=ours
            )
        except BaseException:
            ours.close()
            theirs.close()
            raise
        if self.control is None or self.control.closed.done():
            theirs.close()
            remote.close()  # the worker is gone: the session ends as a crash
            return remote
        described = {
            "player": dataclasses.asdict(info.player),
            "term_type": info.term_type,
            "size": list(info.size),
            "env": dict(info.env),
        }
        self.control.send(
            {"op": "open", "session": info.session_id, "info": described, "extra": extra},
            handing_over=[theirs],
        )
        self.poke()
        return remote

    def session_ended(self, session_id: int) -> None:
        if self.sessions.pop(session_id, None) is None:
            return
        self.ended += 1
        if not self.retiring and self.ended >= self.pool.options.recycle_after:
            logger.info("worker %s: recycled after %d sessions", self.pid, self.ended)
            self.retiring = True
            self.pool._replace(self)
        if self.retiring and not self.sessions:
            self.stop()

    def stop(self) -> None:
        """Ask the worker to stop its apps and exit."""
        if self.control is not None:
            self.control.send({"op": "exit"})

    def kill(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.kill()

    async def closed(self) -> None:
        await asyncio.shield(self.exited)
        if self._ping_check is not None:
            self._ping_check.cancel()
            self._ping_check = None
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


class WorkerPool:
    """The worker processes of a server (every door.s sessions): start, place sessions, recycle, stop."""

    def __init__(
        self,
        options: WorkerOptions,
        app_spec: str,
        *,
        describe: Describe,
        connect_lobby: ConnectLobby,
        settings: HostSettings,
    ) -> None:
        self.options = options
        self.app_spec = app_spec
        self.describe = describe
        self.connect_lobby = connect_lobby
        policy = settings.gc_policy
        if policy is not None:
            # Finished sessions are freed by recycling the worker, never by a
            # full collection (the thaw); growth of what live sessions keep
            # still is, rarely.
            policy = replace(policy, thaw_after_ended=NEVER)
        self._settings = replace(
            settings,
            gc_policy=policy,
            log_level=logging.getLogger().getEffectiveLevel(),
            log_format=current_log_format(),
        )
        self.workers: list[Worker] = []
        self._numbers = 0
        self._closing = False
        self._starting: set[asyncio.Task[Any]] = set()
        self._failed_starts = 0

    async def start(self) -> None:
        """Start the workers; raises ``WorkerUnavailable`` if they cannot start."""
        workers = [self._new_worker() for _ in range(self.options.processes)]
        await asyncio.gather(*(self._start(w) for w in workers))
        for worker in workers:
            if not worker.accepting:
                failure = worker.ready.exception() if worker.ready.done() else None
                raise WorkerUnavailable(
                    f"a worker process did not start: {failure or 'not ready in time'}"
                    " (see the log above)"
                )

    def _new_worker(self) -> Worker:
        self._numbers += 1
        worker = Worker(self, self._numbers)
        self.workers.append(worker)
        return worker

    async def _start(self, worker: Worker) -> None:
        try:
            await worker.start(self._settings)
            await asyncio.wait_for(asyncio.shield(worker.ready), self.options.start_timeout)
        except (TimeoutError, OSError, WorkerUnavailable) as exc:
            logger.error("worker %d did not start: %s", worker.number, exc)
            self._failed_starts += 1
            if worker.process is None:  # never ran: nothing will report its exit
                worker.gone(-1, str(exc))
                self._forget(worker)
            worker.kill()
            return
        self._failed_starts = 0
        logger.info("worker %d (pid %s) ready", worker.number, worker.pid)

    def _replace(self, worker: Worker) -> None:
        """Start a worker to take the place of one retiring or dead (after a
        growing delay while starts keep failing: no restart loop)."""
        if self._closing:
            return
        task = asyncio.get_running_loop().create_task(self._start_later(self._restart_delay()))
        self._starting.add(task)
        task.add_done_callback(self._starting.discard)

    def _restart_delay(self) -> float:
        if not self._failed_starts:
            return 0.0
        return min(2.0 ** (self._failed_starts - 1), self.options.max_restart_delay)

    async def _start_later(self, delay: float) -> None:
        if delay:
            logger.warning(
                "starting a worker in %.0f s (%d failed starts)", delay, self._failed_starts
            )
            await asyncio.sleep(delay)
        worker = self._new_worker()
        await self._start(worker)
        if not worker.process and not self._closing:
            self._replace(worker)

    def _forget(self, worker: Worker) -> None:
        if worker in self.workers:
            self.workers.remove(worker)

    def begin_close(self) -> None:
        """No new workers from now on (the server is stopping)."""
        self._closing = True

    def _worker_exited(self, worker: Worker, code: int) -> None:
        self._forget(worker)
        if not worker.ready.done() or worker.ready.exception() is not None:
            if not self._closing and not worker.retiring:
                worker.retiring = True
                self._replace(worker)  # a failed start: _start counted it, so with a delay
            return
        if worker.retiring or self._closing:
            logger.info("worker %d (pid %s) exited (%d)", worker.number, worker.pid, code)
            return
        logger.error(
            "worker %d (pid %s) died (%d) with %d sessions; replacing it",
            worker.number,
            worker.pid,
            code,
            len(worker.sessions),
        )
        worker.retiring = True
        self._replace(worker)

    async def _choose(self) -> Worker:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.options.start_timeout
        while not self._closing:
            accepting = [w for w in self.workers if w.accepting]
            if accepting:
                return min(accepting, key=lambda w: (len(w.sessions), w.number))
            if loop.time() >= deadline:
                break
            await asyncio.sleep(0.05)  # a replacement is starting
        raise WorkerUnavailable("no worker process is available")

    async def open(self, info: SessionInfo, terminal: ChannelTerminal) -> tuple[Worker, RemoteApp]:
        """Start ``info``'s app in a worker; its input and output go through ``terminal``."""
        worker = await self._choose()
        worker.reserve(info)
        try:
            remote = await worker.open_session(info, self.describe(info), terminal)
        except BaseException:
            worker.session_ended(info.session_id)
            raise
        return worker, remote

    async def close(self) -> None:
        """Stop every worker (their apps exit first); kill those that do not."""
        self.begin_close()
        for task in list(self._starting):
            task.cancel()
        await asyncio.gather(*self._starting, return_exceptions=True)
        workers = list(self.workers)
        for worker in workers:
            worker.stop()
        if not workers:
            return
        waits = [asyncio.ensure_future(w.closed()) for w in workers]
        _done, pending = await asyncio.wait(waits, timeout=self.options.stop_timeout)
        if pending:
            for worker in workers:
                worker.kill()
            await asyncio.wait(pending, timeout=self.options.stop_timeout)
        for wait in waits:
            wait.cancel()

    def counts(self) -> list[tuple[int | None, int, bool]]:
        """(pid, live sessions, retiring) per worker: for operators and tests."""
        return [(w.pid, len(w.sessions), w.retiring) for w in self.workers]


__all__ = ["WorkerOptions", "WorkerPool", "WorkerUnavailable"]
