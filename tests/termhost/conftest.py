"""The real client hosted as the doors host it, against a real lobby on 127.0.0.1."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from server.app import SkyjoServer
from server.config import Pace, ServerConfig
from server.doors.game import in_process_app_factory, skyjo_app_factory
from server.termhost import DoorPlayer, HostLimits, SessionHost, SessionStart
from server.termhost.hosted import HostedSession

from .pyteterm import PyteTransport, until

SIZE = (80, 24)


class HostedClients:
    """Opens players' sessions of the real client, each on its own pyte terminal."""

    def __init__(self, host: SessionHost) -> None:
        self.host = host

    async def lobby(self, name: str, *, sync: bool = False) -> tuple[HostedSession, PyteTransport]:
        """A new player's session, once its lobby is drawn (``sync``: on a terminal with
        synchronized updates)."""
        transport = PyteTransport(SIZE, sync=sync)
        player = DoorPlayer("ssh", f"test:{name}", name, "127.0.0.1", name)
        session = self.host.open(transport, SessionStart(player, size=SIZE))
        assert session is not None
        transport.session = session
        await until(lambda: f"Lobby · {name}" in transport.text, f"{name}'s lobby")
        return session, transport


@pytest.fixture
async def hosted(tmp_path: Path) -> AsyncIterator[HostedClients]:
    config = ServerConfig(
        host="127.0.0.1", port=0, data_dir=tmp_path, pace=Pace(bot_delay=0.0, between_rounds=0.0)
    )
    server = SkyjoServer(config)
    await server.start()
    host = SessionHost(
        in_process_app_factory(server, skyjo_app_factory),
        limits=HostLimits(max_sessions=4, idle_timeout=None),
    )
    try:
        yield HostedClients(host)
    finally:
        await host.close()
        await server.stop()
