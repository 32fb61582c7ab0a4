"""The server's terminal doors under load: N players per door, each pressing keys.

    python benchmarks/doors.py [--doors ssh,web] [--sessions N] [--keys K] [--leave-keys K]
                               [--gap S] [--idle S] [--workers N] [--runs R]
    python benchmarks/doors.py --idle-memory
    python benchmarks/doors.py --doors ssh --proxy-protocol   # as behind HAProxy

A child process runs the installed ``skyjo-server`` on 127.0.0.1 (fresh data
directory, free ports, ``--ssh-workers`` as given), started with the
benchmark's garbage-collector probe (``benchmarks/gchook``).  This process
plays N sessions through each door: SSH (asyncssh, one key per player, a PTY
of 80x24) and the browser door (aiohttp's WebSocket client, speaking the
page's protocol: ``["stdin", text]`` and ``["resize", {...}]`` JSON frames up,
terminal bytes down; no browser).  Each player answers the terminal's
"synchronized update" query as modern terminals (and xterm.js) do, so Textual
wraps every frame in ``ESC[?2026h`` ... ``ESC[?2026l`` and the end of a frame
is visible in the bytes.  Players arrive one after another; each reaches the
lobby, creates a table, adds a bot, starts the game and sits at it.

Reported per door (p50/p90/p99/max with sample counts):
- memory per extra session: the RSS of the server and all its descendant
  processes (workers) with everyone playing, minus the same after a warm-up
  session per door came and went, divided by the sessions;
- first useful frame: from opening the connection to the END of the first
  frame showing the lobby (SSH) or the name prompt (web, a new browser),
  i.e. the screen drawn completely; the first bytes (the connecting screen)
  are shown beside it, for comparison with older figures;
- key to frame: from a key press (the card cursor, a small change) to the END
  of the frame it causes, every player pressing a key every ``--gap`` seconds
  on average (uniformly 0.5x to 1.5x: a card game's pace);
- the same while a third of the players leave (one after another, spread over
  the phase; the others go on pressing ``--leave-keys`` keys each);
- CPU time (server process and workers, from ``/proc``, so robust to a busy
  machine): per session start (connect to the lobby drawn, players arriving
  one at a time) and per key while typing, split between the server process
  (doors, encryption, relays) and the workers (the apps);
  ``benchmarks/appcpu.py`` profiles the apps' part in one process;
- idle CPU over ``--idle`` seconds, and frames nobody asked for meanwhile (a
  frame during the key phases that no key caused would be counted as a key's);
- garbage-collector pauses per phase, in the server process and in the
  workers (from the probe): collections and the longest pause per generation.

``--idle-memory`` measures instead the RSS of an idle ``skyjo-server`` with
only its TCP lobby (``--no-ssh --no-web``) and with every door on.

Targets (issues 5 and 11): <= 5 MiB per extra session, first frame < 150 ms,
key to frame p50 < 10 ms and p99 < 50 ms, for both doors; no CPU when idle.
"""

from __future__ import annotations

import argparse
import asyncio
import codecs
import contextlib
import ipaddress
import itertools
import json
import os
import random
import re
import signal
import socket
import struct
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

SERVER = Path(sys.executable).with_name("skyjo-server")
GC_HOOK = Path(__file__).resolve().with_name("gchook")
SYNC_QUERY = "\x1b[?2026$p"
"""The app asks: "do you support synchronized updates?" ..."""
SYNC_SUPPORTED = b"\x1b[?2026;2$y"
"""... and the terminal says yes (currently off): every frame is then marked."""
FRAME_END = "\x1b[?2026l"
"""The end of a synchronized update: the frame is complete."""
LOBBY_TEXT = "Lobby · "
NAME_PROMPT_TEXT = "Choose your name"
ARROWS = ("\x1b[C", "\x1b[D")
"""Right, left: the card cursor on the table, a small change of the screen."""
TO_THE_TABLE = (
    ("n", "New table"),
    ("\x13", "You are the host"),  # ctrl+s: create it with the default rules
    ("b", "bot"),  # add a bot
    ("s", "Turn up a card"),  # start: the game is on
)
"""Keys from the lobby to a game against a bot, each with the text it brings up."""
SIZE = (80, 24)
TIMEOUT = 60.0
QUIET = 0.005
"""A key is pressed only after the screen has been still this long (no frame in flight)."""
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b.")
PAGE = os.sysconf("SC_PAGE_SIZE")
MiB = 2**20


