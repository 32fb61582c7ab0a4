"""The data directory is one server's: a lock held for the server's lifetime.

Two servers on one directory would restore the same tables, accept the same
tokens and interleave their moves in one database, so the second one refuses
to start. The lock is an ``flock`` on a file in the directory: the kernel
drops it when its holder's process ends however it ends, so a server killed
with SIGKILL never leaves a stale lock behind, and the lock file itself may
stay. The file holds the holder's process id, to say who has it.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

LOCK_NAME = "skyjo.lock"


class CannotStart(OSError):
    """The server must not start; the message says why and what to do.

    An ``OSError``, as a port already taken is: whoever starts a server (the
    ``skyjo-server`` command, the client's local game) already reports those.
    """


class DataDirInUse(CannotStart):
    """Another running server holds the data directory."""


class DataDirLock:
    """``acquire()`` before anything in the directory is read; ``release()`` after all is saved."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / LOCK_NAME
        self._fd: int | None = None

    def acquire(self) -> None:
        """Hold the directory, or raise ``DataDirInUse`` at once (never waits)."""
        if self._fd is not None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Not inherited by child processes (os.open's default), so a worker that
        # outlives a killed server cannot keep the directory locked.
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_holder(fd)
            os.close(fd)
            raise DataDirInUse(
                f"another Skyjo server{holder} is using the data directory {self.path.parent}; "
                "stop it first, or give this one another --data-dir"
            ) from None
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)  # closing drops the lock; the file stays for the next server


def _read_holder(fd: int) -> str:
    """`` (process N)`` from the lock file, or nothing if it does not say."""
    text = os.pread(fd, 32, 0).decode(errors="replace").strip()
    return f" (process {text})" if text.isdigit() else ""


__all__ = ["LOCK_NAME", "CannotStart", "DataDirInUse", "DataDirLock"]
