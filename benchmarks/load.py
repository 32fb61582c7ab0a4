"""Load on a real ``skyjo-server``: many clients over TCP playing at many tables.

The server runs in its own process (the installed ``skyjo-server``, fresh data
directory); the clients run in one or more other processes, four people per
table, every seat a person. Two paces:

    python benchmarks/load.py --clients 1000 --think 2      # people: a move ~2 s into a turn
    python benchmarks/load.py --clients 200 --think 0       # every client answers at once
    python benchmarks/load.py --clients 400 --bot-tables 25 # and tables of one person + 3 experts

Bot tables (``--bot-tables``): one person and three expert bots each, the bots
moving at the server's pace (0.8 s). Their person is not measured; they are
there so that bots think on the server while the people's tables are timed.

Printed: actions acknowledged per second, the time from sending an action to
its ``game`` push reaching each *other* player at the table (p50/p99), errors,
and the server's memory (RSS now and peak) and CPU use over the measurement.
Latencies are measured within one client process on one monotonic clock.

Door links (``--door-links``): the server is ``skyjo-server --role lobby`` and every
client's connection is opened as a door host opens its players' (``server.link``:
a nonce, the claim of an identity proved with the door secret, then hello): what a
lobby behind door hosts serves, without the door hosts' own cost (docs/scaling.md).

    python benchmarks/load.py --clients 5000 --think 2 --door-links
    python benchmarks/load.py --clients 1000 --think 2 --door-links --idle-clients 4000
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.link.client import LobbyLink
from server.link.options import LinkOptions, LobbyAddress
from server.netclient import ConnectionLost, ServerConnection, ServerError

DOOR_SECRET = b"benchmarks/load.py's door secret, for --door-links"

SEATS = 4
TURN_PHASES = ("choose", "drawn")  # one actor at a time: its seq is known in advance


@dataclass
class Tally:
    """One client process's measurements."""

    acks: int = 0
    errors: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)  # seconds, action -> others' push
    games: int = 0
    window: tuple[float, float] = (0.0, 0.0)  # wall-clock start and end of the measurement
    closing: bool = False  # the run is over: requests cut short are not errors


class Seat:
    """One simulated person: acts on their turn after ``think`` seconds."""

    def __init__(
        self, conn: ServerConnection, table: Table, think: float, rng: random.Random
    ) -> None:
        self.conn, self.table, self.think, self.rng = conn, table, think, rng
        self.latest: dict[str, Any] | None = None
        self.acting = False
        self.acked = -1  # the seq of our last acknowledged move: older views are stale

    async def run(self, deadline: list[float]) -> None:
        """Play until ``deadline[0]`` (set once every table's game has started)."""
        try:
            async for push in self.conn.pushes():
                if time.monotonic() > deadline[0]:
                    return
                await self._on_push(push)
        except ConnectionLost as exc:
            if not self.table.tally.closing:
                self.table.tally.errors.append(f"lost: {exc}")

    async def _on_push(self, push: dict[str, Any]) -> None:
        kind = push["type"]
        if kind == "game":
            self.latest = push
            if push["seq"] == 0:
                self.table.sent.clear()  # a new game: its seqs start again
            sent = self.table.sent.get(push["seq"])
            if sent is not None and sent[1] is not self:
                self.table.tally.latencies.append(time.monotonic() - sent[0])
            if push["seq"] == 0:
                self.acked = -1
            self._maybe_act()
        elif kind == "table":
            table = push["table"]
            me = table["seats"][table["your_seat"]]
            if table["status"] == "between_rounds" and not me["ready"]:
                await self._request({"type": "ready"})
        elif kind == "game_over":
            self.table.tally.games += 1
            await self._request({"type": "rematch"})

    def _current(self) -> dict[str, Any] | None:
        """The latest view if it is newer than our last move and has moves for us."""
        push = self.latest
        if push is None or push["seq"] < self.acked or not push["view"]["legal_actions"]:
            return None
        return push

    def _maybe_act(self) -> None:
        if not self.acting and self._current() is not None:
            self.acting = True
            asyncio.get_running_loop().create_task(self._act_later())

    async def _act_later(self) -> None:
        try:
            if self.think:
                await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
            push = self._current()
            if push is None:
                return
            view = push["view"]
            if view["phase"] in TURN_PHASES:
                self.table.sent[push["seq"] + 1] = (time.monotonic(), self)
            await self._request({"type": "act", "action": self.rng.choice(view["legal_actions"])})
        finally:
            self.acting = False
        self._maybe_act()  # a draw leaves a move to make; its push may already be here

    async def _request(self, message: dict[str, Any]) -> None:
        try:
            reply = await self.conn.request(message, timeout=30)
            if message["type"] == "act":
                self.table.tally.acks += 1
                self.acked = reply["seq"]
        except ServerError as exc:
            if exc.code != "wrong_phase":  # a ready that crossed the next round: harmless
                self.table.tally.errors.append(f"{message['type']}: {exc}")
        except (ConnectionLost, TimeoutError) as exc:
            if not self.table.tally.closing:
                self.table.tally.errors.append(f"{message['type']}: {exc!r}")


