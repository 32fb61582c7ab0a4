"""The Prometheus endpoint over the SSH door: screens by door, worker processes, players by door."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncssh

from server.metrics import MetricsEndpoint
from server.termhost.options import WorkerOptions

from ..support_metrics import Samples, by_label, scrape
from .realdoor import player, real_door
from .sshkit import TIMEOUT


async def test_ssh_screens_players_and_workers_are_read_when_scraped(tmp_path: Path) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with real_door(tmp_path, workers=WorkerOptions(processes=1, start_timeout=60.0)) as door:
        endpoint = MetricsEndpoint("127.0.0.1", 0, door.door.game_host)
        await endpoint.start(door.server)
        try:
            idle = await scrape(endpoint.port)
            assert by_label(idle, "skyjo_terminal_sessions", "door") == {"ssh": 0, "web": 0}
            assert idle[("skyjo_worker_processes", ())] == 1
            async with player(door.port, "alice", key) as alice:
                await alice.shows("Lobby · alice")
                playing = await scrape(endpoint.port)
            assert by_label(playing, "skyjo_terminal_sessions", "door") == {"ssh": 1, "web": 0}
            online = by_label(playing, "skyjo_players_online", "door")
            assert online == {"tcp": 0, "local": 0, "ssh": 1, "web": 0}

            # Once the connection is gone, so is its screen (the host's own record says so).
            async with asyncio.timeout(TIMEOUT):
                while screens_open(await scrape(endpoint.port)):  # noqa: ASYNC110 - polls a scrape
                    await asyncio.sleep(0.05)
        finally:
            await endpoint.stop()


def screens_open(scraped: Samples) -> float:
    """SSH screens the scrape counts."""
    return by_label(scraped, "skyjo_terminal_sessions", "door")["ssh"]
