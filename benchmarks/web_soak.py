"""The browser door on the open Internet: honest players' figures while one attack runs.

    python benchmarks/web_soak.py --attack ping-flood [--code DIR] [--quiet S] [--seconds S]
    python benchmarks/web_soak.py --attack all

A child process runs ``skyjo-server`` from the checkout ``--code`` (default:
this one; ``python -m server.cli`` with that checkout first on ``PYTHONPATH``,
so an older checkout can be measured with this one's environment) on
127.0.0.1: free ports, a fresh data directory, no SSH door, log at INFO into
a file, and a soft ``RLIMIT_NOFILE`` of 1024 (a service's default; the
server may raise it itself).  This process then plays, through real sockets:

- an honest TCP player (the msgpack protocol, ``server.netclient``) at a
  table with a bot, timing each move from request to reply;
- an honest browser session (aiohttp's WebSocket client speaking the page's
  protocol, as ``benchmarks/doors.py`` does), sitting at a game against a
  bot and timing each key (the card cursor) to the end of its frame;

first ``--quiet`` seconds on their own, then ``--seconds`` with the attack
running, then a last check that new players still get in.  Every attacker
uses only 127.0.0.x addresses.  The attacks (``--attack``):

- ``ping-flood``: ``--attackers`` WebSockets (default 4) that upgrade, then
  send textual.js's ``["ping", ...]`` as fast as TCP lets them and never read;
- ``resize-storm``: six sessions from one address sending ``resize``
  alternating 500x200 and 20x10 as fast as they can (reading what comes);
- ``idle-preupgrade``: ``--attackers`` TCP connections (default 1100) to the
  web port from 127.0.0.2-254 that never send a byte, each replaced when the
  server closes it;
- ``nested-json``: WebSockets sending ``[`` x 30000 as a text message,
  reconnecting when dropped;
- ``bad-http``: requests with a control character in a header, a 9 KB
  header, and a TLS ClientHello sent to the HTTP port, over and over.

Reported: the honest players' latencies (p50/p99/max, samples) quiet and
under attack; the server's RSS (its process, and with its workers) and open
descriptors (before, the most during the attack, after); log lines written
during the attack (all, WARNING and above, tracebacks); whether each attacker
was dropped and how long after the attack began; and probes during and after
the attack (``GET /healthz``, a new TCP player's hello, a new browser
reaching the name prompt): how many answered.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import resource
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from doors import Player, WebTerminal, free_port, wait_listening

HERE = Path(__file__).resolve().parent.parent
ATTACKS = ("ping-flood", "resize-storm", "idle-preupgrade", "nested-json", "bad-http")
NOFILE = 1024
"""The server's soft descriptor limit at start, as a service gets by default."""
PROBE_TIMEOUT = 5.0
GAP = 0.25
"""Seconds between the honest players' moves and keys (on average)."""
SLOWEST: list[tuple[float, float, str]] = []
"""Every honest browser key: how long it took, when (``time.monotonic``), its phase."""
MiB = 2**20
PAGE = os.sysconf("SC_PAGE_SIZE")


# --------------------------------------------------------------------------
# the server, from outside
# --------------------------------------------------------------------------


@dataclass
class Server:
    proc: asyncio.subprocess.Process
    tcp: int
    web: int
    log: Path

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def page(self) -> str:
        return f"http://127.0.0.1:{self.web}/"


def _descendants(pid: int) -> list[int]:
    found = [pid]
    for each in found:
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{each}/task"):
                with contextlib.suppress(OSError):
                    children = Path(f"/proc/{each}/task/{task}/children").read_text().split()
                    found.extend(int(c) for c in children)
    return found


def _rss(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
    except (OSError, IndexError, ValueError):
        return 0


def _fds(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


@dataclass
class Sample:
    rss: int
    rss_all: int
    fds: int


def sample(server: Server) -> Sample:
    return Sample(
        _rss(server.pid), sum(_rss(p) for p in _descendants(server.pid)), _fds(server.pid)
    )


def _lower_nofile() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(NOFILE, hard), hard))


