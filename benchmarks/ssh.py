"""The SSH front door under load: N players at 80x24, each pressing keys.

    python benchmarks/ssh.py [--sessions N] [--keys K] [--gap S] [--wave W] [--idle S]
                             [--workers N] [--recycle-after N] [--gc T0,T1,T2]

A child process runs the real server (lobby + SSH front door, the real
Textual client per session, in ``--workers`` worker processes as
``skyjo-server`` runs it, or in the server process with ``--workers 0``) on
127.0.0.1; this process runs N asyncssh
clients, each with its own key, a PTY at 80x24 and its own name.  Players
arrive ``--wave`` at a time; each logs in, creates a table, adds a bot and
starts the game, then sits at it.

Reported:
- memory per session: the RSS of the server and its workers with everyone
  playing, minus the same after one warm-up session came and went, divided
  by N (as the OS sees it; with ``--workers 0`` also after a full collection
  and ``malloc_trim``);
- SSH handshake, connect to first frame (the client's connecting screen) and
  connect to the lobby on screen;
- key to frame: from a key press (the card cursor, a small change) to the
  first output it causes, every player pressing a key every ``--gap``
  seconds on average (uniformly 0.5x to 1.5x: a card game's pace); and the
  server's CPU per key;
- idle CPU: the server's CPU over ``--idle`` seconds, everyone seated, nobody typing;
- key to frame while a third of the players leave (the others go on typing):
  where freeing the leavers' memory would pause everyone;
- the garbage collector of the server process: collections and their longest
  pause per generation, as players arrive, type and leave.

Targets (issue 5): 200 sessions at <= 5 MiB each, first frame median < 150 ms,
key to frame p50 < 10 ms and p99 < 50 ms, no CPU when idle.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import gc
import json
import logging
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import asyncssh

READY_TEXT = "Lobby · "
"""Text on the lobby screen: the first frame is complete when it appears."""
ARROWS = (b"\x1b[C", b"\x1b[D")
"""Right, left: the card cursor on the table, a small change of the screen."""
TO_THE_TABLE = (
    (b"n", "New table"),
    (b"\x13", "You are the host"),  # ctrl+s: create it with the default rules
    (b"b", "bot"),  # add a bot
    (b"s", "Turn up a card"),  # start: the game is on
)
"""Keys from the lobby to a game against a bot, each with the text it brings up."""
TIMEOUT = 60.0
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b.")
PAGE = 4096


# --------------------------------------------------------------------------
# the server process
# --------------------------------------------------------------------------


class GCWatch:
    """Counts collections and their pauses per generation (gc.callbacks)."""

    def __init__(self) -> None:
        self.pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self._started = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.pauses[info["generation"]].append(time.perf_counter() - self._started)

    def report(self) -> dict[str, Any]:
        pauses, self.pauses = self.pauses, {0: [], 1: [], 2: []}
        return {
            str(gen): [len(p), max(p, default=0.0) * 1000, sum(p) * 1000]
            for gen, p in pauses.items()
        }


async def serve(data_dir: Path, capacity: int, gc_thresholds: str, workers: int,
                recycle_after: int) -> None:
    """Run lobby + front door; answer "stats" lines on stdin with JSON."""
    from server.app import SkyjoServer
    from server.config import Limits, ServerConfig
    from server.ssh.frontdoor import SSHOptions, start_ssh_front_door
    from server.ssh.options import SSHLimits
    from server.termhost import HostLimits
    from server.termhost.gcpolicy import GCPolicy
    from server.termhost.options import WorkerOptions

    if os.environ.get("SKYJO_BENCH_LOG"):
        logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
        logging.getLogger("server.termhost.gcpolicy").setLevel(logging.DEBUG)
    limits = Limits(max_connections=capacity * 2, max_connections_per_address=capacity * 2)
    server = SkyjoServer(ServerConfig(host="127.0.0.1", port=0, data_dir=data_dir, limits=limits))
    await server.start()
    options = SSHOptions(port=0, limits=HostLimits(max_sessions=capacity),
                         connection_limits=SSHLimits(max_connections=capacity,
                                                     max_connections_per_address=capacity),
                         workers=WorkerOptions(processes=workers, recycle_after=recycle_after))
    if gc_thresholds:
        a, b, c = (int(n) for n in gc_thresholds.split(","))
        options = replace(options, gc_policy=GCPolicy(thresholds=(a, b, c)))
    door = await start_ssh_front_door(server, options)
    assert door is not None
    watch = GCWatch()
    print(json.dumps({"port": door.port, "pid": os.getpid()}), flush=True)
    loop = asyncio.get_running_loop()
    try:
        while line := await loop.run_in_executor(None, sys.stdin.readline):
            if line.strip() == "stats":
                print(json.dumps({"gc": watch.report()}), flush=True)
            elif line.strip() == "trim":  # what the sessions really hold
                frozen = gc.get_freeze_count()
                gc.unfreeze()  # the policy's frozen heap holds garbage until a thaw
                gc.collect()
                if frozen:
                    gc.freeze()
                ctypes.CDLL("libc.so.6").malloc_trim(0)
                print(json.dumps({"trimmed": True}), flush=True)
    finally:
        await door.close()
        await server.stop()


# --------------------------------------------------------------------------
# measuring the server from outside
# --------------------------------------------------------------------------


def process_tree(pid: int) -> list[int]:
    """``pid`` and its children (the worker processes)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as file:
            return [pid, *(int(child) for child in file.read().split())]
    except OSError:
        return [pid]


