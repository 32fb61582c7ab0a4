from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from server.app import SkyjoServer

from ..support_server import StartServer, started_servers
from .processes import ServerProcess
from .support import Client, server_config

ServerFactory = StartServer


@pytest.fixture
async def make_server(tmp_path: Path) -> AsyncIterator[ServerFactory]:
    """Start servers on 127.0.0.1, each with its own data directory unless given; all stopped after."""
    async with started_servers(tmp_path, server_config) as start:
        yield start


@pytest.fixture
async def server(make_server: ServerFactory) -> SkyjoServer:
    return await make_server()


@pytest.fixture
async def connect(server: SkyjoServer) -> AsyncIterator[Callable[..., Awaitable[Client]]]:
    """Connect named clients to ``server``; all closed after the test."""
    clients: list[Client] = []

    async def open_client(
        name: str | None = None, *, to: SkyjoServer | None = None, **hello: Any
    ) -> Client:
        client = await Client.connect(to or server, name, **hello)
        clients.append(client)
        return client

    yield open_client
    for client in clients:
        await client.close()


@pytest.fixture
def processes() -> Iterator[list[ServerProcess]]:
    """``skyjo-server`` processes a test started (append them); any still running is killed after."""
    started: list[ServerProcess] = []
    yield started
    for server in started:
        if server.process.poll() is None:
            server.kill()
