"""The SQLite database, run by one writer thread so the event loop never waits on it.

One writer thread owns the one connection. Callers submit small operations
(functions of a ``sqlite3.Connection``) and await their results; the thread
runs whatever is queued in a single transaction and commits once (group
commit), so many tables' actions share one fsync. With WAL and
``synchronous=FULL`` a result is only delivered after its commit is on disk:
an acknowledged action survives a SIGKILL and a power cut. Each operation runs
inside its own savepoint, so one failing operation spoils no other.

Keeping SQLite off the event loop matters: a FULL commit costs about 0.3 ms of
fsync here, which the loop would otherwise spend blocked for every action.
The queue to the thread needs no bound of its own: every caller awaits its
operation, so it never holds more than one per connection and table.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from .datadir import CannotStart

logger = logging.getLogger(__name__)

T = TypeVar("T")
Operation = Callable[[sqlite3.Connection], Any]
Migration = Callable[[sqlite3.Connection], None]
MAX_BATCH = 512


class StoreClosed(RuntimeError):
    """An operation came after ``close()`` (the server is stopping)."""


class DamagedDatabase(CannotStart):
    """The database fails SQLite's integrity check: it is not served."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(
            f"the database {path} is damaged ({problem}), so it is not served. "
            f"Stop here and keep that file for now. To start afresh, move {path.name} "
            f"(and any {path.name}-wal and {path.name}-shm beside it) out of {path.parent}; "
            "to keep what can be read, rebuild it with the sqlite3 tool first, e.g. "
            f"`sqlite3 damaged.sqlite3 .recover | sqlite3 {path.name}` in that directory; "
            "or put a backup in its place. Then start the server again."
        )
        self.path, self.problem = path, problem

    def __reduce__(self) -> tuple[Any, ...]:
        # Its arguments, not its ``args`` (the message alone): a pickled copy is made again.
        return type(self), (self.path, self.problem)


#: SQLite's own answers (``sqlite_errorname``) for a file that is damaged or not a database.
DAMAGE_ERRORS = ("SQLITE_CORRUPT", "SQLITE_NOTADB")


class Database:
    """``await db.run(operation)``: the operation's result, once committed."""

    def __init__(self, path: Path, sync: str, schema: str, migrate: Migration) -> None:
        self.path = path
        self.sync = sync
        self._schema = schema  # a script of CREATE ... IF NOT EXISTS
        self._migrate = migrate  # brings a database of an earlier version up to date
        self._queue: queue.SimpleQueue[tuple[Operation, asyncio.Future[Any]] | None] = (
            queue.SimpleQueue()
        )
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.commits = 0  # how many transactions were committed (for benchmarks)
        # Told the seconds each committed transaction took (server.metrics), in the
        # writer thread: an observer must be thread-safe and quick.
        self.write_observers: list[Callable[[float], None]] = []

    # -- lifecycle ----------------------------------------------------------------

    async def open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = self._loop.create_future()
        self._thread = threading.Thread(
            target=self._serve, args=(ready,), name="skyjo-store", daemon=True
        )
        self._thread.start()
        try:
            await ready
        except BaseException:
            if ready.cancelled():
                # We were cancelled while the thread connects: once connected, it finds
                # this and stops, closing its connection. (A failed open ended the thread.)
                self._queue.put(None)
            self._thread = None
            raise

    async def close(self) -> None:
        """Finish every queued operation, then close the database."""
        if self._thread is None:
            return
        self._queue.put(None)
        await asyncio.to_thread(self._thread.join)
        self._thread = None

    async def run(self, operation: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``operation`` in the writer thread; its result once committed."""
        if self._thread is None or self._loop is None:
            raise StoreClosed("the database is closed")
        future: asyncio.Future[T] = self._loop.create_future()
        self._queue.put((operation, future))
        return await future

    # -- the writer thread ----------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            self._check_integrity(conn)  # before anything is written to it
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute(f"PRAGMA synchronous={'FULL' if self.sync == 'full' else 'NORMAL'}")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.executescript(self._schema)
            self._migrate(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    def _check_integrity(self, conn: sqlite3.Connection) -> None:
        """Raise ``DamagedDatabase`` unless SQLite's quick check finds every page sound.

        ``quick_check`` reads every page of every table and index (the part of
        ``integrity_check`` that does not compare indexes with their tables),
        once per start; a file whose header is not SQLite's fails it too.
        """
        try:
            problems = [row[0] for row in conn.execute("PRAGMA quick_check(5)")]
        except sqlite3.DatabaseError as exc:
            if getattr(exc, "sqlite_errorname", "").startswith(DAMAGE_ERRORS):
                raise DamagedDatabase(self.path, str(exc)) from exc
            raise
        if problems != ["ok"]:
            raise DamagedDatabase(self.path, " ".join("; ".join(problems).split()))

    def _serve(self, ready: asyncio.Future[None]) -> None:
        assert self._loop is not None
        try:
            conn = self._connect()
        except Exception as exc:  # noqa: BLE001 - surfaced to open()'s caller
            self._tell(ready, None, exc)
            return
        if not self._tell(ready, None, None):
            conn.close()  # nobody is left to use it: the loop that opened it has closed
            return
        try:
            while self._serve_batch(conn):
                pass
        finally:
            conn.close()

    def _serve_batch(self, conn: sqlite3.Connection) -> bool:
        """Run one batch in one transaction; False once asked to stop."""
        batch, stop = self._take_batch()
        if batch:
            outcomes = self._run_batch(conn, batch)
            for (_, future), (result, error) in zip(batch, outcomes, strict=True):
                self._tell(future, result, error)
        return not stop

    def _tell(self, future: asyncio.Future[Any], result: Any, error: BaseException | None) -> bool:
        """Settle ``future`` in its loop; False when that loop has closed."""
        assert self._loop is not None
        try:
            self._loop.call_soon_threadsafe(_settle, future, result, error)
        except RuntimeError:  # the event loop is closed: its awaiters are gone
            return False
        return True

    def _take_batch(self) -> tuple[list[tuple[Operation, asyncio.Future[Any]]], bool]:
        item = self._queue.get()
        if item is None:
            return [], True
        batch = [item]
        while len(batch) < MAX_BATCH:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if item is None:
                self._queue.put(None)  # stop after this batch
                break
            batch.append(item)
        return batch, False

    def _run_batch(
        self, conn: sqlite3.Connection, batch: list[tuple[Operation, asyncio.Future[Any]]]
    ) -> list[tuple[Any, BaseException | None]]:
        outcomes: list[tuple[Any, BaseException | None]] = []
        began = time.perf_counter()
        try:
            conn.execute("BEGIN IMMEDIATE")
            for operation, _ in batch:
                outcomes.append(_in_savepoint(conn, operation))
            conn.execute("COMMIT")
            self.commits += 1
        except sqlite3.Error as exc:  # the commit itself failed: nothing is stored
            logger.exception("database commit failed")
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            return [(None, exc)] * len(batch)
        took = time.perf_counter() - began
        for observer in self.write_observers:
            observer(took)
        return outcomes


# -- helpers run in the writer thread ---------------------------------------------------


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


def _in_savepoint(conn: sqlite3.Connection, operation: Operation) -> tuple[Any, Exception | None]:
    conn.execute("SAVEPOINT op")
    try:
        result = operation(conn)
    except Exception as exc:  # noqa: BLE001 - handed to the caller; the other operations go on
        conn.execute("ROLLBACK TO op")
        conn.execute("RELEASE op")
        return None, exc
    conn.execute("RELEASE op")
    return result, None