@contextlib.asynccontextmanager
async def server_process(code: Path, workdir: Path) -> AsyncIterator[Server]:
    tcp, web = free_port(), free_port()
    log = workdir / "server.log"
    args = [
        sys.executable,
        "-m",
        "server.cli",
        "--host",
        "127.0.0.1",
        "--port",
        str(tcp),
        "--web-port",
        str(web),
        "--no-ssh",
        "--data-dir",
        str(workdir / "data"),
        "--log-level",
        "INFO",
        "--bot-delay",
        "0.1",
    ]
    env = {**os.environ, "PYTHONPATH": str(code)}
    with log.open("wb") as out:
        proc = await asyncio.create_subprocess_exec(
            *args,
            cwd=str(code),
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=out,
            stderr=out,
            preexec_fn=_lower_nofile,
        )
    server = Server(proc, tcp, web, log)
    try:
        try:
            for port in (tcp, web):
                await wait_listening(port, proc)
        except RuntimeError:
            raise RuntimeError(f"skyjo-server exited: {log.read_text()[-2000:]}") from None
        yield server
    finally:
        if proc.returncode is None:
            proc.terminate()
        try:
            await asyncio.wait_for(proc.wait(), 20)
        except TimeoutError:
            proc.kill()
            await proc.wait()


def log_counts(text: str) -> dict[str, int]:
    lines = text.splitlines()
    return {
        "lines": len(lines),
        "warning+": sum(
            1 for line in lines if any(f" {lvl} " in line for lvl in ("WARNING", "ERROR"))
        ),
        "tracebacks": text.count("Traceback (most recent call last)"),
    }


# --------------------------------------------------------------------------
# honest players
# --------------------------------------------------------------------------


async def tcp_player(
    server: Server, stop: asyncio.Event, phases: dict[str, list[float]], phase: list[str]
) -> None:
    """A player at a table with a bot, moving ``GAP`` seconds after each chance;
    each move timed from request to reply, into ``phases[phase[0]]``."""
    from server.netclient import ConnectionLost, ServerConnection, ServerError

    conn = await ServerConnection.open("127.0.0.1", server.tcp, timeout=30)
    closing = asyncio.ensure_future(_close_when(stop, conn))
    try:
        await conn.hello(name="honest tcp", timeout=30)
        await conn.request({"type": "create_table", "name": "soak", "seats": 2}, timeout=30)
        await conn.request({"type": "add_bot", "level": "casual"}, timeout=30)
        await conn.request({"type": "start_game"}, timeout=30)
        rng = random.Random(1)
        async for push in conn.pushes():  # until ``stop`` closes the connection
            kind = push.get("type")
            if kind == "game_over":
                with contextlib.suppress(ServerError):
                    await conn.request({"type": "rematch"}, timeout=30)
                    await conn.request({"type": "start_game"}, timeout=30)
                continue
            if kind == "table":
                table = push["table"]
                me = table["seats"][table["your_seat"]]
                if table["status"] == "between_rounds" and not me["ready"]:
                    with contextlib.suppress(ServerError):
                        await conn.request({"type": "ready"}, timeout=30)
                continue
            if kind != "game" or not push["view"]["legal_actions"]:
                continue
            await asyncio.sleep(rng.uniform(GAP / 2, GAP * 1.5))
            action = rng.choice(push["view"]["legal_actions"])
            started = time.perf_counter()
            try:
                await conn.request({"type": "act", "action": action}, timeout=30)
            except ServerError:
                continue  # a stale view: the next push says what is legal
            phases.setdefault(phase[0], []).append(time.perf_counter() - started)
    except (ConnectionLost, TimeoutError) as exc:
        if not stop.is_set():
            phases.setdefault("tcp lost", []).append(0.0)
            print(f"  honest TCP player lost: {exc!r}")
    finally:
        closing.cancel()
        await conn.close()


async def _close_when(stop: asyncio.Event, conn: Any) -> None:
    await stop.wait()
    await conn.close()


async def web_player(
    server: Server,
    stop: asyncio.Event,
    phases: dict[str, list[float]],
    phase: list[str],
    ready: asyncio.Event,
) -> None:
    """A browser at a game against a bot pressing the card cursor's arrows."""
    terminal = WebTerminal(
        server.page, f"ws://127.0.0.1:{server.web}/ws", server.page.rstrip("/"), "honestweb"
    )
    player = Player("web", "honestweb", terminal)
    try:
        await player.arrive()
        await player.sit_down()
        ready.set()
        screen = terminal.screen
        rng = random.Random(2)
        index = 0
        while not stop.is_set():
            await asyncio.sleep(rng.uniform(GAP / 2, GAP * 1.5))
            await screen.still()
            before = screen.frames
            started = time.perf_counter()
            terminal.send(("\x1b[C", "\x1b[D")[index % 2])
            index += 1
            await screen.frame(before)
            took = time.perf_counter() - started
            phases.setdefault(phase[0], []).append(took)
            SLOWEST.append((took, time.monotonic(), phase[0]))
    except (ConnectionError, TimeoutError) as exc:
        phases.setdefault("web lost", []).append(0.0)
        print(f"  honest browser session lost: {exc!r}")
        ready.set()
    finally:
        await terminal.close()


