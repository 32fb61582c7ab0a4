"""The garbage collector in a server where many Textual apps share one process.

CPython's cyclic collector stops the whole interpreter: a collection pauses
every session at once, for a time proportional to the objects it walks
(Textual's cost about 0.7 µs each here; a game session holds some 25,000).
A full collection with 200 sessions would freeze everyone for seconds, and
Python's own rule runs one each time the long-lived heap grows by a quarter:
over and over while players arrive, and as games go on.  The policy:

* young generations stay small (``thresholds``): routine collections walk a
  few thousand objects: milliseconds;
* the heap of imports is frozen at start (``gc.freeze()``: never walked
  again), and so is whatever survives a collection of the rest of the heap
  (``freeze_after``): a session's widgets, the lobby's tables.  Those
  collections only ever walk what was made since the last one,
  and no collection walks the sessions' long-lived objects;
* frozen objects are never collected either, and Textual apps are full of
  reference cycles: a finished app's objects (and the screens a live app has
  replaced) wait in the frozen heap.  A ``thaw`` (unfreeze, one full
  collection, freeze) frees them once ``thaw_after_ended`` sessions (or
  ``thaw_share`` of the live ones, if more) have ended, or when the frozen
  heap per live session has grown by ``thaw_growth`` since the last thaw, at
  most every ``thaw_interval`` seconds for growth alone.  A thaw pauses everyone for as
  long as one full collection by Python's rule would; it comes far less
  often, and never because players arrive;
* no collection runs while a session starts (``start_grace``): a collection
  that fell on a start delayed the player's first screen (by up to 80 ms in
  the server process at 200 players), and a start makes some 25,000 objects
  that mostly live on, which collected as they were made were walked again
  and again (gen 0, then 1, then 2).  When the grace ends, a worker collects
  once (and freezes what survived): its collections took 38 ms of CPU a
  session instead of 54 as players arrived and sat down
  (``benchmarks/gcpauses.py --sessions 60 --keys 2``).  The server process,
  which freezes nothing, lets the collector run as it would have.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class GCPolicy:
    """How the cyclic garbage collector runs in a server process with many apps."""

    thresholds: tuple[int, int, int] = (3_000, 3, 2)
    """gen0 at 3,000 new objects; gen1 every 3 of those; the unfrozen rest
    (gen2) every 2 of those. Textual's objects cost 1-2 µs each to walk
    here: at 10,000, while players arrived, a gen-0 pause reached 28 ms, a
    gen-1 112 ms and a gen-2 236 ms; at 3,000, 8, 32 and 78 ms
    (``benchmarks/gcpauses.py``)."""
    freeze_after: int = 2
    """Freeze the survivors of every collection of this generation or older.
    Freezing from gen 1 bounded the pauses further in ``gcpauses.py`` but froze
    so much soon-to-be garbage that a worker's memory per session went from 3.1
    to 4.3 MiB (``doors.py``, 200 sessions), and its pauses while players typed
    were no shorter."""
    freeze_at_start: bool = True
    thaw_after_ended: int = 16
    thaw_share: float = 0.25
    thaw_growth: float = 0.5
    thaw_interval: float = 300.0
    start_grace: float = 0.5
    """Seconds after a session starts during which the collector waits (0: never)..."""
    longest_grace: float = 1.0
    """... but never longer than this in a row, however many sessions start meanwhile:
    what waits is bounded by what a second of starts makes."""

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GCPolicy:
        """From ``dataclasses.asdict`` of one, after a trip through JSON (a worker's settings)."""
        fields = {f.name for f in dataclasses.fields(cls)}
        values = {k: v for k, v in data.items() if k in fields}
        if "thresholds" in values:
            values["thresholds"] = tuple(int(n) for n in values["thresholds"])
        return cls(**values)

    def apply(self) -> Callable[[], None]:
        """Apply process-wide; return a function that undoes it (for tests)."""
        previous = gc.get_threshold()
        if self.freeze_at_start:
            gc.collect()
            gc.freeze()
        gc.set_threshold(*self.thresholds)
        logger.info(
            "gc policy: thresholds %s, frozen %d objects", self.thresholds, gc.get_freeze_count()
        )

        def undo() -> None:
            gc.set_threshold(*previous)
            if self.freeze_at_start:
                gc.unfreeze()

        return undo


DEFAULT_GC_POLICY: Final = GCPolicy()


class GCScheduler:
    """Freezes the survivors of each full (unfrozen-heap) collection; thaws now and then.

    Owned by the session manager: ``start()`` when it starts serving,
    ``session_started()`` / ``session_ended()`` as sessions come and go,
    ``close()`` at the end.  With ``freezes=False`` (the server process when
    the apps run in workers) it only keeps collections away from starts.
    """

    def __init__(
        self,
        policy: GCPolicy,
        clock: Callable[[], float] = time.monotonic,
        *,
        freezes: bool = True,
    ) -> None:
        self.policy = policy
        self.freezes = freezes
        self.graces = 0
        """Starts' graces ended so far (a collection may run again)."""
        self._grace_since: float | None = None
        self._grace_end: asyncio.TimerHandle | None = None
        self._collector_was_enabled = True
        self.settles = 0
        self.thaws = 0
        self._clock = clock
        self.live_sessions = 0
        self._ended = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._settle_pending = False
        self._thaw_handle: asyncio.Handle | None = None
        self._frozen_at_start = gc.get_freeze_count()  # the imports
        self._frozen_per_session: float | None = None  # measured at each thaw
        self._last_thaw = clock()

    def start(self) -> None:
        """Begin freezing what survives collections, and the starts' graces (on the running
        loop)."""
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
            if self.freezes:
                gc.callbacks.append(self._after_collection)

    def session_started(self) -> None:
        self.live_sessions += 1
        self.grant_grace()

    def session_ended(self) -> None:
        """Count a finished session; thaw once enough garbage waits in the frozen heap."""
        self.live_sessions = max(self.live_sessions - 1, 0)
        if not self.freezes:
            return
        self._ended += 1
        enough = max(self.policy.thaw_after_ended, self.policy.thaw_share * self.live_sessions)
        if self._ended >= enough:
            self._schedule_thaw()

    def close(self) -> None:
        self._end_grace(collect=False)
        if self._loop is not None:
            if self.freezes:
                gc.callbacks.remove(self._after_collection)
            self._loop = None
        if self._thaw_handle is not None:
            self._thaw_handle.cancel()
            self._thaw_handle = None

    # -- no collection while a session starts -------------------------------------------

    def grant_grace(self) -> None:
        """No collection for ``start_grace`` seconds from now: a session is starting, or a
        door accepted a connection that may become one (its handshake is a start too)."""
        loop, grace = self._loop, self.policy.start_grace
        if loop is None or grace <= 0:
            return
        now = loop.time()
        if self._grace_since is None:
            self._collector_was_enabled = gc.isenabled()
            gc.disable()
            self._grace_since = now
        elif self._grace_end is not None:
            self._grace_end.cancel()
        until = min(now + grace, self._grace_since + self.policy.longest_grace)
        self._grace_end = loop.call_at(until, self._end_grace)

    def _end_grace(self, collect: bool = True) -> None:
        if self._grace_since is None:
            return
        if self._grace_end is not None:
            self._grace_end.cancel()
        self._grace_since = self._grace_end = None
        self.graces += 1
        if collect and self.freezes:
            # What the starts made, walked once; what survives is frozen (_settle).
            gc.collect(self.policy.freeze_after)
        if self._collector_was_enabled:
            gc.enable()

    # -- freezing and thawing -------------------------------------------------------------

    def _after_collection(self, phase: str, info: dict[str, int]) -> None:
        # Called by the collector itself, possibly in another thread: only
        # note it and let the loop do the rest.
        loop = self._loop
        if (
            phase != "stop"
            or info["generation"] < self.policy.freeze_after
            or loop is None
            or self._settle_pending
            or loop.is_closed()
        ):  # a scheduler never closed
            return
        self._settle_pending = True
        loop.call_soon_threadsafe(self._settle)

    def _settle(self) -> None:
        """Freeze what survived: objects that lived through a full collection."""
        self._settle_pending = False
        gc.freeze()
        self.settles += 1
        if self._grown() and self._clock() - self._last_thaw >= self.policy.thaw_interval:
            self._schedule_thaw()

    def _grown(self) -> bool:
        """Has the frozen heap per live session grown by ``thaw_growth`` since the
        last thaw?  (More players is not garbage; more per player is.)"""
        if self._frozen_per_session is None or self.live_sessions == 0:
            return False
        per_session = (gc.get_freeze_count() - self._frozen_at_start) / self.live_sessions
        return per_session > self._frozen_per_session * (1 + self.policy.thaw_growth)

    def _schedule_thaw(self) -> None:
        if self._thaw_handle is None and self._loop is not None:
            self._thaw_handle = self._loop.call_soon(self._thaw)

    def _thaw(self) -> None:
        self._thaw_handle = None
        started = time.perf_counter()
        gc.unfreeze()
        freed = gc.collect()
        gc.freeze()
        frozen = gc.get_freeze_count()
        self._ended = 0
        if self.live_sessions:
            self._frozen_per_session = max(frozen - self._frozen_at_start, 1) / self.live_sessions
        self._last_thaw = self._clock()
        self.thaws += 1
        logger.info(
            "gc thaw: %d objects freed, %d frozen, %.0f ms",
            freed,
            frozen,
            (time.perf_counter() - started) * 1000,
        )
