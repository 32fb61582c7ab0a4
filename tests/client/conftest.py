"""Fixtures of the client's tests: the app as the CLI builds it, real servers on 127.0.0.1."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from server.app import SkyjoServer
from server.config import Limits, Pace, ServerConfig
from skyjo_tui.app import SkyjoApp, build_app

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
        "host": "127.0.0.1", "port": 0, "data_dir": data_dir, "pace": ZERO_PACE, "limits": TEST_LIMITS,
    }
    values.update(changes)
    return ServerConfig(**values)


@pytest.fixture
async def make_server(tmp_path: Path) -> AsyncIterator[Callable[..., Awaitable[SkyjoServer]]]:
    """Real servers on 127.0.0.1, any free port; every one is stopped after the test."""
    servers: list[SkyjoServer] = []

    async def start(**changes: Any) -> SkyjoServer:
        server = SkyjoServer(server_config(tmp_path / f"server{len(servers)}", **changes))
        await server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        await server.stop()
