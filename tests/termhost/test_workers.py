"""The SSH sessions' apps in worker processes: real processes, real SSH, the real client."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from textual.app import App

from server.ssh.connection import create_app_server
from server.ssh.transport import SSHSessions
from server.termhost import HostLimits, SessionHost, SessionInfo
from server.termhost.worker import HostSettings
from server.termhost.workers import WorkerOptions, WorkerPool, WorkerUnavailable

from ..ssh.realdoor import (
    RealDoor,
    create_table,
    first_to_show,
    join_first_table,
    player,
    real_door,
    take_the_discard,
    turn_up_two_cards,
)
from ..ssh.sshkit import Term, poll_until
from .test_driver import HOST_KEY, Harness, NoAuthServer, open_term

STARTUP = 60.0
"""Seconds for worker processes to import the client (slow under a loaded CI machine)."""


@pytest.fixture(scope="module")
def keys() -> dict[str, asyncssh.SSHKey]:
    return {
        name: asyncssh.generate_private_key("ssh-ed25519") for name in ("alice", "bob", "carol")
    }


@contextlib.asynccontextmanager
async def door_with_workers(tmp_path: Path, **options: float) -> AsyncIterator[RealDoor]:
    workers = WorkerOptions(start_timeout=STARTUP, **options)  # type: ignore[arg-type]
    pids: list[int] = []
    async with real_door(tmp_path, workers=workers) as door:
        pids = [pid for pid, _live, _retiring in pool_of(door).counts() if pid]
        yield door
        pids += [pid for pid, _live, _retiring in pool_of(door).counts() if pid]
    for pid in pids:  # the server stopped them all
        assert not alive(pid), f"worker {pid} still running after the server stopped"


def pool_of(door: RealDoor) -> WorkerPool:
    manager = door.door.manager
    assert manager is not None and manager.host.pool is not None
    return manager.host.pool


def alive(pid: int) -> bool:
    """Is ``pid`` running (asyncio reaps our children: a dead worker leaves no zombie)?"""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with contextlib.suppress(OSError), open(f"/proc/{pid}/stat") as stat:
        if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
            return False  # exited, not yet reaped by asyncio's child watcher
    return True


def worker_of(door: RealDoor, session_index: int) -> int:
    """pid of the worker running the ``session_index``-th live session."""
    sessions = sorted(
        (sid, worker.pid) for worker in pool_of(door).workers for sid in worker.sessions
    )
    pid = sessions[session_index][1]
    assert pid is not None
    return pid


@contextlib.asynccontextmanager
async def alice_and_bob_in_the_lobby(
    door: RealDoor, keys: dict[str, asyncssh.SSHKey]
) -> AsyncIterator[tuple[Term, Term]]:
    async with (
        player(door.port, "alice", keys["alice"]) as alice,
        player(door.port, "bob", keys["bob"]) as bob,
    ):
        await alice.shows("Lobby · alice")
        await bob.shows("Lobby · bob")
        yield alice, bob


async def the_others_play_on(door: RealDoor, bob: Term, keys: dict[str, asyncssh.SSHKey]) -> None:
    """After alice's worker went: bob's game goes on, a new worker takes its place, and
    a newcomer gets in."""
    bob.press(b"n")
    await bob.shows("New table")
    await poll_until(
        lambda: sum(1 for w in pool_of(door).workers if w.accepting) == 2,
        "a worker in place of the lost one",
        STARTUP,
    )
    async with player(door.port, "carol", keys["carol"]) as carol:
        await carol.shows("Lobby · carol")


async def test_two_players_in_two_workers_play_together(
    tmp_path: Path, keys: dict[str, asyncssh.SSHKey]
) -> None:
    async with door_with_workers(tmp_path, processes=2) as door:
        async with alice_and_bob_in_the_lobby(door, keys) as (alice, bob):
            assert sorted(live for _pid, live, _r in pool_of(door).counts()) == [1, 1]
            assert os.getpid() not in {worker_of(door, 0), worker_of(door, 1)}
            await create_table(alice)
            await join_first_table(bob, "alice's table")
            bob.press(b"r")
            await alice.shows("✓")
            alice.press(b"s")
            await turn_up_two_cards(alice, "alice")
            await turn_up_two_cards(bob, "bob")
            names, terms = ["alice", "bob"], [alice, bob]
            mover = await first_to_show(terms, "Your turn:")
            await take_the_discard(terms[mover])
            await terms[1 - mover].shows(f"{names[mover]} took the")


async def test_a_player_who_drops_comes_back_to_the_seat(
    tmp_path: Path, keys: dict[str, asyncssh.SSHKey]
) -> None:
    async with door_with_workers(tmp_path, processes=1) as door:
        async with player(door.port, "alice", keys["alice"]) as alice:
            await alice.shows("Lobby · alice")
            await create_table(alice)
            alice.press(b"b")
            await alice.shows("bot")
            alice.press(b"s")
            await turn_up_two_cards(alice, "alice")
            alice.proc.channel.get_connection().abort()
        await poll_until(lambda: not pool_of(door).workers[0].sessions, "the session ended", 10.0)
        async with player(door.port, "skyjo", keys["alice"]) as alice:
            await alice.shows("Round 1")  # straight back to her table, by her key


async def test_a_dead_worker_takes_only_its_own_sessions(
    tmp_path: Path, keys: dict[str, asyncssh.SSHKey]
) -> None:
    async with door_with_workers(tmp_path, processes=2) as door:
        async with alice_and_bob_in_the_lobby(door, keys) as (alice, bob):
            alices_worker = worker_of(door, 0)
            assert alices_worker != worker_of(door, 1)
            os.kill(alices_worker, signal.SIGKILL)
            assert await alice.exit_status() == 1
            assert "something went wrong" in alice.screen.text + alice.text
            await the_others_play_on(door, bob, keys)


async def test_a_stuck_worker_is_killed_and_replaced(
    tmp_path: Path, keys: dict[str, asyncssh.SSHKey]
) -> None:
    """An app that never yields (here: the process stopped) takes only its own worker,
    found out when its player types."""
    async with door_with_workers(
        tmp_path, processes=2, heartbeat_interval=0.2, heartbeat_timeout=1.5
    ) as door:
        async with alice_and_bob_in_the_lobby(door, keys) as (alice, bob):
            stuck = worker_of(door, 0)
            os.kill(stuck, signal.SIGSTOP)
            await asyncio.sleep(0.3)  # quiet for longer than heartbeat_interval
            alice.press(b"n")  # a key to a stuck worker: a ping, never answered
            try:
                await alice.wait_until(
                    lambda text: "something went wrong" in text, "the crash message", 15.0
                )
                assert await alice.exit_status() == 1
            finally:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(stuck, signal.SIGCONT)
            # Killed by the heartbeat: gone once the kill lands and asyncio reaps it.
            await poll_until(lambda: not alive(stuck), "the stuck worker killed", 20.0)
            await the_others_play_on(door, bob, keys)


async def test_workers_that_cannot_start_are_a_clear_error(tmp_path: Path) -> None:
    async def no_lobby(_info: object) -> socket.socket:
        raise AssertionError("no session expected")

    pool = WorkerPool(
        WorkerOptions(processes=1, start_timeout=STARTUP),
        "no_such_module_here:build",
        describe=lambda _info: {},
        connect_lobby=no_lobby,
        settings=HostSettings(crashed="x", stop_timeout=1.0, pending_input_cap=10),
    )
    try:
        with pytest.raises(WorkerUnavailable, match="before it was ready"):
            await pool.start()
    finally:
        await asyncio.wait_for(pool.close(), 10.0)
    assert pool.workers == []  # and nothing is being started again


async def test_a_worker_is_recycled_and_exits_when_its_last_player_leaves(
    tmp_path: Path, keys: dict[str, asyncssh.SSHKey]
) -> None:
    async with door_with_workers(tmp_path, processes=1, recycle_after=2) as door:
        first = pool_of(door).workers[0].pid
        assert first is not None
        async with player(door.port, "carol", keys["carol"]) as carol:
            await carol.shows("Lobby · carol")
            for name in ("alice", "bob"):  # two sessions end in the first worker
                async with player(door.port, name, keys[name]) as term:
                    await term.shows(f"Lobby · {name}")
                    term.press(b"q")
                    await term.shows("Leave this server?")
                    term.press(b"y")
                    assert await term.exit_status() == 0
            # Recycled: a new worker takes new sessions; the first one still
            # runs carol's game, and exits once she leaves.
            await poll_until(
                lambda: any(w.accepting and w.pid != first for w in pool_of(door).workers),
                "a fresh worker",
                STARTUP,
            )
            async with player(door.port, "bob", keys["bob"]) as bob:
                await bob.shows("Lobby · bob")
                assert worker_of(door, 1) != first
            assert alive(first)
            carol.press(b"n")
            await carol.shows("New table")
        await poll_until(lambda: not alive(first), "the recycled worker exited", 10.0)


async def test_a_player_arriving_as_the_only_worker_retires_gets_the_next_one(
    tmp_path: Path, keys: dict[str, asyncssh.SSHKey]
) -> None:
    async with door_with_workers(tmp_path, processes=1, recycle_after=1) as door:
        first = pool_of(door).workers[0].pid
        async with player(door.port, "alice", keys["alice"]) as alice:
            await alice.shows("Lobby · alice")
            alice.press(b"q")
            await alice.shows("Leave this server?")
            alice.press(b"y")
            assert await alice.exit_status() == 0  # her worker retires and exits
        async with player(door.port, "bob", keys["bob"]) as bob:  # while the next one starts
            await bob.shows("Lobby · bob", timeout=STARTUP)
            assert worker_of(door, 0) != first


async def test_the_server_stops_promptly_while_a_worker_is_being_replaced(
    tmp_path: Path, keys: dict[str, asyncssh.SSHKey]
) -> None:
    async with door_with_workers(tmp_path, processes=1, recycle_after=1) as door:
        async with player(door.port, "alice", keys["alice"]) as alice:
            await alice.shows("Lobby · alice")
            alice.press(b"q")
            await alice.shows("Leave this server?")
            alice.press(b"y")
            assert await alice.exit_status() == 0  # her worker retires; another starts
        await asyncio.wait_for(door.server.stop(), 10.0)
        assert pool_of(door).workers == []


async def test_resize_reaches_an_app_in_a_worker(
    tmp_path: Path, keys: dict[str, asyncssh.SSHKey]
) -> None:
    def chat_box_ends_at(width: int) -> object:
        def ends(text: str) -> bool:  # the lobby chat's top right corner
            return any(line.endswith("╮") and len(line) == width for line in text.splitlines())

        return ends

    async with door_with_workers(tmp_path, processes=1) as door:
        async with player(door.port, "alice", keys["alice"]) as alice:
            await alice.shows("Lobby · alice")
            alice.resize(120, 40)
            await alice.wait_until(chat_box_ends_at(120), "the lobby at 120 columns")  # type: ignore[arg-type]
            alice.resize(30, 10)
            await alice.shows("The terminal is too small")


async def test_the_server_stops_with_players_in_workers(
    tmp_path: Path, keys: dict[str, asyncssh.SSHKey]
) -> None:
    """Every worker exits with the server; the players' sessions end cleanly."""
    async with door_with_workers(tmp_path, processes=2) as door:
        term_context = player(door.port, "alice", keys["alice"])
        alice = await term_context.__aenter__()
        try:
            await alice.shows("Lobby · alice")
            await asyncio.wait_for(door.server.stop(), 30.0)
            assert await alice.exit_status() is not None
        finally:
            with contextlib.suppress(Exception):
                await term_context.__aexit__(None, None, None)


