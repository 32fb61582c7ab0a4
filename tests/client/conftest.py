"""Fixtures of the client's tests: the app as the CLI builds it, real servers on 127.0.0.1."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from server.admin.door import AdminDoor
from server.app import SkyjoServer
from server.config import Limits, Pace, ServerConfig
from server.netclient import ServerConnection
from skyjo_tui.app import SkyjoApp, build_app

from ..support_server import StartServer, started_servers
from .relay import Relay

#: No pauses anywhere: bots move at once; the next round waits for "ready" (never the clock).
ZERO_PACE = Pace(bot_delay=0.0, grace_period=60.0, between_rounds=600.0)
TEST_LIMITS = Limits(max_connections_per_address=64, messages_per_second=5000, message_burst=5000)


@pytest.fixture
def make_app(tmp_path: Path) -> Callable[..., SkyjoApp]:
    """``build_app`` with English, others' moves shown at once, data in ``tmp_path``."""

    def make(connect: Any = None, **options: Any) -> SkyjoApp:
        options.setdefault("lang", "en")
        options.setdefault("environ", {})
        options.setdefault("pace", "off")
        options.setdefault("data_dir", tmp_path / "client")
        options.setdefault("local_pace", ZERO_PACE)
        return build_app(connect, **options)

    return make


def server_config(data_dir: Path, **changes: Any) -> ServerConfig:
    values: dict[str, Any] = {
        "host": "127.0.0.1",
        "port": 0,
        "data_dir": data_dir,
        "pace": ZERO_PACE,
        "limits": TEST_LIMITS,
    }
    values.update(changes)
    return ServerConfig(**values)


@pytest.fixture
async def make_server(tmp_path: Path) -> AsyncIterator[StartServer]:
    """Real servers on 127.0.0.1, any free port; every one is stopped after the test."""
    async with started_servers(tmp_path, server_config) as start:
        yield start


T = TypeVar("T")
THREAD_TIMEOUT = 20.0


class ThreadedServer:
    """A real server on its own event loop in a thread, for tests whose app runs in
    another loop (snapshot tests run the app themselves)."""

    def __init__(self, data_dir: Path) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="test-server", daemon=True
        )
        self._thread.start()
        self._server = SkyjoServer(server_config(data_dir))
        self._clients: list[ServerConnection] = []
        self.run(self._server.start())
        self.port = self._server.port

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` on the server's loop from a plain thread."""
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(THREAD_TIMEOUT)

    async def run_from_other_loop(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` on the server's loop, awaited from another running loop."""
        future = asyncio.run_coroutine_threadsafe(coro, self._loop)
        return await asyncio.wait_for(asyncio.wrap_future(future), THREAD_TIMEOUT)

    async def client(self, name: str) -> ServerConnection:
        """A logged-in player on the server's loop (closed with the server)."""
        conn = await ServerConnection.open("127.0.0.1", self.port)
        self._clients.append(conn)
        await conn.hello(name=name)
        return conn

    def stop(self) -> None:
        async def stop_all() -> None:
            for conn in self._clients:
                await conn.close()
            await self._server.stop()

        try:
            self.run(stop_all())
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(THREAD_TIMEOUT)
            self._loop.close()


@pytest.fixture
def server_in_thread(tmp_path: Path) -> Iterator[ThreadedServer]:
    server = ThreadedServer(tmp_path / "threaded-server")
    yield server
    server.stop()


@pytest.fixture
async def server(make_server: StartServer) -> SkyjoServer:
    """A fresh server (tests that need other settings define their own ``server``)."""
    return await make_server()


@pytest.fixture
async def admin_server(tmp_path: Path) -> AsyncIterator[SkyjoServer]:
    """A server with its admin socket (``skyjo-server admin``), as ``skyjo-server`` runs it."""
    server = SkyjoServer(server_config(tmp_path / "server"))
    server.add_front_door(AdminDoor())
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
async def relay(server: SkyjoServer) -> AsyncIterator[Relay]:
    """A relay between the client and ``server`` that the test can hold or cut."""
    relay = Relay(server.port)
    await relay.start()
    yield relay
    await relay.stop()