class Table:
    def __init__(self, tally: Tally) -> None:
        self.tally = tally
        self.sent: dict[int, tuple[float, Seat]] = {}


async def connect(port: int, name: str, links: bool) -> ServerConnection:
    """A connection of its own, or (``links``) one claimed as a door host's player's."""
    if not links:
        return await ServerConnection.open("127.0.0.1", port, timeout=60)
    link = LobbyLink(LinkOptions(LobbyAddress("127.0.0.1", port), DOOR_SECRET, name="bench"))
    reader, writer = await link.open_player(f"ssh-key:SHA256:{name}", "ssh", "198.51.100.1")
    return ServerConnection.from_streams(reader, writer)


async def open_table(
    port: int, number: int, think: float, tally: Tally, bots: bool = False, links: bool = False
) -> list[Seat]:
    """A table of SEATS people, or (``bots``) of one person and expert bots."""
    table, rng = Table(tally), random.Random(number)
    conns = []
    for seat in range(1 if bots else SEATS):
        conn = await connect(port, f"{'b' if bots else 't'}{number}p{seat}", links)
        await conn.hello(name=f"{'b' if bots else 't'}{number}p{seat}", timeout=60)
        conns.append(conn)
    host = conns[0]
    reply = await host.request(
        {"type": "create_table", "name": f"load {number}", "seats": SEATS}, timeout=60
    )
    for conn in conns[1:]:
        await conn.request(
            {"type": "join_table", "table_id": reply["table"]["table_id"]}, timeout=60
        )
        await conn.request({"type": "ready"}, timeout=60)
    for _ in range(SEATS - len(conns)):
        await host.request({"type": "add_bot", "level": "expert"}, timeout=60)
    seats = [Seat(conn, table, think, random.Random(rng.random())) for conn in conns]
    return seats


async def client_process(
    port: int,
    tables: range,
    bot_tables: range,
    think: float,
    duration: float,
    warmup: float,
    links: bool = False,
    idle: range = range(0),
) -> Tally:
    tally, bot_tally = Tally(), Tally()  # the bot tables' person is not measured
    # Connected, welcomed and following the lobby's list, as a player who is looking
    # at the lobby: their cost is the server's connections and the list's pushes.
    idlers = []
    for number in idle:
        conn = await connect(port, f"i{number}", links)
        await conn.hello(name=f"i{number}", timeout=60)
        await conn.request({"type": "list_tables", "follow": True}, timeout=60)
        idlers.append(conn)
    seats_by_table = []
    for number in tables:
        seats_by_table.append(await open_table(port, number, think, tally, links=links))
    for number in bot_tables:
        seats_by_table.append(
            await open_table(port, number, think, bot_tally, bots=True, links=links)
        )
    deadline = [float("inf")]
    runners = [asyncio.create_task(s.run(deadline)) for seats in seats_by_table for s in seats]
    for seats in seats_by_table:
        await seats[0].conn.request({"type": "start_game"}, timeout=60)
    # From the last start: starting 1,250 games one after another takes a while.
    deadline[0] = time.monotonic() + warmup + duration
    await asyncio.sleep(warmup)
    tally.acks, tally.latencies, tally.errors = 0, [], []  # measure after the warm-up
    bot_tally.errors = []
    window_start = time.time()
    await asyncio.sleep(duration)
    tally.window = (window_start, time.time())
    tally.closing = bot_tally.closing = True
    tally.errors += bot_tally.errors
    for runner in runners:
        runner.cancel()
    await asyncio.gather(*runners, return_exceptions=True)
    for seats in seats_by_table:
        for seat in seats:
            await seat.conn.close()
    for conn in idlers:
        await conn.close()
    return tally