# --------------------------------------------------------------------------
# the generic layer with workers: a test app that crashes and hangs on demand
# --------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def counter_apps_in_a_worker() -> AsyncIterator[Harness]:
    """``test_driver``'s CounterApp served from one worker process."""

    def in_process(info: SessionInfo) -> App[Any]:
        raise AssertionError("apps run in the worker")

    async def no_lobby(_info: SessionInfo) -> socket.socket:
        raise AssertionError("the counter app opens no lobby connection")

    host = SessionHost(in_process, limits=HostLimits(stop_timeout=1.0))
    host.pool = WorkerPool(
        WorkerOptions(processes=1, start_timeout=STARTUP),
        "tests.termhost.test_driver:remote_counter_app",
        describe=lambda _info: {},
        connect_lobby=no_lobby,
        settings=HostSettings(
            crashed=host.messages.crashed, stop_timeout=1.0, pending_input_cap=1024
        ),
    )
    await host.pool.start()
    manager = SSHSessions(host)
    acceptor = await create_app_server(
        manager,
        "127.0.0.1",
        0,
        server_factory=lambda: NoAuthServer(manager),
        server_host_keys=[HOST_KEY],
    )
    try:
        yield Harness(manager, acceptor.get_port())
    finally:
        acceptor.close()
        await manager.close(timeout=2.0)
        await host.close(timeout=2.0)
        await asyncio.wait_for(acceptor.wait_closed(), 10.0)