def rss_bytes(pid: int) -> int:
    """Resident memory of the server and its workers."""
    total = 0
    for member in process_tree(pid):
        with contextlib.suppress(OSError), open(f"/proc/{member}/statm") as file:
            total += int(file.read().split()[1]) * PAGE
    return total


def cpu_seconds(pid: int) -> float:
    """CPU time of the server and its workers, finished workers included."""
    ticks = 0
    for member in process_tree(pid):
        with contextlib.suppress(OSError), open(f"/proc/{member}/stat") as file:
            fields = file.read().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])
            if member == pid:
                ticks += int(fields[13]) + int(fields[14])  # children waited for
    return ticks / os.sysconf("SC_CLK_TCK")


@dataclass
class ServerProcess:
    proc: asyncio.subprocess.Process
    port: int
    pid: int

    async def ask(self, command: str) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(command.encode() + b"\n")
        await self.proc.stdin.drain()
        return json.loads(await asyncio.wait_for(self.proc.stdout.readline(), TIMEOUT))


@contextlib.asynccontextmanager
async def server_process(capacity: int, gc_thresholds: str, workers: int,
                         recycle_after: int) -> AsyncIterator[ServerProcess]:
    with tempfile.TemporaryDirectory(prefix="skyjo-ssh-bench-") as data_dir:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--serve", data_dir, "--sessions", str(capacity),
            "--gc", gc_thresholds, "--workers", str(workers),
            "--recycle-after", str(recycle_after),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        )
        try:
            assert proc.stdout is not None
            hello = json.loads(await asyncio.wait_for(proc.stdout.readline(), TIMEOUT))
            yield ServerProcess(proc, hello["port"], hello["pid"])
        finally:
            if proc.stdin is not None:
                proc.stdin.close()
            try:
                await asyncio.wait_for(proc.wait(), TIMEOUT)
            except TimeoutError:
                proc.kill()
                await proc.wait()


# --------------------------------------------------------------------------
# the players
# --------------------------------------------------------------------------