def run_clients(args: tuple[int, range, range, float, float, float, bool, range]) -> Tally:
    return asyncio.run(client_process(*args))


# -- the server process ---------------------------------------------------------------


def metrics_url(log: Path) -> str | None:
    found = re.search(r"metrics on (http://\S+/metrics)", log.read_text())
    return None if found is None else found.group(1)


def move_buckets(url: str | None) -> list[tuple[float, float]]:
    """The server's histogram of a move's arrival to its pushes written to everyone at the
    table (``skyjo_move_broadcast_seconds``): (bound, moves so far) per bucket."""
    if url is None:
        return []
    with urllib.request.urlopen(url, timeout=30) as answer:
        text = answer.read().decode()
    pattern = r'skyjo_move_broadcast_seconds_bucket\{le="([^"]+)"\} (\S+)'
    return [(float(bound), float(count)) for bound, count in re.findall(pattern, text)]


def server_side_p99(start: list[tuple[float, float]], end: list[tuple[float, float]]) -> str:
    """The bucket the 99th percentile of the moves between two scrapes falls in."""
    if not end:
        return "no metrics (is prometheus-client installed?)"
    before = dict(start)
    window = [(bound, count - before.get(bound, 0.0)) for bound, count in end]
    total = window[-1][1]
    for bound, count in window:
        if total and count >= 0.99 * total:
            return f"p99 <= {bound * 1e3:g} ms ({total:.0f} moves)"
    return "no moves"


def start_server(
    data_dir: Path, log: Path, extra: list[str]
) -> tuple[subprocess.Popen[bytes], int]:
    command = [
        shutil.which("skyjo-server") or str(Path(sys.executable).with_name("skyjo-server")),
        "--host", "127.0.0.1", "--port", "0", "--no-ssh", "--no-web", "--data-dir", str(data_dir),
        # Every client comes from 127.0.0.1: the caps per address are the whole server's.
        "--max-per-address", "10000", "--max-connections", "10000", "--max-tables", "2000",
        "--tables-per-address", "2000",
        "--between-rounds", "0", *extra,
    ]  # fmt: skip
    process = subprocess.Popen(
        command,
        stderr=log.open("w"),
        stdout=subprocess.DEVNULL,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        text = log.read_text()
        found = re.search(r"listening on 127\.0\.0\.1:(\d+)", text)
        if found:
            return process, int(found.group(1))
        if process.poll() is not None:
            raise RuntimeError(f"skyjo-server exited:\n{text}")
        time.sleep(0.05)
    raise TimeoutError("skyjo-server did not start")


def proc_status(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM (peak) in KiB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0])
    return fields


