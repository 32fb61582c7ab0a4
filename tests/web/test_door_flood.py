"""Connections that never send a request cannot take the server's descriptors:
the browser door caps connections not upgraded yet, per address and in total,
refusing cheaply (no answer, no traceback, one WARNING line), while honest
players and health checks still get in.  Real sockets, from many 127.0.0.x
addresses; the last test runs the real ``skyjo-server`` with 1,024 descriptors.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import re
import resource
import subprocess
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import aiohttp
import pytest

from server.netclient import ServerConnection

from ..server.processes import SERVER
from .doorclient import TIMEOUT, door_client
from .webdoor import web_door

NAME_PROMPT = "Choose your name"
Idle = tuple[asyncio.StreamReader, asyncio.StreamWriter]


async def _idle_from(address: str, port: int) -> Idle:
    """A connection from ``address`` (a 127.0.0.x) that sends nothing."""
    return await asyncio.wait_for(
        asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0)), TIMEOUT
    )


async def _closed_by_server(connection: Idle) -> bool:
    """Until the server closed it (whatever it had answered before): True."""
    reader, _ = connection
    with contextlib.suppress(ConnectionResetError):
        await asyncio.wait_for(reader.read(), TIMEOUT)
    return True


async def _healthz(port: int, address: str | None = None) -> int:
    connector = aiohttp.TCPConnector(local_addr=(address, 0) if address else None)
    async with aiohttp.ClientSession(connector=connector) as session:
        async with session.get(
            f"http://127.0.0.1:{port}/healthz", timeout=aiohttp.ClientTimeout(total=TIMEOUT)
        ) as reply:
            return reply.status


async def _answers(connection: Idle) -> bytes:
    """A health check on an idle connection: its status line."""
    reader, writer = connection
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n")
    await writer.drain()
    return await asyncio.wait_for(reader.readline(), TIMEOUT)


@contextlib.asynccontextmanager
async def _holding() -> AsyncIterator[list[Idle]]:
    held: list[Idle] = []
    try:
        yield held
    finally:
        for _, writer in held:
            writer.close()


async def test_idle_connections_are_capped_per_address_and_in_total(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    # A deadline for the request far away: whatever closes a connection here is a cap.
    async with (
        web_door(
            tmp_path, max_pending=12, max_pending_per_address=6, handshake_timeout=3600
        ) as door,
        _holding() as held,
    ):
        port = door.web.port
        # One address: six wait for their request, a seventh and eighth are closed at once.
        held += [await _idle_from("127.0.0.2", port) for _ in range(8)]
        assert [await _closed_by_server(c) for c in held[6:]] == [True, True]
        # Another address fills the door (12 in all), and may not have more than the first.
        held += [await _idle_from("127.0.0.3", port) for _ in range(6)]
        third = await _idle_from("127.0.0.3", port)
        held.append(third)
        assert await _closed_by_server(third)
        # A health check and a new player from elsewhere get in all the same: the
        # heaviest address's oldest silent connection makes room, each time.
        assert await _healthz(port) == 200
        assert await _closed_by_server(held[0])
        async with door_client(door.url) as honest:
            await honest.shows(NAME_PROMPT)
        # Those left are still waiting, and answer when they speak.
        left = (*held[1:6], *held[8:14])
        assert [await _answers(c) for c in left] == [b"HTTP/1.1 200 OK\r\n"] * 11
        assert door.web.pending.refusals.count == 2 + 1 + 1
    loud = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not loud, [r.getMessage() for r in loud]
    said = [r for r in caplog.records if "closed before their request" in r.getMessage()]
    assert len(said) == 1 and said[0].levelno == logging.WARNING  # one line, not one each


async def test_a_trusted_proxy_brings_everyone_and_has_no_cap_of_its_own(tmp_path: Path) -> None:
    proxy = ipaddress.ip_network("127.0.0.6/32")
    async with (
        web_door(
            tmp_path,
            max_pending=12,
            max_pending_per_address=4,
            handshake_timeout=3600,
            trusted_proxies=(proxy,),
        ) as door,
        _holding() as held,
    ):
        held += [await _idle_from("127.0.0.6", door.web.port) for _ in range(8)]
        assert [await _answers(c) for c in held] == [b"HTTP/1.1 200 OK\r\n"] * 8
        assert door.web.pending.refusals.count == 0


@contextlib.contextmanager
def _server_with_1024_descriptors(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], Path]]:
    """``skyjo-server`` (TCP and web) whose descriptor limit, soft and hard, is 1,024."""

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))

    with real_server(tmp_path, workers=0, preexec_fn=limited) as started:
        yield started


@contextlib.contextmanager
def real_server(
    tmp_path: Path, *, workers: int, preexec_fn: Callable[[], None] | None = None
) -> Iterator[tuple[subprocess.Popen[bytes], Path]]:
    """``skyjo-server`` (TCP and web, the players' screens in ``workers`` processes), and
    its log (``_ports`` says where it listens), stopped at the end."""
    log = tmp_path / "server.log"

    command = [
        str(SERVER),
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--web-port",
        "0",
        "--no-ssh",
        "--no-admin",
        "--workers",
        str(workers),
        "--data-dir",
        str(tmp_path / "data"),
    ]
    with log.open("w") as out:
        process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=out, preexec_fn=preexec_fn
        )
    try:
        yield process, log
    finally:
        process.terminate()
        try:
            process.wait(TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(TIMEOUT)


def ports_of(process: subprocess.Popen[bytes], log: Path) -> tuple[int, int]:
    """The TCP and web ports, once the log says both listen."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        text = log.read_text()
        tcp = re.search(r"listening on 127\.0\.0\.1:(\d+)", text)
        web = re.search(r"Browser door on 127\.0\.0\.1:(\d+)", text)
        if tcp and web:
            return int(tcp.group(1)), int(web.group(1))
        assert process.poll() is None, text
        time.sleep(0.05)
    raise AssertionError(f"the server did not start:\n{log.read_text()}")


@pytest.fixture
def many_descriptors() -> Iterator[None]:
    """This test process holds the flood's ends: let it have the hard limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 4096 if hard == resource.RLIM_INFINITY else min(hard, 4096)
    if wanted < 2048:
        pytest.skip(f"this test holds 1,100 connections; the limit here is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted), hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


async def test_a_flood_of_idle_connections_leaves_room_for_players_and_health_checks(
    tmp_path: Path, many_descriptors: None
) -> None:
    """1,100 connections that never send a request, from 20 addresses, against a
    server with 1,024 descriptors: a TCP player, a browser and /healthz get in,
    and the log has no traceback (it had thousands: every accept failed)."""
    with _server_with_1024_descriptors(tmp_path) as (process, log):
        tcp_port, web_port = ports_of(process, log)
        async with _holding() as held:
            for i in range(1100):
                with contextlib.suppress(OSError, TimeoutError):
                    held.append(await _idle_from(f"127.0.0.{10 + i % 20}", web_port))
            assert await _healthz(web_port) == 200
            connection = await ServerConnection.open("127.0.0.1", tcp_port)
            try:
                welcome = await asyncio.wait_for(connection.hello(name="Ada"), TIMEOUT)
                assert welcome.name == "Ada"
            finally:
                await connection.close()
            async with door_client(f"http://127.0.0.1:{web_port}/") as browser:
                await browser.shows(NAME_PROMPT)
            assert await _healthz(web_port, "127.0.0.99") == 200
    text = log.read_text()
    assert "Traceback" not in text and " ERROR " not in text, text[-3000:]
    assert "1024 open files allowed: room for about" in text
    assert len(re.findall(r"WARNING .*closed before their request", text)) == 1