# --------------------------------------------------------------------------
# what a player's terminal receives
# --------------------------------------------------------------------------


class Screen:
    """The output of one session, split into frames at their ends.

    ``frames`` counts completed frames and ``frame_at`` is when the last one
    ended (``time.perf_counter`` as its last bytes arrived); ``text`` is what
    the completed frames since ``mark()`` said, escape sequences removed.
    """

    def __init__(self, answer: Callable[[bytes], None]) -> None:
        self._answer = answer
        self._answered = False
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._raw = ""  # since the last frame's end
        self.frames = 0
        self.frame_at = 0.0
        self.first_output = 0.0
        self.last_output = 0.0
        self.text = ""
        self.closed = False
        self._changed = asyncio.Event()

    def feed(self, data: bytes, now: float) -> None:
        self.last_output = now
        if not self.first_output:
            self.first_output = now
        raw = self._raw + self._decoder.decode(data)
        if not self._answered and SYNC_QUERY in raw:
            self._answered = True
            self._answer(SYNC_SUPPORTED)
        *frames, self._raw = raw.split(FRAME_END)
        if frames:
            self.frames += len(frames)
            self.frame_at = now
            self.text += "".join(ANSI.sub("", frame) for frame in frames)
            self._changed.set()

    def lost(self) -> None:
        self.closed = True
        self._changed.set()

    def mark(self) -> None:
        self.text = ""

    async def frame(self, after: int, needle: str = "") -> float:
        """Wait for a frame ending after frame number ``after`` (and, with ``needle``,
        for the frames since ``mark()`` to show it); when it ended."""
        async with asyncio.timeout(TIMEOUT):
            while self.frames <= after or needle not in self.text:
                if self.closed:
                    raise ConnectionError("the session ended")
                self._changed.clear()
                await self._changed.wait()
        return self.frame_at

    async def still(self) -> None:
        """Until no output has come for ``QUIET`` seconds."""
        while (left := self.last_output + QUIET - time.perf_counter()) > 0:  # noqa: ASYNC110 - a quiet gap, not an event
            await asyncio.sleep(left)


class Terminal(Protocol):
    """One player's connection through a door."""

    screen: Screen

    async def open(self) -> None: ...
    def send(self, text: str) -> None: ...
    async def close(self) -> None: ...


class SSHTerminal:
    def __init__(self, port: int, name: str, proxy_header: bytes = b"") -> None:
        self.port = port
        self.name = name
        self.proxy_header = proxy_header
        """Sent first, as a load balancer does (``--proxy-protocol``)."""
        self.screen = Screen(self._send_bytes)
        self._conn: Any = None
        self._proc: Any = None
        self._reader: asyncio.Task[None] | None = None

    async def open(self) -> None:
        import asyncssh

        sock = None
        if self.proxy_header:
            sock = socket.create_connection(("127.0.0.1", self.port))
            sock.sendall(self.proxy_header)
        self._conn = await asyncssh.connect(
            "127.0.0.1",
            self.port,
            sock=sock,
            username=self.name,
            client_keys=[asyncssh.generate_private_key("ssh-ed25519")],
            known_hosts=None,
            agent_path=None,
            config=None,
        )
        self._proc = await self._conn.create_process(
            term_type="xterm-256color", term_size=SIZE, encoding=None
        )
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            while chunk := await self._proc.stdout.read(65536):
                self.screen.feed(chunk, time.perf_counter())
        finally:
            self.screen.lost()

    def _send_bytes(self, data: bytes) -> None:
        self._proc.stdin.write(data)

    def send(self, text: str) -> None:
        self._proc.stdin.write(text.encode())

    async def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._conn.wait_closed(), TIMEOUT)
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader


