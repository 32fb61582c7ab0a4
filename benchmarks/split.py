"""The lobby in one process, the doors in two (``skyjo-server --role lobby`` and two
``--role doors``), SSH players split between the door hosts: what each role costs.

    python benchmarks/split.py [--sessions N] [--keys K] [--gap S]

Three processes on 127.0.0.1 (fresh data directory, free ports, one worker process
per door host): the lobby, and door hosts A and B linked to it over TCP with a door
secret (``server.link``).  Players arrive one after another, alternating between
the door hosts (SSH, one key each, a PTY of 80x24; ``benchmarks/doors.py``'s
player), each reaching the lobby, creating a table, adding a bot and starting a
game; then every player presses ``--keys`` keys (the card cursor) ``--gap``
seconds apart on average.

Printed, from ``/proc`` (CPU time, robust to a busy machine): the lobby's CPU per
player's start and per connected player idle, the door hosts' (their own process
and their workers) per start and per key, the lobby's during the keys (a cursor
key is the door host's alone), key to frame through a door host, and the memory
of each role.  The lobby's CPU per move with thousands of linked players is
``benchmarks/load.py --door-links`` (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from doors import (  # beside this file (benchmarks/ is on the path above)
    SERVER,
    TIMEOUT,
    Player,
    SSHTerminal,
    cpu_seconds,
    cpu_split,
    free_port,
    rss_bytes,
    spread,
    wait_listening,
)

SECRET = b"benchmarks/split.py's door secret"


@contextlib.asynccontextmanager
async def role(args: list[str], port: int) -> AsyncIterator[int]:
    """One ``skyjo-server`` process, listening on ``port``; its pid."""
    proc = await asyncio.create_subprocess_exec(str(SERVER), *args, "--log-level", "WARNING")
    try:
        await wait_listening(port, proc)
        yield proc.pid
    finally:
        if proc.returncode is None:
            proc.terminate()
        try:
            await asyncio.wait_for(proc.wait(), TIMEOUT)
        except TimeoutError:
            proc.kill()
            await proc.wait()


async def bench(options: argparse.Namespace) -> None:
    capacity = str(options.sessions * 4 + 10)
    lobby_port = free_port()
    ssh_ports = [free_port(), free_port()]
    with tempfile.TemporaryDirectory(prefix="skyjo-split-bench-") as tmp:
        secret = Path(tmp, "door-secret")
        secret.write_bytes(SECRET)
        lobby_args = [
            "--role", "lobby", "--host", "127.0.0.1", "--port", str(lobby_port),
            "--data-dir", str(Path(tmp, "lobby")), "--door-secret", str(secret),
            "--max-tables", capacity, "--tables-per-address", capacity,
        ]  # fmt: skip

        def door_args(name: str, ssh_port: int) -> list[str]:
            return [
                "--role", "doors", "--lobby", f"127.0.0.1:{lobby_port}",
                "--door-secret", str(secret), "--door-name", name, "--host", "127.0.0.1",
                "--ssh-port", str(ssh_port), "--no-web", "--workers", "1",
                "--data-dir", str(Path(tmp, name)), "--max-screens", capacity,
                "--ssh-max-connections", capacity, "--ssh-max-per-address", capacity,
            ]  # fmt: skip

        async with (
            role(lobby_args, lobby_port) as lobby,
            role(door_args("door-a", ssh_ports[0]), ssh_ports[0]) as door_a,
            role(door_args("door-b", ssh_ports[1]), ssh_ports[1]) as door_b,
        ):
            await measure(options, lobby, [door_a, door_b], ssh_ports)


def player(port: int, name: str) -> Player:
    return Player("ssh", name, SSHTerminal(port, name))


async def measure(
    options: argparse.Namespace, lobby: int, doors: list[int], ports: list[int]
) -> None:
    rng = random.Random(1)
    for index, port in enumerate(ports):  # imports and caches: not per session
        warmup = player(port, f"w{index}")
        await warmup.arrive()
        await warmup.sit_down()
        await warmup.terminal.close()
    await asyncio.sleep(1.0)

    def cpu() -> tuple[float, list[tuple[float, float]]]:
        return cpu_seconds(lobby), [cpu_split(door) for door in doors]

    rss_lobby, rss_doors = rss_bytes(lobby), [rss_bytes(door) for door in doors]
    everyone = [player(ports[i % 2], f"p{i}") for i in range(options.sessions)]
    try:
        before = cpu()
        for each in everyone:
            await each.arrive()
            await each.sit_down()
        await asyncio.sleep(1.0)
        started = cpu()
        rss_lobby_after = rss_bytes(lobby)
        rss_doors_after = [rss_bytes(door) for door in doors]

        await asyncio.sleep(options.idle)
        idle = cpu()

        typing_since = time.perf_counter()
        await asyncio.gather(
            *(p.press_keys("typing", options.keys, options.gap, rng) for p in everyone)
        )
        typing_time = time.perf_counter() - typing_since
        typed = cpu()
    finally:
        await asyncio.gather(*(p.terminal.close() for p in everyone))

    sessions, keys = options.sessions, options.sessions * options.keys
    print(
        f"{sessions} SSH players, half through each of two door hosts (one worker each), "
        f"{options.keys} keys each, {options.gap} s apart"
    )
    lobby_start = (started[0] - before[0]) / sessions
    print(f"lobby: {lobby_start * 1000:.2f} ms CPU per player's start (to a game with a bot)")
    print(
        f"lobby: idle {(idle[0] - started[0]) / options.idle * 100:.1f}% of a core with "
        f"{sessions} players connected; {(typed[0] - idle[0]) / keys * 1000:.3f} ms "
        "CPU per key (a cursor key: none of its business)"
    )
    print(
        f"lobby memory: {rss_lobby / 2**20:.0f} MiB before, {rss_lobby_after / 2**20:.0f} MiB "
        f"with everyone ({(rss_lobby_after - rss_lobby) / sessions / 1024:.0f} KiB a player)"
    )
    per_door = sessions / len(doors)
    for index, name in enumerate(("door-a", "door-b")):
        own_start = (started[1][index][0] - before[1][index][0]) / per_door
        workers_start = (started[1][index][1] - before[1][index][1]) / per_door
        own_key = (typed[1][index][0] - idle[1][index][0]) / (keys / len(doors))
        workers_key = (typed[1][index][1] - idle[1][index][1]) / (keys / len(doors))
        grown = (rss_doors_after[index] - rss_doors[index]) / per_door / 2**20
        print(
            f"{name}: per start {(own_start + workers_start) * 1000:.0f} ms CPU "
            f"({own_start * 1000:.0f} door process, {workers_start * 1000:.0f} worker); "
            f"per key {(own_key + workers_key) * 1000:.2f} ms ({own_key * 1000:.2f} door "
            f"process, {workers_key * 1000:.2f} worker); {grown:.1f} MiB a player"
        )
    times = [t for p in everyone for t in p.keys.get("typing", [])]
    print(f"key to frame through a door host: {spread(times)} over {typing_time:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sessions", type=int, default=40, help="players, both door hosts")
    parser.add_argument("--keys", type=int, default=10, help="keys each player presses")
    parser.add_argument("--gap", type=float, default=1.0, help="mean seconds between keys")
    parser.add_argument("--idle", type=float, default=5.0, help="seconds of idle measured")
    asyncio.run(bench(parser.parse_args()))


if __name__ == "__main__":
    main()