@dataclass
class Player:
    name: str
    key: asyncssh.SSHKey
    conn: asyncssh.SSHClientConnection | None = None
    proc: Any = None
    output: str = ""
    handshake: float = 0.0
    first_output: float = 0.0
    first_frame: float = 0.0
    key_to_frame: list[float] = field(default_factory=list)

    async def connect(self, port: int) -> None:
        started = time.perf_counter()
        self.conn = await asyncssh.connect(
            "127.0.0.1", port, username=self.name, client_keys=[self.key],
            known_hosts=None, agent_path=None, config=None,
        )
        self.handshake = time.perf_counter() - started
        self.proc = await self.conn.create_process(
            term_type="xterm-256color", term_size=(80, 24), encoding=None
        )
        await self._read_until("")
        self.first_output = time.perf_counter() - started
        await self._read_until(READY_TEXT)
        self.first_frame = time.perf_counter() - started

    async def _read_until(self, needle: str) -> None:
        async with asyncio.timeout(TIMEOUT):
            while needle not in self.output or not self.output:
                chunk = await self.proc.stdout.read(65536)
                if not chunk:
                    raise ConnectionError(f"{self.name}: session ended")
                self.output += strip_ansi(chunk.decode("utf-8", "replace"))

    async def sit_down(self) -> None:
        """From the lobby to a game against a bot."""
        for key, text in TO_THE_TABLE:
            self.output = ""
            self.proc.stdin.write(key)
            await self._read_until(text)

    async def press_keys(self, count: int, gap: float, rng: random.Random,
                         keep: bool = True) -> list[float]:
        """Press ``count`` keys ``gap`` seconds apart on average; time each to its frame
        (kept in ``key_to_frame`` unless ``keep`` is False)."""
        times: list[float] = []
        for index in range(count):
            await asyncio.sleep(rng.uniform(gap / 2, gap * 1.5))
            await self.drain()
            started = time.perf_counter()
            self.proc.stdin.write(ARROWS[index % 2])
            await asyncio.wait_for(self.proc.stdout.read(65536), TIMEOUT)
            times.append(time.perf_counter() - started)
        if keep:
            self.key_to_frame += times
        return times

    async def drain(self) -> None:
        """Consume output already waiting (so it is not taken for the next frame)."""
        while True:
            try:
                chunk = await asyncio.wait_for(self.proc.stdout.read(65536), 0.001)
            except TimeoutError:
                return
            if not chunk:
                raise ConnectionError(f"{self.name}: session ended")

    async def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.conn.wait_closed(), TIMEOUT)


def strip_ansi(text: str) -> str:
    return ANSI.sub("", text)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


@dataclass
class Figures:
    """What one run measured (server side)."""

    rss_before: int = 0
    rss_playing: int = 0
    rss_collected: int = 0
    rss_left: int = 0
    idle_cpu: float = 0.0
    typing_cpu: float = 0.0
    typing_time: float = 0.0
    while_leaving: list[float] = field(default_factory=list)
    """Key to frame of the players who stay, while the others leave."""
    gc: dict[str, Any] = field(default_factory=dict)


async def arrive(server: ServerProcess, players: list[Player], wave: int) -> None:
    """Players arrive ``wave`` at a time; each goes straight to a game against a bot."""

    async def one(player: Player) -> None:
        await player.connect(server.port)
        await player.sit_down()

    for start in range(0, len(players), wave):
        await asyncio.gather(*(one(p) for p in players[start:start + wave]))
    await asyncio.sleep(1.0)
    await asyncio.gather(*(p.drain() for p in players))