class WebTerminal:
    """A browser tab as the page's script drives it, without the browser."""

    def __init__(self, page: str, url: str, origin: str, name: str) -> None:
        self.page = page
        self.url = url
        self.origin = origin
        self.name = name
        self.screen = Screen(lambda data: self.send(data.decode()))
        self._session: Any = None
        self._ws: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._sending: set[asyncio.Future[None]] = set()

    async def open(self) -> None:
        import aiohttp

        self._session = aiohttp.ClientSession()
        async with self._session.get(self.page) as page:  # as a browser: the page sets the cookie
            await page.read()
        self._ws = await self._session.ws_connect(
            self.url, origin=self.origin, timeout=aiohttp.ClientWSTimeout(ws_close=5.0)
        )
        self._reader = asyncio.create_task(self._read())
        columns, rows = SIZE
        await self._ws.send_str(json.dumps(["resize", {"width": columns, "height": rows}]))

    async def _read(self) -> None:
        import aiohttp

        try:
            async for message in self._ws:
                if message.type == aiohttp.WSMsgType.BINARY:
                    self.screen.feed(message.data, time.perf_counter())
                elif message.type == aiohttp.WSMsgType.TEXT:
                    self.screen.feed(message.data.encode(), time.perf_counter())
        finally:
            self.screen.lost()

    def send(self, text: str) -> None:
        # send_str is a coroutine only for its flow control; one small frame never waits.
        sending = asyncio.ensure_future(self._ws.send_str(json.dumps(["stdin", text])))
        self._sending.add(sending)  # the loop keeps only a weak reference
        sending.add_done_callback(self._sending.discard)

    async def close(self) -> None:
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._ws.close(), TIMEOUT)
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader
        if self._session is not None:
            await self._session.close()


# --------------------------------------------------------------------------
# a player
# --------------------------------------------------------------------------


@dataclass
class Player:
    door: str
    name: str
    terminal: Terminal
    first_output: float = 0.0
    first_frame: float = 0.0
    lobby: float = 0.0
    start_cpu: float = 0.0
    """CPU time of the server and its workers while this player arrived (to the lobby)."""
    keys: dict[str, list[float]] = field(default_factory=dict)

    async def arrive(self) -> None:
        """Connect, wait for the first useful screen, go on to the lobby."""
        screen = self.terminal.screen
        started = time.perf_counter()
        await self.terminal.open()
        useful = NAME_PROMPT_TEXT if self.door == "web" else LOBBY_TEXT
        self.first_frame = await screen.frame(0, useful) - started
        self.first_output = screen.first_output - started
        if useful != LOBBY_TEXT:
            screen.mark()
            await screen.still()
            self.terminal.send(self.name + "\r")
            await screen.frame(screen.frames, LOBBY_TEXT)
        self.lobby = screen.frame_at - started

    async def sit_down(self) -> None:
        """From the lobby to a game against a bot."""
        screen = self.terminal.screen
        for key, text in TO_THE_TABLE:
            await screen.still()
            screen.mark()
            self.terminal.send(key)
            await screen.frame(screen.frames, text)

    async def press_keys(self, phase: str, count: int, gap: float, rng: random.Random) -> None:
        """Press ``count`` keys ``gap`` seconds apart on average; time each to the end
        of its frame."""
        screen = self.terminal.screen
        times = self.keys.setdefault(phase, [])
        for index in range(count):
            await asyncio.sleep(rng.uniform(gap / 2, gap * 1.5))
            await screen.still()
            before = screen.frames
            started = time.perf_counter()
            self.terminal.send(ARROWS[index % 2])
            times.append(await screen.frame(before) - started)


# --------------------------------------------------------------------------
# the server, seen from outside
# --------------------------------------------------------------------------


