"""How the host runs players' apps: limits, messages, worker processes.

Plain data with no dependency (no Textual): the command line builds these
before deciding whether anything needs the host at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..limits import Refusal

MIN_SIZE: Final = (20, 10)
"""Smallest terminal (columns, rows) an app is ever given."""
MAX_SIZE: Final = (500, 200)
"""Largest terminal (columns, rows) an app is ever given: a hostile client must
not make the server render gigantic screens."""
DEFAULT_WRITE_BUFFER_CAP: Final = 1024 * 1024
"""Bytes queued in the channel (client not reading) before the session is dropped."""
DEFAULT_PENDING_INPUT_CAP: Final = 64 * 1024
"""Characters of input buffered before the app's driver is ready; extra is dropped."""
REQUEST_COST: Final = 32
"""Characters of the input budget one request from a client costs besides what it
carries (a resize, a ping, any message): a flood of tiny requests is held back
like a flood of keys."""
INPUT_SLICE: Final = 512
"""Characters of input handed to an app at once: a longer input (a paste, a
flood) is handed on a slice per turn of the event loop, so that the other
sessions of the process are served in between."""


@dataclass(frozen=True)
class HostLimits:
    """Bounds that keep one player's terminal from hurting the server or others."""

    min_size: tuple[int, int] = MIN_SIZE
    max_size: tuple[int, int] = MAX_SIZE
    write_buffer_cap: int = DEFAULT_WRITE_BUFFER_CAP
    pending_input_cap: int = DEFAULT_PENDING_INPUT_CAP
    max_sessions: int = 600
    """Apps running at once, every door together."""
    stop_timeout: float = 5.0
    """Seconds an app gets to exit after its client left before it is cancelled."""
    idle_timeout: float | None = 30 * 60.0
    """Seconds without any input before a session is closed (None: never)."""
    input_rate: float = 8 * 1024
    """Characters of input per second, sustained; faster clients are paused."""
    input_burst: float = 32 * 1024
    resize_rate: float = 1.0
    """Window sizes applied per second, sustained, for all the sessions of one
    client address together (each is a whole new layout); the sizes in between
    are skipped, each session's last one wins."""
    resize_burst: float = 4.0
    write_deadline: float = 15.0
    """Seconds output may stay queued without a byte of it leaving before the
    client is dropped (it does not read), however little is queued."""


@dataclass(frozen=True)
class HostMessages:
    """Text shown on a player's terminal by the host (CRLF: a raw terminal)."""

    full: str = Refusal.FULL.value + "\r\n"
    idle: str = "\r\nClosed after a long time without a key press. See you soon!\r\n"
    crashed: str = "\r\nSorry, something went wrong and this session was closed.\r\n"
    shutting_down: str = (
        "\r\nThe server is shutting down: every game is saved."
        " Come back the same way once it runs again, to play on.\r\n"
    )
    """Left on the player's terminal when the server stops, after the app restored it: a
    connection that only closed ("Connection to ... closed.") said nothing of why."""


@dataclass(frozen=True)
class WorkerOptions:
    """How many worker processes run the apps, and when they are recycled."""

    processes: int = 2
    """Workers taking new sessions at any time (0: apps run in the server process)."""
    recycle_after: int = 32
    """Sessions a worker serves to their end before it is replaced."""
    start_timeout: float = 30.0
    """Seconds a new worker has to import the app and say it is ready."""
    stop_timeout: float = 10.0
    heartbeat_interval: float = 5.0
    """While players type, a worker not heard from for this long is pinged."""
    heartbeat_timeout: float = 20.0
    """A ping unanswered this long means the worker is stuck (an app in an endless
    loop): it is killed and replaced, and only its own players lose their screens.
    Pings only follow activity (a key, a new session), so an idle server sends none."""
    max_restart_delay: float = 60.0
    """Longest wait before starting a worker again after failed starts (doubling from 1 s)."""
