"""The Prometheus endpoint: a real server, real moves, scraped over HTTP."""

from __future__ import annotations

import asyncio
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from server.metrics import MetricsEndpoint
from server.netclient import ServerConnection

from ..support_metrics import by_label, fetch, scrape
from ..support_server import StartServer
from .processes import SERVER
from .support import WAIT, Client, table_with


async def test_a_scrape_shows_who_is_online_by_door_the_tables_and_the_moves(
    make_server: StartServer,
) -> None:
    server = await make_server()
    endpoint = MetricsEndpoint("127.0.0.1", 0)
    await endpoint.start(server)
    alice = bob = carol = None
    try:
        alice = await Client.connect(server, "Alice")  # over TCP
        reader, writer = await server.open_in_process()  # the local game's way in
        bob = Client(ServerConnection.from_streams(reader, writer))
        await bob.conn.hello(name="Bob")
        carol = await Client.connect(server, "Carol")
        await table_with(carol, seats=3)  # a table waiting for players
        table = await table_with(alice, seats=2)
        await bob.request("join_table", code=table["code"])
        await bob.request("ready")
        await alice.request("start_game")
        await alice.until(lambda: alice.game is not None and bool(alice.view["legal_actions"]))

        before = await scrape(endpoint.port)
        assert before[("skyjo_moves_total", ())] == 0
        await alice.conn.act(alice.view["legal_actions"][0], timeout=WAIT)  # one flip
        after = await scrape(endpoint.port)
    finally:
        for client in (alice, bob, carol):
            if client is not None:
                await client.close()
        await endpoint.stop()

    assert by_label(after, "skyjo_players_online", "door") == {
        "tcp": 2,
        "local": 1,
        "ssh": 0,
        "web": 0,
    }
    assert by_label(after, "skyjo_tables", "phase") == {
        "waiting": 1,
        "playing": 1,
        "between_rounds": 0,
        "finished": 0,
    }
    assert after[("skyjo_moves_total", ())] == 1
    assert after[("skyjo_move_broadcast_seconds_count", ())] == 1
    assert after[("skyjo_move_broadcast_seconds_sum", ())] > 0
    writes = after[("skyjo_database_write_seconds_count", ())]
    assert writes > before[("skyjo_database_write_seconds_count", ())]  # the move was stored
    assert by_label(after, "skyjo_terminal_sessions", "door") == {"ssh": 0, "web": 0}
    assert after[("skyjo_worker_processes", ())] == 0


async def test_the_endpoint_answers_only_its_path_and_stops_with_the_server(
    make_server: StartServer,
) -> None:
    server = await make_server()
    endpoint = MetricsEndpoint("127.0.0.1", 0)
    await endpoint.start(server)
    try:
        status, text = await asyncio.to_thread(fetch, f"http://127.0.0.1:{endpoint.port}/secrets")
        assert status == 404 and "/metrics" in text
    finally:
        await endpoint.stop()
    with pytest.raises(OSError):
        await asyncio.to_thread(fetch, f"http://127.0.0.1:{endpoint.port}/metrics")


def test_skyjo_server_serves_metrics_on_request_only(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    command = [
        str(SERVER),
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--no-ssh",
        "--data-dir",
        str(tmp_path / "data"),
        "--metrics-port",
        "0",
    ]
    process = subprocess.Popen(command, stderr=log.open("w"), stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + WAIT
        while (
            found := re.search(r"metrics on http://127\.0\.0\.1:(\d+)/metrics", log.read_text())
        ) is None:
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        samples = asyncio.run(scrape(int(found.group(1))))
        assert by_label(samples, "skyjo_players_online", "door")["tcp"] == 0
        assert samples[("skyjo_moves_total", ())] == 0
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(WAIT) == 0
    # Without --metrics-port, prometheus-client is not even imported.
    probe = (
        "import sys, server.cli; server.cli.build_parser().parse_args([]); "
        "print('prometheus_client' in sys.modules)"
    )
    assert (
        subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, check=True
        ).stdout
        == "False\n"
    )
