"""In-process connections (the local game, each SSH session) cost nothing while idle.

Their peer is the app that owns them, not a network peer that may vanish: the
server never closes them for idling, the client sends no pings over them, and
once closed nothing the connection started keeps it (or its app) alive.
"""

from __future__ import annotations

import asyncio
import gc
import weakref
from dataclasses import replace

from server.app import SkyjoServer
from server.netclient import ServerConnection

from .support import TEST_LIMITS, WAIT

IDLE_LIMITS = replace(TEST_LIMITS, idle_timeout=0.3, hello_timeout=5.0)


async def in_process(server: SkyjoServer) -> ServerConnection:
    reader, writer = await server.open_in_process()
    return ServerConnection.from_streams(reader, writer)


def live_timers() -> set[asyncio.TimerHandle]:
    """The timers that will wake the event loop (cancelled ones never run)."""
    scheduled: list[asyncio.TimerHandle] = asyncio.get_running_loop()._scheduled  # type: ignore[attr-defined]  # noqa: SLF001 - the test looks inside
    return {timer for timer in scheduled if not timer.cancelled()}


async def settle() -> None:
    """Let the callbacks already due run (replies read, timers cancelled)."""
    for _ in range(20):
        await asyncio.sleep(0)


async def test_an_idle_in_process_connection_outlives_the_idle_timeout(make_server) -> None:
    server = await make_server(limits=IDLE_LIMITS)
    local = await in_process(server)
    await local.hello(name="Local")  # default keepalive: as a front door opens it
    remote = await ServerConnection.open("127.0.0.1", server.port)
    await remote.hello(name="Remote", keepalive=0)  # as silent as the local one

    # Welcomed later, the remote connection is closed for idling first...
    lost = await asyncio.wait_for(remote.wait_lost(), WAIT)
    assert lost is not None and lost.code == "idle_timeout"
    # ...yet the local one, silent for longer, is still open and answers.
    assert not local.closed
    assert (await local.request({"type": "ping"}, timeout=WAIT))["type"] == "ok"
    await remote.close()
    await local.close()


async def test_an_idle_in_process_connection_schedules_no_timer(make_server) -> None:
    server = await make_server(limits=replace(TEST_LIMITS, idle_timeout=30.0))
    await settle()
    before = live_timers()
    local = await in_process(server)
    await local.hello(name="Local")
    await local.request({"type": "list_tables"})
    await settle()
    assert live_timers() - before == set()  # no idle deadline, no keepalive ping

    # Over TCP both stay: the server's idle deadline and the client's ping.
    remote = await ServerConnection.open("127.0.0.1", server.port)
    await remote.hello(name="Remote")
    await settle()
    assert len(live_timers() - before) == 2
    await remote.close()
    await local.close()


async def test_a_closed_connection_is_freed(make_server) -> None:
    server = await make_server(limits=replace(TEST_LIMITS, idle_timeout=30.0))
    local = await in_process(server)
    remote = await ServerConnection.open("127.0.0.1", server.port)
    await local.hello(name="Local")
    await remote.hello(name="Remote")  # pings every 10 s until closed
    for conn in (local, remote):
        await conn.request({"type": "list_tables"})
        await conn.close()
    refs = [weakref.ref(local), weakref.ref(remote)]
    del local, remote, conn
    gc.collect()
    assert [ref() for ref in refs] == [None, None]