# --------------------------------------------------------------------------
# probes: do new players get in?
# --------------------------------------------------------------------------


async def probe_health(server: Server) -> bool:
    try:
        async with asyncio.timeout(PROBE_TIMEOUT):
            reader, writer = await asyncio.open_connection("127.0.0.1", server.web)
            writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            answer = await reader.read(64)
            writer.close()
            return answer.startswith(b"HTTP/1.1 200")
    except (OSError, TimeoutError):
        return False


async def probe_tcp(server: Server) -> bool:
    from server.netclient import ServerConnection

    try:
        async with asyncio.timeout(PROBE_TIMEOUT):
            conn = await ServerConnection.open("127.0.0.1", server.tcp, timeout=PROBE_TIMEOUT)
            try:
                await conn.hello(name=f"probe{random.randrange(10**6)}", timeout=PROBE_TIMEOUT)
            finally:
                await conn.close()
            return True
    except Exception:  # noqa: BLE001 - any failure is a failed probe
        return False


async def probe_web(server: Server) -> bool:
    terminal = WebTerminal(
        server.page, f"ws://127.0.0.1:{server.web}/ws", server.page.rstrip("/"), "p"
    )
    try:
        async with asyncio.timeout(PROBE_TIMEOUT * 2):
            await terminal.open()
            await terminal.screen.frame(0, "Choose your name")
            return True
    except Exception:  # noqa: BLE001
        return False
    finally:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(terminal.close(), PROBE_TIMEOUT)


@dataclass
class Probes:
    results: dict[str, list[bool]] = field(default_factory=dict)

    async def run(self, server: Server) -> None:
        for name, probe in (("healthz", probe_health), ("tcp", probe_tcp), ("web", probe_web)):
            self.results.setdefault(name, []).append(await probe(server))

    def summary(self) -> str:
        return ", ".join(f"{name} {sum(r)}/{len(r)}" for name, r in self.results.items())


# --------------------------------------------------------------------------
# attacks
# --------------------------------------------------------------------------


@dataclass
class Attack:
    began: float = 0.0
    drops: list[float] = field(default_factory=list)
    """Seconds after the attack began at which an attacker found itself dropped."""
    opened: int = 0
    notes: list[str] = field(default_factory=list)


def _source(index: int) -> str:
    return f"127.0.0.{2 + index % 253}"


async def _connect(
    server: Server, index: int, attack: Attack
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
    """A TCP connection to the web port from attacker ``index``'s address (None: refused)."""
    try:
        opened = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", server.web, local_addr=(_source(index), 0)),
            PROBE_TIMEOUT,
        )
    except (OSError, TimeoutError):
        return None
    attack.opened += 1
    return opened


