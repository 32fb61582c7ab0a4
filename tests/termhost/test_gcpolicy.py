"""The GC policy: survivors of collections are frozen; thaws free what died."""

from __future__ import annotations

import asyncio
import gc
import weakref

import pytest

from server.termhost.gcpolicy import GCPolicy, GCScheduler

from ..ssh.sshkit import poll_until


class Node:
    """A reference cycle: only the cyclic collector can free it."""

    def __init__(self) -> None:
        self.me = self


class Clock:
    now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def frozen_heap():
    """Leave the test process's collector as it was."""
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


async def test_long_lived_objects_are_frozen_and_freed_after_departures(frozen_heap: None) -> None:
    # No start grace: its end collects (and settles) again half a second after the starts,
    # which a loaded machine reaches before the first settle is looked at.
    scheduler = GCScheduler(GCPolicy(thaw_after_ended=3, thaw_share=0.5, start_grace=0.0))
    scheduler.start()
    try:
        for _ in range(15):
            scheduler.session_started()
        node = Node()
        ref = weakref.ref(node)
        gc.collect()  # it survives a collection (of the unfrozen heap): frozen
        await poll_until(lambda: scheduler.settles >= 1, "the settle")
        assert gc.get_freeze_count() > 0

        del node  # a finished session's garbage
        gc.collect()
        assert ref() is not None  # frozen objects are never walked: no pause for them

        for _ in range(4):  # fewer than max(3, half of the 11 left)
            scheduler.session_ended()
        await poll_until(lambda: scheduler.settles >= 2, "the loop")
        assert scheduler.thaws == 0
        scheduler.session_ended()
        await poll_until(lambda: scheduler.thaws == 1, "the thaw")
        assert ref() is None  # one full collection freed it
    finally:
        scheduler.close()


async def test_more_frozen_heap_per_player_is_thawed_now_and_then(frozen_heap: None) -> None:
    gc.collect()
    gc.freeze()  # everything so far is "the imports"
    clock = Clock()
    scheduler = GCScheduler(GCPolicy(thaw_after_ended=1, thaw_interval=60.0), clock=clock)
    scheduler.start()
    try:
        players_things = [[index] for index in range(20_000)]  # 10,000 per player
        for _ in range(3):
            scheduler.session_started()
        scheduler.session_ended()  # a thaw: the frozen heap per player is measured
        await poll_until(lambda: scheduler.thaws == 1, "the first thaw")

        for _ in range(2):  # more players: more frozen heap, but not per player
            scheduler.session_started()
        gc.collect()
        await poll_until(lambda: scheduler.settles >= 1, "a settle")
        clock.now = 61.0
        gc.collect()
        await poll_until(lambda: scheduler.settles >= 2, "another settle")
        assert scheduler.thaws == 1

        kept = [[index] for index in range(300_000)]  # much more per player (garbage-to-be)
        gc.collect()
        await poll_until(lambda: scheduler.thaws == 2, "the thaw for growth")
        assert len(kept) == 300_000 and len(players_things) == 20_000
    finally:
        scheduler.close()


async def test_closing_the_sessions_hands_the_heap_back(frozen_heap: None) -> None:
    """No thaw while everyone leaves at once: the frozen heap goes back to the collector."""
    from server.termhost import SessionHost

    manager = SessionHost(lambda info: None)
    scheduler = GCScheduler(GCPolicy())
    scheduler.start()
    manager.gc_scheduler = scheduler
    gc.collect()
    await poll_until(lambda: scheduler.settles >= 1, "a settle")
    assert gc.get_freeze_count() > 0
    callbacks = len(gc.callbacks)
    await manager.close()
    assert gc.get_freeze_count() == 0 and len(gc.callbacks) == callbacks - 1
    assert manager.gc_scheduler is None


class Collections:
    """The generation of each collection that runs (a ``gc.callbacks`` entry)."""

    def __init__(self) -> None:
        self.generations: list[int] = []

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "stop":
            self.generations.append(info["generation"])

    def __enter__(self) -> Collections:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)


def make_cycles(count: int) -> None:
    """Far more new tracked objects than a young generation holds: a collection is due."""
    for _ in range(count):
        Node()


async def test_no_collection_runs_while_a_session_starts_then_one_does(frozen_heap: None) -> None:
    gc.set_threshold(700, 10, 10)
    scheduler = GCScheduler(GCPolicy(start_grace=0.3))
    scheduler.start()
    try:
        with Collections() as collections:
            scheduler.session_started()
            make_cycles(20_000)  # a session's start makes many objects
            assert collections.generations == [] and not gc.isenabled()
            frozen = gc.get_freeze_count()
            await poll_until(lambda: scheduler.graces == 1, "the end of the grace")
            assert gc.isenabled()
            assert collections.generations[:1] == [2]  # what the start made, walked once
            # At least one: the collector, on again, may have run a full collection too.
            await poll_until(lambda: scheduler.settles >= 1, "the settle")
            assert gc.get_freeze_count() > frozen  # and what survived it is frozen
    finally:
        scheduler.close()


async def test_sessions_starting_one_after_another_still_let_the_collector_run(
    frozen_heap: None,
) -> None:
    scheduler = GCScheduler(GCPolicy(start_grace=0.2, longest_grace=0.4))
    scheduler.start()
    loop = asyncio.get_running_loop()
    try:
        began = loop.time()
        for _ in range(100):  # a new session every 50 ms, each asking for 200 ms
            scheduler.session_started()
            if scheduler.graces or loop.time() - began > 5.0:
                break
            await asyncio.sleep(0.05)
        assert scheduler.graces >= 1, "the collector stayed off as long as sessions came"
    finally:
        scheduler.close()
    assert gc.isenabled()


async def test_the_server_process_only_waits_while_a_session_starts(frozen_heap: None) -> None:
    """With the apps in workers: no freezing, no thaw, the collector on after a start."""
    scheduler = GCScheduler(GCPolicy(start_grace=0.1, thaw_after_ended=1), freezes=False)
    scheduler.start()
    try:
        frozen = gc.get_freeze_count()
        gc.set_threshold(700, 10, 10)
        with Collections() as collections:
            scheduler.session_started()
            make_cycles(20_000)
            assert collections.generations == [] and not gc.isenabled()
            await poll_until(lambda: scheduler.graces == 1, "the end of the grace")
            assert gc.isenabled()  # the collector's own rule again
            gc.collect()
            scheduler.session_ended()
            await asyncio.sleep(0.05)
        assert gc.get_freeze_count() == frozen
        assert scheduler.settles == 0 and scheduler.thaws == 0
    finally:
        scheduler.close()


async def test_a_collector_turned_off_by_someone_else_stays_off(frozen_heap: None) -> None:
    scheduler = GCScheduler(GCPolicy(start_grace=5.0))
    scheduler.start()
    gc.disable()
    try:
        scheduler.session_started()
        scheduler.close()  # the server stops during the grace
        assert not gc.isenabled()
    finally:
        gc.enable()


async def test_stopping_during_a_grace_turns_the_collector_back_on(frozen_heap: None) -> None:
    scheduler = GCScheduler(GCPolicy(start_grace=5.0))
    scheduler.start()
    scheduler.session_started()
    assert not gc.isenabled()
    scheduler.close()
    assert gc.isenabled()
