"""How many files (connections included) the server may hold open, and so how many players.

Every connection is a file descriptor.  Services often start with a soft
limit of 1,024 and a much higher hard one: the server raises its soft limit
to the hard one at start (``raise_open_files_limit``) and says in the log how
many players that leaves room for (``players_within``).  The systemd unit
(``contrib/skyjo-server.service``) sets ``LimitNOFILE`` for the hard one.
"""

from __future__ import annotations

from typing import Final

DESCRIPTORS_PER_PLAYER: Final = 3
"""A browser or SSH player: their connection, and both ends of their screen's
connection to the lobby (a TCP player needs only the first)."""
RESERVED: Final = 64
"""For the database, the logs, the listening sockets and the worker processes."""
UNLIMITED_AS: Final = 1 << 20
"""The soft limit asked for when the hard one is "unlimited" (Linux caps it there)."""


def raise_open_files_limit() -> int | None:
    """Raise the soft ``RLIMIT_NOFILE`` to the hard one; the soft limit now
    (None: this system has no such limit, e.g. Windows)."""
    try:
        import resource
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = UNLIMITED_AS if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass  # kept as it was: the log says what it allows
    return soft


def players_within(limit: int, reserved: int) -> int:
    """Browser or SSH players that ``limit`` open files hold at once, ``reserved``
    kept for everything else."""
    return max(0, (limit - reserved) // DESCRIPTORS_PER_PLAYER)


__all__ = ["DESCRIPTORS_PER_PLAYER", "RESERVED", "players_within", "raise_open_files_limit"]