async def _open_ws_raw(
    server: Server, source: str
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Upgrade to the game's WebSocket by hand (no cookie, no Origin): the
    101 answer is read, nothing after it."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.web, local_addr=(source, 0))
    key = "dGhlIHNhbXBsZSBub25jZQ=="
    writer.write(
        (
            f"GET /ws?width=80&height=24 HTTP/1.1\r\nHost: 127.0.0.1:{server.web}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    if not head.startswith(b"HTTP/1.1 101"):
        raise ConnectionError(head.split(b"\r\n")[0].decode(errors="replace"))
    return reader, writer


def _masked_text(payload: bytes) -> bytes:
    mask = os.urandom(4)
    size = len(payload)
    if size < 126:
        head = bytes([0x81, 0x80 | size])
    elif size < 65536:
        head = bytes([0x81, 0x80 | 126]) + size.to_bytes(2, "big")
    else:
        head = bytes([0x81, 0x80 | 127]) + size.to_bytes(8, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


async def ping_flood(server: Server, stop: asyncio.Event, attack: Attack, count: int) -> None:
    frame = _masked_text(b'["ping", "1733480000000"]') * 64

    async def one(index: int) -> None:
        try:
            _reader, writer = await _open_ws_raw(server, "127.0.0.2")
        except (OSError, ConnectionError, TimeoutError) as exc:
            attack.notes.append(f"refused: {exc}")
            return
        attack.opened += 1
        try:
            while not stop.is_set():
                writer.write(frame)
                drain = asyncio.ensure_future(writer.drain())
                stopping = asyncio.ensure_future(stop.wait())
                await asyncio.wait({drain, stopping}, return_when=asyncio.FIRST_COMPLETED)
                stopping.cancel()
                if not drain.done():
                    drain.cancel()
                    break
                drain.result()
        except (OSError, ConnectionError):
            attack.drops.append(time.monotonic() - attack.began)
        finally:
            writer.transport.abort()

    await asyncio.gather(*(one(i) for i in range(count)))


async def resize_storm(server: Server, stop: asyncio.Event, attack: Attack, count: int) -> None:
    import aiohttp

    sizes = [
        json.dumps(["resize", {"width": 500, "height": 200}]),
        json.dumps(["resize", {"width": 20, "height": 10}]),
    ]

    async def one(session: aiohttp.ClientSession) -> None:
        try:
            ws = await session.ws_connect(f"ws://127.0.0.1:{server.web}/ws?width=80&height=24")
        except aiohttp.ClientError as exc:
            attack.notes.append(f"refused: {exc}")
            return
        attack.opened += 1

        async def drain_output() -> None:
            async for _message in ws:
                pass

        reading = asyncio.create_task(drain_output())
        try:
            index = 0
            while not stop.is_set() and not ws.closed:
                await ws.send_str(sizes[index % 2])
                index += 1
                if index % 16 == 0:
                    await asyncio.sleep(0)
            if ws.closed:
                attack.drops.append(time.monotonic() - attack.began)
        except (ConnectionError, aiohttp.ClientError):
            attack.drops.append(time.monotonic() - attack.began)
        finally:
            reading.cancel()
            await ws.close()

    async with aiohttp.ClientSession() as session:
        await asyncio.gather(*(one(session) for _ in range(count)))


async def idle_preupgrade(server: Server, stop: asyncio.Event, attack: Attack, count: int) -> None:
    async def one(index: int) -> None:
        while not stop.is_set():
            opened = await _connect(server, index, attack)
            if opened is None:
                await asyncio.sleep(0.5)
                continue
            reader, writer = opened
            try:
                closing = asyncio.ensure_future(reader.read())
                stopping = asyncio.ensure_future(stop.wait())
                await asyncio.wait({closing, stopping}, return_when=asyncio.FIRST_COMPLETED)
                stopping.cancel()
                if closing.done():
                    attack.drops.append(time.monotonic() - attack.began)
                else:
                    closing.cancel()
            except OSError:
                pass
            finally:
                writer.transport.abort()

    await asyncio.gather(*(one(i) for i in range(count)))


async def nested_json(server: Server, stop: asyncio.Event, attack: Attack, count: int) -> None:
    import aiohttp

    message = "[" * 30000

    async def one(session: aiohttp.ClientSession) -> None:
        while not stop.is_set():
            try:
                ws = await session.ws_connect(f"ws://127.0.0.1:{server.web}/ws?width=80&height=24")
            except (aiohttp.ClientError, OSError) as exc:
                attack.notes.append(f"refused: {exc}")
                await asyncio.sleep(0.5)
                continue
            attack.opened += 1
            try:
                while not stop.is_set() and not ws.closed:
                    await ws.send_str(message)
                    await asyncio.sleep(0.01)
            except (ConnectionError, aiohttp.ClientError):
                pass
            finally:
                await ws.close()
            attack.drops.append(time.monotonic() - attack.began)

    async with aiohttp.ClientSession() as session:
        await asyncio.gather(*(one(session) for _ in range(count)))


TLS_HELLO = bytes.fromhex(
    "160301006e0100006a0303"
    + "00" * 32
    + "00000a130113021303c02bc02f01000037"
    + "00000010000e00000b6578616d706c652e636f6d"  # server name: example.com
    + "000b000403000102000a00080006001d00170018000d00080006040305030603"
)
"""The start of a TLS 1.2/1.3 ClientHello, as a browser sends to https:// on this port."""
BAD_REQUESTS = (
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Bad: a\x01b\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n",
    TLS_HELLO,
)


async def bad_http(server: Server, stop: asyncio.Event, attack: Attack, count: int) -> None:
    async def one(index: int) -> None:
        sent = 0
        while not stop.is_set():
            opened = await _connect(server, index, attack)
            if opened is None:
                await asyncio.sleep(0.2)
                continue
            reader, writer = opened
            try:
                writer.write(BAD_REQUESTS[sent % len(BAD_REQUESTS)])
                sent += 1
                await asyncio.wait_for(reader.read(), 3.0)
            except (OSError, TimeoutError):
                pass
            finally:
                writer.transport.abort()

    await asyncio.gather(*(one(i) for i in range(count)))


ATTACKERS: dict[
    str, tuple[Callable[[Server, asyncio.Event, Attack, int], Coroutine[Any, Any, None]], int]
] = {
    "ping-flood": (ping_flood, 4),
    "resize-storm": (resize_storm, 6),
    "idle-preupgrade": (idle_preupgrade, 1100),
    "nested-json": (nested_json, 4),
    "bad-http": (bad_http, 4),
}


def _attack_child(
    name: str, tcp: int, web: int, count: int, began: float, seconds: float, conn: Connection
) -> None:
    """An attack, in a process of its own, until ``seconds`` after ``began`` (the
    monotonic clock is the machine's); what it saw goes back through ``conn``."""

    async def run() -> Attack:
        _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        target = Server(proc=None, tcp=tcp, web=web, log=Path(os.devnull))  # type: ignore[arg-type]
        attack = Attack(began=began)
        stop = asyncio.Event()
        attacker, _count = ATTACKERS[name]
        attacking = asyncio.create_task(attacker(target, stop, attack, count))
        await asyncio.sleep(max(0.0, began + seconds - time.monotonic()))
        stop.set()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(attacking, 15)
        return attack

    seen = asyncio.run(run())
    conn.send((seen.opened, seen.drops, seen.notes))
    conn.close()


async def _attack_from_another_process(
    name: str, server: Server, attack: Attack, count: int, seconds: float
) -> None:
    """Run attack ``name`` in a child process for ``seconds``; what it saw into ``attack``."""
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe(duplex=False)
    child = context.Process(
        target=_attack_child,
        args=(name, server.tcp, server.web, count, attack.began, seconds, theirs),
        daemon=True,
    )
    child.start()
    theirs.close()
    try:
        ready = await asyncio.to_thread(ours.poll, seconds + 25)
        if ready:
            attack.opened, attack.drops, attack.notes = ours.recv()
    finally:
        child.join(timeout=5)
        if child.is_alive():
            child.kill()
            child.join()


# --------------------------------------------------------------------------
# one run
# --------------------------------------------------------------------------


def spread(values: list[float]) -> str:
    if not values:
        return "no samples"
    ordered = sorted(values)

    def at(fraction: float) -> float:
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] * 1000

    return f"p50 {at(0.5):.0f} ms, p99 {at(0.99):.0f} ms, max {ordered[-1] * 1000:.0f} ms ({len(values)} samples)"


async def soak(args: argparse.Namespace, attack_name: str) -> None:
    with tempfile.TemporaryDirectory(prefix="skyjo-web-soak-") as workdir:
        async with server_process(Path(args.code).resolve(), Path(workdir)) as server:
            stop_honest = asyncio.Event()
            tcp_phase, web_phase = ["quiet"], ["quiet"]
            tcp_times: dict[str, list[float]] = {}
            web_times: dict[str, list[float]] = {}
            web_ready = asyncio.Event()
            honest = [
                asyncio.create_task(tcp_player(server, stop_honest, tcp_times, tcp_phase)),
                asyncio.create_task(
                    web_player(server, stop_honest, web_times, web_phase, web_ready)
                ),
            ]
            await asyncio.wait_for(web_ready.wait(), 120)
            before = sample(server)
            await asyncio.sleep(args.quiet)
            log_at_attack = server.log.read_text(errors="replace")
            attack = Attack(began=time.monotonic())
            tcp_phase[0] = web_phase[0] = "attack"
            _attacker, default_count = ATTACKERS[attack_name]
            # The attacker in a process of its own: in this one, its thousands of
            # connections a second would slow the honest players' own loop, and their
            # figures would measure this benchmark, not the server.
            attacking = asyncio.create_task(
                _attack_from_another_process(
                    attack_name,
                    server,
                    attack,
                    args.attackers or default_count,
                    args.seconds,
                )
            )
            peak = before
            probes = Probes()
            next_probe = time.monotonic() + 3.0
            while time.monotonic() - attack.began < args.seconds:
                now = sample(server)
                peak = Sample(
                    max(peak.rss, now.rss), max(peak.rss_all, now.rss_all), max(peak.fds, now.fds)
                )
                if time.monotonic() >= next_probe:
                    await probes.run(server)
                    next_probe = time.monotonic() + 5.0
                else:
                    await asyncio.sleep(0.5)
            during = server.log.read_text(errors="replace")[len(log_at_attack) :]
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(attacking, 30)
            tcp_phase[0] = web_phase[0] = "after"
            await asyncio.sleep(3.0)
            after_probes = Probes()
            await after_probes.run(server)
            after = sample(server)
            stop_honest.set()
            for outcome in await asyncio.gather(*honest, return_exceptions=True):
                if isinstance(outcome, BaseException):
                    print(f"  an honest player failed: {outcome!r}")
            code = Path(args.code).resolve()
            count = args.attackers or default_count
            print(f"== {attack_name} ({args.seconds:.0f} s, {count} attackers) against {code}")
            print(f"  honest TCP moves     quiet:  {spread(tcp_times.get('quiet', []))}")
            print(f"                       attack: {spread(tcp_times.get('attack', []))}")
            print(f"  honest browser keys  quiet:  {spread(web_times.get('quiet', []))}")
            print(f"                       attack: {spread(web_times.get('attack', []))}")
            for lost in ("tcp lost", "web lost"):
                if lost in tcp_times or lost in web_times:
                    print(f"  {lost.split()[0]} honest player LOST its connection")
            print(
                f"  server RSS           before {before.rss / MiB:.0f} MiB, peak {peak.rss / MiB:.0f} MiB, "
                f"after {after.rss / MiB:.0f} MiB (with workers: {before.rss_all / MiB:.0f} / "
                f"{peak.rss_all / MiB:.0f} / {after.rss_all / MiB:.0f} MiB)"
            )
            print(f"  open descriptors     before {before.fds}, peak {peak.fds}, after {after.fds}")
            counts = log_counts(during)
            print(
                f"  log during attack    {counts['lines']} lines, {counts['warning+']} at WARNING or above, "
                f"{counts['tracebacks']} tracebacks"
            )
            drops = sorted(attack.drops)
            dropped = (
                f"{len(drops)} drops, first after {drops[0]:.1f} s, last after {drops[-1]:.1f} s"
                if drops
                else "never dropped"
            )
            print(f"  attacker             {attack.opened} connections opened; {dropped}")
            if attack.notes:
                print(f"                       {len(attack.notes)} refused, e.g. {attack.notes[0]}")
            slow = sorted((k for k in SLOWEST if k[2] == "attack"), reverse=True)[:3]
            print(
                "  slowest browser keys "
                + ", ".join(f"{t * 1000:.0f} ms at {at - attack.began:.1f} s" for t, at, _ in slow)
            )
            SLOWEST.clear()
            print(f"  probes during attack {probes.summary()}")
            print(f"  probes after attack  {after_probes.summary()}")
            if args.show_log:
                for line in during.splitlines()[-args.show_log :]:
                    print("   |", line[:200])


async def main_async(args: argparse.Namespace) -> None:
    # The attacker's own descriptors: more than the server's lowered limit.
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    attacks = ATTACKS if args.attack == "all" else (args.attack,)
    for attack in attacks:
        await soak(args, attack)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--attack", choices=(*ATTACKS, "all"), default="ping-flood")
    parser.add_argument("--code", default=str(HERE), help="the checkout whose server to run")
    parser.add_argument(
        "--quiet", type=float, default=8.0, help="seconds measured before the attack"
    )
    parser.add_argument("--seconds", type=float, default=35.0, help="seconds of attack")
    parser.add_argument(
        "--attackers", type=int, default=0, help="connections (0: the attack's default)"
    )
    parser.add_argument(
        "--show-log",
        type=int,
        default=0,
        metavar="N",
        help="print the last N log lines of the attack",
    )
    args = parser.parse_args()
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