async def test_a_crash_in_a_worker_closes_only_that_session(
    capfd: pytest.CaptureFixture[str],
) -> None:
    async with counter_apps_in_a_worker() as harness:
        async with open_term(harness, "alice") as alice, open_term(harness, "bob") as bob:
            alice.press(b"x")  # the app raises
            assert await alice.exit_status() == 1
            assert "something went wrong" in alice.text
            assert "boom from the test app" not in alice.text  # no traceback to clients
            bob.press(b"a")  # the same worker goes on serving bob
            await bob.wait_for("PRESSED 1")
            async with open_term(harness, "broken", wait_ready=False) as broken:
                assert await broken.exit_status() == 1  # the factory raised
                assert "something went wrong" in broken.text
            bob.press(b"a")
            await bob.wait_for("PRESSED 2")
    logged = capfd.readouterr().err  # the worker logs to the server's stderr
    assert "boom from the test app" in logged and "factory failed" in logged


async def test_an_app_that_hangs_after_its_player_left_is_cancelled(
    capfd: pytest.CaptureFixture[str],
) -> None:
    async with counter_apps_in_a_worker() as harness:
        async with open_term(harness, "bob") as bob:
            async with open_term(harness, "alice") as alice:
                alice.press(b"h")  # the app's message loop sleeps 60 s
                await alice.wait_for("HANGING")
            # alice left; her app is cancelled after stop_timeout (1 s) in the worker
            await poll_until(
                lambda: len(harness.manager.sessions) == 1, "alice's session ended", 10.0
            )
            bob.press(b"a")
            await bob.wait_for("PRESSED 1")
    worker_log = [line for line in capfd.readouterr().err.splitlines() if " worker " in line]
    assert any("did not exit in time; cancelling" in line for line in worker_log)
