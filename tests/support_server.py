"""Real lobby servers for the tests, always stopped; which loopback addresses exist here.

Each test folder keeps its own configuration (127.0.0.1, port 0, its pace
and limits); how servers are started and stopped is here, once.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from server.app import SkyjoServer
from server.config import ServerConfig

#: ``start(data_dir=None, **config_changes)``: a started server.
StartServer = Callable[..., Awaitable[SkyjoServer]]
#: ``config_for(data_dir, **config_changes)``: the configuration to start with.
ConfigFor = Callable[..., ServerConfig]


@contextlib.asynccontextmanager
async def started_servers(data_root: Path, config_for: ConfigFor) -> AsyncIterator[StartServer]:
    """Yield ``start``; every server it started is stopped when the block ends.

    A server gets its own directory under ``data_root`` unless ``start`` is
    given one (to restart a server on the same data).
    """
    servers: list[SkyjoServer] = []

    async def start(data_dir: Path | None = None, **changes: Any) -> SkyjoServer:
        data_dir = data_dir or data_root / f"server-{len(servers)}"
        server = SkyjoServer(config_for(data_dir, **changes))
        await server.start()
        servers.append(server)
        return server

    try:
        yield start
    finally:
        for server in servers:
            await server.stop()


def _ipv6_loopback_unusable() -> str | None:
    """Why ::1 cannot be listened on here, or None when it can."""
    if not socket.has_ipv6:
        return "this Python has no IPv6 support"
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as probe:
            probe.bind(("::1", 0))
    except OSError as exc:
        return f"this machine cannot bind ::1 ({exc})"
    return None


_NO_IPV6_LOOPBACK = _ipv6_loopback_unusable()
#: For tests that connect to ::1: skipped, with the reason, where it cannot be bound.
needs_ipv6_loopback = pytest.mark.skipif(
    _NO_IPV6_LOOPBACK is not None, reason=f"::1 is not usable: {_NO_IPV6_LOOPBACK}"
)
#: Parameters: the loopback addresses a test may connect to here.
LOOPBACKS = ["127.0.0.1", pytest.param("::1", marks=needs_ipv6_loopback)]