async def measure(server: ServerProcess, players: list[Player], keys: int, gap: float,
                  wave: int, idle: float) -> Figures:
    figures = Figures(rss_before=rss_bytes(server.pid))
    await server.ask("stats")  # reset the GC counters
    await arrive(server, players, wave)
    figures.rss_playing = rss_bytes(server.pid)
    figures.gc["as players arrive and sit down"] = (await server.ask("stats"))["gc"]
    await server.ask("trim")
    figures.rss_collected = rss_bytes(server.pid)

    await asyncio.sleep(2.0)  # let the last frames and timers finish
    cpu = cpu_seconds(server.pid)
    await asyncio.sleep(idle)
    figures.idle_cpu = (cpu_seconds(server.pid) - cpu) / idle

    await server.ask("stats")
    rng = random.Random(5)
    cpu, started = cpu_seconds(server.pid), time.perf_counter()
    await asyncio.gather(*(p.press_keys(keys, gap, rng) for p in players))
    figures.typing_time = time.perf_counter() - started
    figures.typing_cpu = cpu_seconds(server.pid) - cpu
    figures.gc["while typing"] = (await server.ask("stats"))["gc"]

    leaving = players[: max(len(players) // 3, 1)]
    staying = players[len(leaving):]

    async def leave() -> None:
        for player in leaving:  # one after another, over about a gap
            await player.close()
            await asyncio.sleep(gap / len(leaving))

    pressing = asyncio.gather(*(p.press_keys(3, gap, rng, keep=False) for p in staying))
    _, results = await asyncio.gather(leave(), pressing)
    figures.while_leaving = [t for times in results for t in times]
    await asyncio.sleep(3.0)
    figures.gc[f"as {len(leaving)} players leave"] = (await server.ask("stats"))["gc"]
    figures.rss_left = rss_bytes(server.pid)
    return figures


async def bench(sessions: int, keys: int, gap: float, wave: int, idle: float,
                gc_thresholds: str, workers: int, recycle_after: int) -> None:
    players = [Player(f"p{i}", asyncssh.generate_private_key("ssh-ed25519"))
               for i in range(sessions + 1)]
    warmup, players = players[0], players[1:]
    async with server_process(sessions + 1, gc_thresholds, workers, recycle_after) as server:
        await warmup.connect(server.port)  # imports and caches: not per session
        await warmup.sit_down()
        await warmup.close()
        await asyncio.sleep(1.0)
        await server.ask("trim")
        try:
            figures = await measure(server, players, keys, gap, wave, idle)
        finally:
            await asyncio.gather(*(p.close() for p in players))
    report(sessions, keys, gap, wave, idle, workers, players, figures)


def report(sessions: int, keys: int, gap: float, wave: int, idle: float, workers: int,
           players: list[Player], figures: Figures) -> None:
    def per_session(rss: int) -> str:
        return f"{rss / 2**20:.1f} MiB, {(rss - figures.rss_before) / sessions / 2**20:.2f} MiB per session"

    handshake = [p.handshake for p in players]
    first_output = [p.first_output for p in players]
    first = [p.first_frame for p in players]
    latency = [t for p in players for t in p.key_to_frame]
    where = f"{workers} worker processes" if workers else "the server process"
    print(f"SSH sessions: {sessions} at 80x24 (apps in {where}), arriving {wave} at a time, "
          f"each at a game against a bot; {keys} keys each, one every "
          f"{gap / 2:.1f}-{gap * 1.5:.1f} s")
    print(f"server RSS: {figures.rss_before / 2**20:.1f} MiB with no session (after a warm-up one)")
    print(f"  everyone playing: {per_session(figures.rss_playing)}")
    if not workers:
        print(f"  after a full collection (frozen heap too) and malloc_trim: "
              f"{per_session(figures.rss_collected)}")
    print(f"SSH handshake (TCP, key exchange, key auth): median "
          f"{ms(statistics.median(handshake))}, p99 {ms(percentile(handshake, 0.99))}")
    print(f"connect to first frame (the connecting screen): median "
          f"{ms(statistics.median(first_output))}, p99 {ms(percentile(first_output, 0.99))}")
    print(f"connect to the lobby on screen: median {ms(statistics.median(first))}, "
          f"p99 {ms(percentile(first, 0.99))}, max {ms(max(first))}")
    print(f"key to frame ({len(latency)} keys): p50 {ms(percentile(latency, 0.5))}, "
          f"p99 {ms(percentile(latency, 0.99))}, max {ms(max(latency))}")
    print(f"server CPU while typing: {figures.typing_cpu / figures.typing_time * 100:.0f} % of "
          f"one core, {figures.typing_cpu / len(latency) * 1000:.1f} ms per key")
    print(f"idle CPU over {idle:.0f} s: {figures.idle_cpu * 100:.2f} % of one core")
    leaving = figures.while_leaving
    print(f"key to frame while a third leave ({len(leaving)} keys): p50 "
          f"{ms(percentile(leaving, 0.5))}, p99 {ms(percentile(leaving, 0.99))}, "
          f"max {ms(max(leaving))}")
    print(f"RSS after some players left: {figures.rss_left / 2**20:.1f} MiB")
    for phase, stats in figures.gc.items():
        print(f"GC {phase}: " + "; ".join(
            f"gen {gen}: {count} collections, longest {longest:.1f} ms"
            for gen, (count, longest, _total) in stats.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--keys", type=int, default=10, help="keys each session presses")
    parser.add_argument("--gap", type=float, default=3.0,
                        help="mean seconds between one player's keys (a card game's pace)")
    parser.add_argument("--wave", type=int, default=1, help="sessions opened at once")
    parser.add_argument("--idle", type=float, default=5.0, help="seconds to measure idle CPU")
    parser.add_argument("--workers", type=int, default=2,
                        help="worker processes for the apps (0: in the server process)")
    parser.add_argument("--recycle-after", type=int, default=32,
                        help="sessions a worker serves to their end before it is replaced")
    parser.add_argument("--gc", default="", metavar="T0,T1,T2",
                        help="GC thresholds for the server (default: the front door's policy)")
    parser.add_argument("--serve", metavar="DATA_DIR", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(Path(args.serve), args.sessions, args.gc, args.workers,
                          args.recycle_after))
    else:
        asyncio.run(bench(args.sessions, args.keys, args.gap, args.wave, args.idle, args.gc,
                          args.workers, args.recycle_after))


if __name__ == "__main__":
    main()
