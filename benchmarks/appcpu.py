"""CPU time of the players' apps themselves: per session start and per key.

    python benchmarks/appcpu.py [--sessions N] [--keys K] [--profile start|key] [--top N]

The doors' latencies at 200 sessions are mostly CPU: a worker runs every
player's Textual app, and each start and each key costs CPU time there.  On
a shared machine wall-clock figures measure the neighbours too; CPU time of
one process does not.  This runs, in this one process, a real lobby
(``SkyjoServer``, fresh data directory) and N hosted sessions exactly as a
worker runs them (``SessionHost``: the same hardening, shared CSS, lazy caches,
``TerminalDriver`` and garbage-collector policy), each on an in-memory terminal that answers the
"synchronized update" query as the benchmarks' players do.  Sessions arrive
one after another; each is timed from ``SessionHost.open`` to the end of the
frame showing the lobby, then goes to a table against a bot (as in
``doors.py``).  Then every session presses ``--keys`` keys (right/left: the
card cursor) one at a time, each timed to the end of its frame.

Reported: ``time.process_time()`` per session start (the lobby drawn) and per
key (the key's frame), p50/p90/max and the mean, the lobby server's share
included (small: one connection and a few messages).  What this leaves out:
the server process's part of a key (the SSH or WebSocket door, encryption,
the relay to the worker), which ``doors.py`` reports beside it.

``--profile start`` or ``--profile key`` runs cProfile over that phase and
prints the ``--top`` functions by cumulative and by own time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import io
import pstats
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from doors import ARROWS, LOBBY_TEXT, SIZE, TO_THE_TABLE, Screen

from server.app import SkyjoServer
from server.config import ServerConfig
from server.doors.game import in_process_app_factory, skyjo_app_factory
from server.termhost import DoorPlayer, HostLimits, SessionHost, SessionStart
from server.termhost.gcpolicy import DEFAULT_GC_POLICY, GCScheduler
from server.termhost.hosted import HostedSession


class MemoryTransport:
    """A terminal in memory: output goes to a ``Screen``, which answers the
    synchronized-update query back into the session."""

    def __init__(self) -> None:
        self.session: HostedSession | None = None
        self.screen = Screen(self._answer)
        self.ended: int | None = None

    def _answer(self, data: bytes) -> None:
        asyncio.get_running_loop().call_soon(self._feed, data)

    def _feed(self, data: bytes) -> None:
        if self.session is not None:
            self.session.feed(data)

    def write(self, data: bytes) -> None:
        self.screen.feed(data, time.perf_counter())

    def get_write_buffer_size(self) -> int:
        return 0

    def is_closing(self) -> bool:
        return self.ended is not None

    def abort(self) -> None:
        self.end(1)

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def end(self, status: int) -> None:
        if self.ended is None:
            self.ended = status
            self.screen.lost()


class Profile:
    """cProfile over the phases asked for (``--profile``), accumulated."""

    def __init__(self, phase: str | None) -> None:
        self.phase = phase
        self.profiler = cProfile.Profile(time.process_time) if phase else None

    @contextlib.contextmanager
    def during(self, phase: str) -> Any:
        if self.profiler is None or phase != self.phase:
            yield
            return
        self.profiler.enable()
        try:
            yield
        finally:
            self.profiler.disable()

    def print(self, top: int, callers: list[str]) -> None:
        if self.profiler is None:
            return
        for name in callers:
            out = io.StringIO()
            pstats.Stats(self.profiler, stream=out).sort_stats("cumulative").print_callers(name)
            print(f"\n== {self.phase}: callers of {name} ==")
            print(out.getvalue())
        for order in ("cumulative", "tottime"):
            out = io.StringIO()
            pstats.Stats(self.profiler, stream=out).sort_stats(order).print_stats(top)
            print(f"\n== {self.phase}: by {order} ==")
            print(out.getvalue())


async def settle(screen: Screen) -> None:
    """Until the screen has been still for a while (timers of the last frame done)."""
    await screen.still()
    await asyncio.sleep(0.02)
    await screen.still()


async def run(args: argparse.Namespace) -> None:
    profile = Profile(args.profile)
    with tempfile.TemporaryDirectory(prefix="skyjo-appcpu-") as data_dir:
        server = SkyjoServer(ServerConfig(host="127.0.0.1", port=0, data_dir=Path(data_dir)))
        await server.start()
        host = SessionHost(
            in_process_app_factory(server, skyjo_app_factory),
            limits=HostLimits(max_sessions=args.sessions + 1, idle_timeout=None),
        )
        policy = getattr(args, "gc_policy", DEFAULT_GC_POLICY)
        policy.apply()  # as in a worker: imports frozen, small young generations
        host.start_gc(GCScheduler(policy))
        sessions: list[tuple[HostedSession, MemoryTransport]] = []
        starts: list[float] = []
        keys: list[float] = []
        try:
            for index in range(args.sessions + 1):  # the first is a warm-up
                transport = MemoryTransport()
                screen = transport.screen
                player = DoorPlayer("ssh", f"bench:{index}", f"p{index}", "127.0.0.1", f"p{index}")
                with profile.during("start" if index else "warm-up"):
                    cpu = time.process_time()
                    session = host.open(transport, SessionStart(player, size=SIZE))
                    assert session is not None
                    transport.session = session
                    await screen.frame(0, LOBBY_TEXT)
                    spent = time.process_time() - cpu
                if index:
                    starts.append(spent)
                sessions.append((session, transport))
                for key, text in TO_THE_TABLE:
                    await settle(screen)
                    screen.mark()
                    session.feed(key)
                    await screen.frame(screen.frames, text)
            for _session, transport in sessions:
                await settle(transport.screen)
            await asyncio.sleep(1.0)  # the bots' first flips
            for round_number in range(args.keys):
                for session, transport in sessions[1:]:
                    screen = transport.screen
                    await settle(screen)
                    with profile.during("key"):
                        cpu = time.process_time()
                        before = screen.frames
                        session.feed(ARROWS[round_number % 2])
                        await screen.frame(before)
                        keys.append(time.process_time() - cpu)
        finally:
            await host.close()
            await server.stop()
    print(
        f"{args.sessions} sessions in one process (apps as a worker runs them), 80x24, "
        f"{args.keys} keys each; CPU time (time.process_time)"
    )
    print(f"CPU per session start (to the lobby drawn): {describe(starts)}")
    print(f"CPU per key (to the end of its frame): {describe(keys)}")
    profile.print(args.top, args.callers)


def describe(values: list[float]) -> str:
    if not values:
        return "no samples"
    ordered = sorted(values)

    def at(fraction: float) -> float:
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] * 1000

    return (
        f"mean {statistics.fmean(values) * 1000:.2f} ms, p50 {at(0.5):.2f}, p90 {at(0.9):.2f}, "
        f"max {ordered[-1] * 1000:.2f} (n={len(values)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--keys", type=int, default=10, help="keys each session presses")
    parser.add_argument("--profile", choices=("start", "key"), default=None)
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument(
        "--callers", action="append", default=[], help="also print who calls this (a regex)"
    )
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
