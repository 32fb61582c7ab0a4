"""A store whose opening is abandoned (the app quit while it opened) ends cleanly.

Seen in a CI run: a client test quit while its store was still opening; the event loop
closed, and the store's writer thread then died on ``Event loop is closed`` with its
SQLite connection left open.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

from server.database import Database

SCHEMA = "CREATE TABLE IF NOT EXISTS notes (text TEXT);"


def _slow_migration(
    started: threading.Event, release: threading.Event
) -> Callable[[sqlite3.Connection], None]:
    def migrate(conn: sqlite3.Connection) -> None:
        started.set()
        release.wait(10)  # bounded: the test releases it at once

    return migrate


def test_an_opening_abandoned_with_its_loop_ends_the_writer_without_an_error(
    tmp_path: Path,
) -> None:
    started, release = threading.Event(), threading.Event()
    store = Database(tmp_path / "skyjo.db", "normal", SCHEMA, _slow_migration(started, release))
    errors: list[BaseException | None] = []
    hook = threading.excepthook
    threading.excepthook = lambda args: errors.append(args.exc_value)
    try:

        async def abandon() -> threading.Thread:
            opening = asyncio.create_task(store.open())
            await asyncio.to_thread(started.wait, 10)
            thread = store._thread  # noqa: SLF001 - the test looks inside
            assert thread is not None
            opening.cancel()  # the app quits while the store is still opening
            with contextlib.suppress(asyncio.CancelledError):
                await opening
            return thread

        thread = asyncio.run(abandon())  # the loop is closed when this returns
        release.set()
        thread.join(10)
        assert not thread.is_alive()
    finally:
        threading.excepthook = hook
    assert errors == []
    # The connection was closed: the file can be opened and written without waiting.
    conn = sqlite3.connect(tmp_path / "skyjo.db", timeout=0)
    conn.execute("INSERT INTO notes VALUES ('after')")
    conn.commit()
    conn.close()


def test_an_opening_cancelled_while_the_loop_runs_on_closes_its_connection(
    tmp_path: Path,
) -> None:
    started, release = threading.Event(), threading.Event()
    store = Database(tmp_path / "skyjo.db", "normal", SCHEMA, _slow_migration(started, release))

    async def cancel_and_wait() -> bool:
        opening = asyncio.create_task(store.open())
        await asyncio.to_thread(started.wait, 10)
        thread = store._thread  # noqa: SLF001 - the test looks inside
        assert thread is not None
        opening.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await opening
        release.set()
        await asyncio.to_thread(thread.join, 10)
        return thread.is_alive()

    assert asyncio.run(cancel_and_wait()) is False
    conn = sqlite3.connect(tmp_path / "skyjo.db", timeout=0)
    conn.execute("INSERT INTO notes VALUES ('after')")
    conn.commit()
    conn.close()