def cpu_seconds(pid: int) -> float:
    parts = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clients", type=int, default=200, help="connected clients (4 per table)")
    parser.add_argument(
        "--think", type=float, default=2.0, help="mean seconds before a move (0: at once)"
    )
    parser.add_argument("--duration", type=float, default=30.0, help="seconds measured")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds played before measuring")
    parser.add_argument("--processes", type=int, default=2, help="client processes")
    parser.add_argument(
        "--bot-tables",
        type=int,
        default=0,
        help="extra tables of one person and three expert bots (not measured)",
    )
    parser.add_argument("--sync", choices=("full", "normal"), default="full")
    parser.add_argument(
        "--messages-per-second",
        type=float,
        default=None,
        help="server's per-client message rate (default: raised to 1000 when --think 0)",
    )
    parser.add_argument(
        "--idle-clients",
        type=int,
        default=0,
        help="more clients, connected in the lobby and following its list, not playing",
    )
    parser.add_argument(
        "--door-links",
        action="store_true",
        help="the server is --role lobby and every client a door host's player (server.link)",
    )
    args = parser.parse_args()

    tables = max(1, args.clients // SEATS)
    rate = args.messages_per_second or (1000.0 if args.think == 0 else 20.0)
    with tempfile.TemporaryDirectory() as tmp:
        role: list[str] = []
        if args.door_links:
            secret = Path(tmp) / "door-secret"
            secret.write_bytes(DOOR_SECRET)
            role = ["--role", "lobby", "--door-secret", str(secret)]
        process, port = start_server(
            Path(tmp) / "data",
            Path(tmp) / "server.log",
            ["--sync", args.sync, "--messages-per-second", str(rate), "--metrics-port", "0", *role],
        )
        try:
            url = metrics_url(Path(tmp) / "server.log")
            samples, tallies, histograms = run_and_sample(process.pid, port, tables, args, url)
        finally:
            process.terminate()
            process.wait(30)
    report(samples, tallies, tables, args)
    start = max(t.window[0] for t in tallies)
    end = min(t.window[1] for t in tallies)
    inside = [h for at, h in histograms if start <= at <= end] or [[], []]
    print(
        "in the server, a move's arrival to its pushes to the table (its metrics, "
        f"during the measurement): {server_side_p99(inside[0], inside[-1])}"
    )


Sample = tuple[float, float, dict[str, int]]  # wall time, server CPU seconds, memory


def run_and_sample(
    pid: int, port: int, tables: int, args: argparse.Namespace, url: str | None = None
) -> tuple[list[Sample], list[Tally], list[tuple[float, list[tuple[float, float]]]]]:
    """Run the client processes while sampling the server's CPU and memory."""
    chunks = [range(i, tables, args.processes) for i in range(args.processes)]
    bot_end = tables + args.bot_tables
    bot_chunks = [range(tables + i, bot_end, args.processes) for i in range(args.processes)]
    idle_chunks = [range(i, args.idle_clients, args.processes) for i in range(args.processes)]
    jobs = [
        (port, chunk, bots, args.think, args.duration, args.warmup, args.door_links, idle)
        for chunk, bots, idle in zip(chunks, bot_chunks, idle_chunks, strict=True)
    ]
    samples: list[Sample] = []
    histograms: list[tuple[float, list[tuple[float, float]]]] = []  # the server's, once a second
    with multiprocessing.Pool(args.processes) as pool:
        pending = pool.map_async(run_clients, jobs)
        while not pending.ready():
            samples.append((time.time(), cpu_seconds(pid), proc_status(pid)))
            if len(samples) % 4 == 1:
                histograms.append((time.time(), move_buckets(url)))
            pending.wait(0.25)
        return samples, pending.get(), histograms


def report(
    samples: list[Sample], tallies: list[Tally], tables: int, args: argparse.Namespace
) -> None:
    start = max(t.window[0] for t in tallies)
    end = min(t.window[1] for t in tallies)
    inside = [s for s in samples if start <= s[0] <= end] or samples[-2:]
    cpu = (inside[-1][1] - inside[0][1]) / max(1e-9, inside[-1][0] - inside[0][0])
    acks = sum(t.acks for t in tallies)
    latencies = [x for t in tallies for x in t.latencies]
    errors = [e for t in tallies for e in t.errors]
    print(
        f"clients {tables * SEATS} at {tables} tables, think {args.think} s, sync {args.sync}, "
        f"{args.processes} client processes, {args.duration:.0f} s measured"
        + (f", {args.idle_clients} more in the lobby" if args.idle_clients else "")
        + (", every client a door host's claimed link" if args.door_links else "")
    )
    if args.bot_tables:
        print(
            f"and {args.bot_tables} tables of one person and {SEATS - 1} expert bots (not measured)"
        )
    print(
        f"actions acknowledged: {acks} ({acks / args.duration:.0f}/s), games finished: "
        f"{sum(t.games for t in tallies)}"
    )
    if latencies:
        print(
            f"action -> other players' push: p50 {percentile(latencies, 0.5) * 1e3:.1f} ms, "
            f"p99 {percentile(latencies, 0.99) * 1e3:.1f} ms, max {max(latencies) * 1e3:.1f} ms "
            f"({len(latencies)} samples, mean {statistics.mean(latencies) * 1e3:.1f} ms)"
        )
    print(
        f"server memory: RSS {inside[0][2]['VmRSS'] / 1024:.0f} MiB at the start of the "
        f"measurement, {inside[-1][2]['VmRSS'] / 1024:.0f} MiB at its end, "
        f"peak {samples[-1][2]['VmHWM'] / 1024:.0f} MiB"
    )
    print(f"server CPU: {cpu * 100:.0f}% of one core during the measurement")
    print(f"errors: {len(errors)}" + (f" (first: {errors[:3]})" if errors else ""))


if __name__ == "__main__":
    main()