def descendants(pid: int) -> list[int]:
    """``pid`` and every process below it (the worker processes)."""
    found, queue = [], [pid]
    while queue:
        member = queue.pop()
        found.append(member)
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{member}/task"):
                with open(f"/proc/{member}/task/{task}/children") as file:
                    queue += (int(child) for child in file.read().split())
    return found


def rss_bytes(pid: int) -> int:
    total = 0
    for member in descendants(pid):
        with contextlib.suppress(OSError), open(f"/proc/{member}/statm") as file:
            total += int(file.read().split()[1]) * PAGE
    return total


def cpu_seconds(pid: int) -> float:
    """CPU time of the server and its workers, finished (waited for) workers included."""
    return sum(cpu_split(pid))


def cpu_split(pid: int) -> tuple[float, float]:
    """CPU time of (the server process itself, its workers: running and finished)."""
    own = workers = 0
    for member in descendants(pid):
        with contextlib.suppress(OSError), open(f"/proc/{member}/stat") as file:
            fields = file.read().rsplit(")", 1)[1].split()
            if member == pid:
                own += int(fields[11]) + int(fields[12])
                workers += int(fields[13]) + int(fields[14])  # children waited for
            else:
                workers += int(fields[11]) + int(fields[12])
    ticks = os.sysconf("SC_CLK_TCK")
    return own / ticks, workers / ticks


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def server_options() -> str:
    return os.popen(f"{SERVER} --help").read()


@dataclass
class Server:
    pid: int
    ports: dict[str, int]
    gc_dir: Path

    def url(self) -> str:
        return f"ws://127.0.0.1:{self.ports['web']}"


async def wait_listening(port: int, proc: asyncio.subprocess.Process) -> None:
    async with asyncio.timeout(TIMEOUT):
        while True:
            if proc.returncode is not None:
                raise RuntimeError(f"skyjo-server exited with {proc.returncode}")
            try:
                _, writer = await asyncio.open_connection("127.0.0.1", port)
            except OSError:
                await asyncio.sleep(0.05)
                continue
            writer.close()
            return


@contextlib.asynccontextmanager
async def server_process(
    doors: list[str], capacity: int, workers: int, extra: list[str]
) -> AsyncIterator[Server]:
    """``skyjo-server`` on 127.0.0.1 with the doors asked for, the probe in every process."""
    ports = {"tcp": free_port(), **{door: free_port() for door in doors}}
    with tempfile.TemporaryDirectory(prefix="skyjo-doors-bench-") as data_dir:
        gc_dir = Path(data_dir, "gc")
        gc_dir.mkdir()
        args = [
            str(SERVER),
            "--host",
            "127.0.0.1",
            "--port",
            str(ports["tcp"]),
            "--data-dir",
            str(Path(data_dir, "data")),
            "--log-level",
            "WARNING",
            "--max-connections",
            str(capacity * 4),
            "--max-per-address",
            str(capacity * 4),
            "--max-tables",
            str(capacity * 4),
            "--tables-per-address",
            str(capacity * 4),
        ]
        options = server_options()
        args += ["--workers" if "--workers" in options else "--ssh-workers", str(workers)]
        if "--max-screens" in options:
            args += ["--max-screens", str(capacity)]
        if "ssh" in doors:
            args += [
                "--ssh-port",
                str(ports["ssh"]),
                "--ssh-max-connections",
                str(capacity),
                "--ssh-max-per-address",
                str(capacity),
            ]
        else:
            args += ["--no-ssh"]
        if "web" in doors:
            args += ["--web-port", str(ports["web"])]
            if "--web-max-per-address" in options:
                # Every benchmark player comes from 127.0.0.1.
                args += [
                    "--web-max-connections",
                    str(capacity),
                    "--web-max-per-address",
                    str(capacity),
                ]
        elif "--no-web" in options:
            args += ["--no-web"]
        env = {
            **os.environ,
            "SKYJO_BENCH_GC_DIR": str(gc_dir),
            "PYTHONPATH": os.pathsep.join(
                p for p in (str(GC_HOOK), os.environ.get("PYTHONPATH", "")) if p
            ),
        }
        proc = await asyncio.create_subprocess_exec(*args, *extra, env=env)
        try:
            for door in ("tcp", *doors):
                await wait_listening(ports[door], proc)
            yield Server(proc.pid, ports, gc_dir)
        finally:
            if proc.returncode is None:
                proc.terminate()
            try:
                await asyncio.wait_for(proc.wait(), TIMEOUT)
            except TimeoutError:
                proc.kill()
                await proc.wait()


