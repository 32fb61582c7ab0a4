"""The GC policy: survivors of collections are frozen; thaws free what died."""

from __future__ import annotations

import gc
import weakref

import pytest

from server.ssh import GCPolicy, GCScheduler

from .sshkit import poll_until


class Node:
    """A reference cycle: only the cyclic collector can free it."""

    def __init__(self) -> None:
        self.me = self


class Clock:
    now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def frozen_heap():  # type: ignore[no-untyped-def]
    """Leave the test process's collector as it was."""
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


async def test_long_lived_objects_are_frozen_and_freed_after_departures(frozen_heap: None) -> None:
    scheduler = GCScheduler(GCPolicy(thaw_after_ended=3, thaw_share=0.5))
    scheduler.start()
    try:
        node = Node()
        ref = weakref.ref(node)
        gc.collect()  # it survives a collection (of the unfrozen heap): frozen
        await poll_until(lambda: scheduler.settles == 1, "the settle")
        frozen = gc.get_freeze_count()
        assert frozen > 0

        del node  # a finished session's garbage
        gc.collect()
        assert ref() is not None  # frozen objects are never walked: no pause for them

        for _ in range(4):  # fewer than max(3, half of the 10 live sessions)
            scheduler.session_ended(live_sessions=10)
        await poll_until(lambda: scheduler.settles >= 1, "the loop", timeout=0.2)
        assert scheduler.thaws == 0
        scheduler.session_ended(live_sessions=10)
        await poll_until(lambda: scheduler.thaws == 1, "the thaw")
        assert ref() is None  # one full collection freed it
    finally:
        scheduler.close()


async def test_a_frozen_heap_that_keeps_growing_is_thawed_now_and_then(frozen_heap: None) -> None:
    gc.unfreeze()
    clock = Clock()
    scheduler = GCScheduler(GCPolicy(thaw_growth=0.5, thaw_interval=60.0), clock=clock)
    scheduler.start()
    try:
        gc.collect()  # the whole heap survives: the frozen heap grows from nothing
        await poll_until(lambda: scheduler.settles >= 1, "the settle")
        assert scheduler.thaws == 0  # grown, but there was a thaw a moment ago
        clock.now = 61.0
        gc.collect()
        await poll_until(lambda: scheduler.thaws == 1, "the thaw")
    finally:
        scheduler.close()