async def gc_state(server: Server) -> dict[str, Any]:
    """The collector's state in the server process and in each worker (from the probe)."""
    members = descendants(server.pid)
    for member in members:
        with contextlib.suppress(OSError):
            (server.gc_dir / f"{member}.state").unlink(missing_ok=True)
            os.kill(member, signal.SIGUSR1)
    await asyncio.sleep(1.0)
    states = {}
    for member in members:
        with contextlib.suppress(OSError, ValueError):
            state = json.loads((server.gc_dir / f"{member}.state").read_text())
            states["server" if member == server.pid else f"worker {member}"] = state
    return states


@dataclass
class Pauses:
    """The collections of one generation in one phase: wall-clock pauses and their CPU time."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    freed: list[int] = field(default_factory=list)

    def describe(self) -> str:
        if not self.cpu:
            return "x0"
        costly = max(range(len(self.cpu)), key=self.cpu.__getitem__)
        return (
            f"x{len(self.wall)}, longest {max(self.wall) * 1000:.1f} ms; most CPU "
            f"{self.cpu[costly] * 1000:.1f} ms (freeing {self.freed[costly]} objects)"
        )


def gc_pauses(server: Server, since: float, until: float) -> dict[str, dict[int, Pauses]]:
    """Collections that ended between ``since`` and ``until``, per generation, in the
    server process ("server") and in its workers ("workers")."""
    found = {role: {0: Pauses(), 1: Pauses(), 2: Pauses()} for role in ("server", "workers")}
    for path in server.gc_dir.glob("*.gc"):
        role = "server" if int(path.stem) == server.pid else "workers"
        for line in path.read_text().splitlines():
            at, gen, pause, cpu, freed = line.split()
            if since <= float(at) <= until:
                pauses = found[role][int(gen)]
                pauses.wall.append(float(pause))
                pauses.cpu.append(float(cpu))
                pauses.freed.append(int(freed))
    return found


# --------------------------------------------------------------------------
# the run
# --------------------------------------------------------------------------


@dataclass
class Phase:
    name: str
    since: float
    until: float = 0.0


@dataclass
class Run:
    doors: list[str]
    sessions: int
    players: dict[str, list[Player]] = field(default_factory=dict)
    rss_before: int = 0
    rss_playing: dict[str, int] = field(default_factory=dict)
    rss_left: int = 0
    idle_cpu: float = 0.0
    idle_frames: int = 0
    typing_cpu: float = 0.0
    typing_cpu_server: float = 0.0
    """Of ``typing_cpu``: the server process's share (doors, encryption, relays, lobby)."""
    typing_time: float = 0.0
    phases: list[Phase] = field(default_factory=list)
    gc: dict[str, Any] = field(default_factory=dict)
    gc_state: dict[str, Any] = field(default_factory=dict)


def make_terminal(
    door: str, server: Server, name: str, origin: str, path: str, proxied: bool = False
) -> Terminal:
    if door == "ssh":
        return SSHTerminal(server.ports["ssh"], name, proxy_v2_header() if proxied else b"")
    page = f"http://127.0.0.1:{server.ports['web']}/"
    return WebTerminal(page, server.url() + path, origin or page.rstrip("/"), name)


_proxied_players = itertools.count(1)


def proxy_v2_header() -> bytes:
    """HAProxy's ``send-proxy-v2`` header for the next player, each from an address of
    its own in the benchmarking range (198.18.0.0/15, RFC 2544)."""
    source = ipaddress.ip_address("198.18.0.0") + next(_proxied_players)
    body = source.packed + bytes([127, 0, 0, 1]) + struct.pack("!HH", 40000, 2222)
    signature = b"\r\n\r\n\x00\r\nQUIT\n"
    return signature + bytes([0x21, 0x11]) + struct.pack("!H", len(body)) + body


async def one_run(args: argparse.Namespace, number: int) -> Run:
    doors: list[str] = args.doors
    run = Run(doors, args.sessions)
    rng = random.Random(number)
    extra = [*args.server_arg, *(["--ssh-trust-proxy", "127.0.0.1"] if args.proxy_protocol else [])]
    async with server_process(doors, (args.sessions + 1) * 2, args.workers, extra) as server:

        def player(door: str, index: int) -> Player:
            name = f"{door[0]}{number}x{index}"
            terminal = make_terminal(
                door, server, name, args.origin, args.web_path, args.proxy_protocol
            )
            return Player(door, name, terminal)

        for door in doors:  # imports and caches: not per session
            warmup = player(door, 0)
            await warmup.arrive()
            await warmup.sit_down()
            await warmup.terminal.close()
        await asyncio.sleep(1.0)
        run.rss_before = rss_bytes(server.pid)
        everyone: list[Player] = []
        try:
            phase = Phase("as players arrive and sit down", time.monotonic())
            for door in doors:
                run.players[door] = [player(door, i + 1) for i in range(args.sessions)]
                for each in run.players[door]:
                    everyone.append(each)
                    cpu = cpu_seconds(server.pid)
                    await each.arrive()
                    each.start_cpu = cpu_seconds(server.pid) - cpu
                    await each.sit_down()
                await asyncio.sleep(1.0)
                run.rss_playing[door] = rss_bytes(server.pid)
            phase.until = time.monotonic()
            run.phases.append(phase)
            run.gc_state = await gc_state(server)

            await asyncio.sleep(2.0)  # let the last frames and timers finish
            frames = sum(p.terminal.screen.frames for p in everyone)
            cpu = cpu_seconds(server.pid)
            await asyncio.sleep(args.idle)
            run.idle_cpu = (cpu_seconds(server.pid) - cpu) / args.idle
            run.idle_frames = sum(p.terminal.screen.frames for p in everyone) - frames

            phase = Phase("while typing", time.monotonic())
            (own, workers), started = cpu_split(server.pid), time.perf_counter()
            await asyncio.gather(
                *(p.press_keys("typing", args.keys, args.gap, rng) for p in everyone)
            )
            run.typing_time = time.perf_counter() - started
            own_after, workers_after = cpu_split(server.pid)
            run.typing_cpu_server = own_after - own
            run.typing_cpu = run.typing_cpu_server + workers_after - workers
            phase.until = time.monotonic()
            run.phases.append(phase)

            leaving = [p for door in doors for p in run.players[door][: args.sessions // 3]]
            staying = [p for p in everyone if p not in leaving]
            span = args.leave_keys * args.gap

            async def leave() -> None:
                order = leaving[:]
                rng.shuffle(order)
                for each in order:  # one after another, over the phase
                    await asyncio.sleep(span / max(len(order), 1))
                    await each.terminal.close()

            phase = Phase(f"as {len(leaving)} players leave", time.monotonic())
            await asyncio.gather(
                leave(), *(p.press_keys("leaving", args.leave_keys, args.gap, rng) for p in staying)
            )
            await asyncio.sleep(3.0)
            phase.until = time.monotonic()
            run.phases.append(phase)
            run.rss_left = rss_bytes(server.pid)
            await asyncio.sleep(0.5)  # the probe's last lines
            for measured in run.phases:
                run.gc[measured.name] = gc_pauses(server, measured.since, measured.until)
        finally:
            await asyncio.gather(*(p.terminal.close() for p in everyone))
    return run


# --------------------------------------------------------------------------
# the report
# --------------------------------------------------------------------------


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def spread(values: list[float]) -> str:
    if not values:
        return "no samples"
    return (
        f"p50 {percentile(values, 0.5) * 1000:.1f} ms, p90 {percentile(values, 0.9) * 1000:.1f}, "
        f"p99 {percentile(values, 0.99) * 1000:.1f}, max {max(values) * 1000:.1f} "
        f"(n={len(values)})"
    )


def summary(run: Run, door: str) -> dict[str, Any]:
    players = run.players[door]
    before = (
        run.rss_before
        if door == run.doors[0]
        else run.rss_playing[run.doors[run.doors.index(door) - 1]]
    )
    keys = {
        phase: [t for p in players for t in p.keys.get(phase, [])]
        for phase in ("typing", "leaving")
    }
    return {
        "per_session": (run.rss_playing[door] - before) / run.sessions,
        "first_output": [p.first_output for p in players],
        "first_frame": [p.first_frame for p in players],
        "lobby": [p.lobby for p in players],
        "start_cpu": [p.start_cpu for p in players],
        **keys,
    }


def report(run: Run, args: argparse.Namespace) -> None:
    where = f"{args.workers} worker processes" if args.workers else "the server process"
    print(
        f"{run.sessions} sessions per door ({', '.join(run.doors)}) at 80x24, apps in {where}; "
        f"{args.keys} keys each, then {args.leave_keys} each while a third leave; "
        f"a key every {args.gap / 2:.1f}-{args.gap * 1.5:.1f} s"
    )
    print(
        f"server RSS with no session (after a warm-up one per door): {run.rss_before / MiB:.1f} MiB"
    )
    for door in run.doors:
        figures = summary(run, door)
        print(
            f"[{door}] RSS with its {run.sessions} players at a game: "
            f"{run.rss_playing[door] / MiB:.1f} MiB, "
            f"{figures['per_session'] / MiB:.2f} MiB per extra session"
        )
        print(f"[{door}] first bytes (the connecting screen): {spread(figures['first_output'])}")
        print(
            f"[{door}] first useful frame ({'name prompt' if door == 'web' else 'lobby'}, "
            f"drawn): {spread(figures['first_frame'])}"
        )
        if door == "web":
            print(f"[{door}] connect to the lobby drawn (name typed): {spread(figures['lobby'])}")
        print(
            f"[{door}] CPU per session start (server + workers, connect to the lobby drawn): "
            f"{spread(figures['start_cpu'])}"
        )
        print(f"[{door}] key to end of frame: {spread(figures['typing'])}")
        print(f"[{door}] key to end of frame while a third leave: {spread(figures['leaving'])}")
    keys = sum(len(p.keys.get("typing", [])) for door in run.doors for p in run.players[door])
    per_key = 1000 / max(keys, 1)
    print(
        f"server CPU while typing: {run.typing_cpu / run.typing_time * 100:.0f} % of one core, "
        f"{run.typing_cpu * per_key:.1f} ms per key (the server process "
        f"{run.typing_cpu_server * per_key:.1f}, the workers "
        f"{(run.typing_cpu - run.typing_cpu_server) * per_key:.1f})"
    )
    print(
        f"idle CPU over {args.idle:.0f} s: {run.idle_cpu * 100:.2f} % of one core; "
        f"frames nobody asked for: {run.idle_frames}"
    )
    print(f"RSS after a third left: {run.rss_left / MiB:.1f} MiB")
    for role, state in run.gc_state.items():
        print(
            f"GC state with everyone playing, {role}: thresholds {tuple(state['threshold'])}, "
            f"{state['frozen']} objects frozen, {sum(state['objects'])} not "
            f"(per generation {state['objects']})"
        )
    for phase, roles in run.gc.items():
        for role, gens in roles.items():
            print(
                f"GC {phase}, {role}: "
                + "; ".join(f"gen {gen} {pauses.describe()}" for gen, pauses in gens.items())
            )


def overall(runs: list[Run]) -> None:
    """One line per figure across the runs (ranges), then the pooled samples."""
    if len(runs) < 2:
        return
    print(f"\n== {len(runs)} runs ==")
    for door in runs[0].doors:
        figures = [summary(run, door) for run in runs]
        per_session = [f["per_session"] / MiB for f in figures]
        print(f"[{door}] MiB per extra session: " + ", ".join(f"{v:.2f}" for v in per_session))
        for key, label in (
            ("first_frame", "first useful frame"),
            ("start_cpu", "CPU per session start"),
            ("typing", "key to frame"),
            ("leaving", "key to frame while a third leave"),
        ):
            for f in figures:
                print(f"[{door}] {label}: {spread(f[key])}")
            pooled = [t for f in figures for t in f[key]]
            print(f"[{door}] {label}, pooled: {spread(pooled)}")


async def idle_memory(settle: float) -> None:
    """RSS of an idle skyjo-server: its TCP lobby alone, and with every door on."""
    options = server_options()
    doors_on = ["ssh"] + (["web"] if "--web-port" in options else [])
    alone = "--no-ssh --no-web" if "--no-web" in options else "--no-ssh"
    for label, doors in (
        (f"TCP lobby only ({alone})", []),
        (f"every door ({', '.join(['tcp', *doors_on])})", doors_on),
    ):
        async with server_process(doors, 10, 2, []) as server:
            await asyncio.sleep(settle)
            members = descendants(server.pid)
            own = rss_bytes_of(server.pid)
            print(
                f"idle skyjo-server, {label}: {rss_bytes(server.pid) / MiB:.1f} MiB "
                f"({len(members)} processes; the server process alone {own / MiB:.1f} MiB)"
            )


def rss_bytes_of(pid: int) -> int:
    with open(f"/proc/{pid}/statm") as file:
        return int(file.read().split()[1]) * PAGE


async def bench(args: argparse.Namespace) -> None:
    if args.idle_memory:
        await idle_memory(args.settle)
        return
    runs = []
    for number in range(args.runs):
        if number:
            print()
        print(f"-- run {number + 1} of {args.runs} --")
        run = await one_run(args, number)
        report(run, args)
        runs.append(run)
    overall(runs)


def parse(argv: list[str] | None = None, doors: str = "ssh,web") -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--doors", default=doors, help="comma-separated: ssh, web")
    parser.add_argument("--sessions", type=int, default=200, help="sessions per door")
    parser.add_argument("--keys", type=int, default=10, help="keys each session presses")
    parser.add_argument(
        "--leave-keys",
        type=int,
        default=8,
        help="keys each staying session presses while a third leave",
    )
    parser.add_argument(
        "--gap",
        type=float,
        default=3.0,
        help="mean seconds between one player's keys (a card game's pace)",
    )
    parser.add_argument("--idle", type=float, default=5.0, help="seconds to measure idle CPU")
    parser.add_argument(
        "--workers",
        type=int,
        default=2,
        help="--ssh-workers of the server (0: apps in the server process)",
    )
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--web-path", default="/ws", help="the WebSocket's path on the web door")
    parser.add_argument("--origin", default="", help="Origin header (default: the page's own)")
    parser.add_argument(
        "--server-arg",
        action="append",
        default=[],
        help="one more skyjo-server argument (repeat for several)",
    )
    parser.add_argument(
        "--idle-memory", action="store_true", help="measure an idle server's RSS instead"
    )
    parser.add_argument(
        "--proxy-protocol",
        action="store_true",
        help="SSH players arrive as through HAProxy's send-proxy-v2 (--ssh-trust-proxy)",
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=3.0,
        help="seconds an idle server runs before its RSS is read",
    )
    args = parser.parse_args(argv)
    if args.doors == "ssh,web" and "--web-port" not in server_options():
        args.doors = "ssh"  # a server without the browser door (yet)
    args.doors = [d for d in args.doors.split(",") if d]
    unknown = set(args.doors) - {"ssh", "web"}
    if unknown:
        parser.error(f"unknown doors: {', '.join(sorted(unknown))}")
    return args


def main(doors: str = "ssh,web") -> None:
    asyncio.run(bench(parse(doors=doors)))


if __name__ == "__main__":
    main()
