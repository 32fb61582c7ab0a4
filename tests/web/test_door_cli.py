"""skyjo-server's browser door as the command line builds it: on the shared host,
listening where --host says, and not loaded at all with --no-web."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from server import cli
from server.app import SkyjoServer

from ..support_server import LOOPBACKS
from .doorclient import door_client

NAME_PROMPT = "Choose your name"


@pytest.fixture
def web_only(monkeypatch: pytest.MonkeyPatch) -> None:
    from server.web.options import WEB_DOOR

    monkeypatch.setattr(cli, "DOORS", [WEB_DOOR])
    # The GC policy is process-wide: keep it out of the test process.
    monkeypatch.setattr("server.doors.host._gc_policy_applied", True)


@pytest.mark.parametrize("loopback", LOOPBACKS)
async def test_the_door_serves_the_game_on_every_interface_from_the_shared_host(
    tmp_path: Path, web_only: None, loopback: str
) -> None:
    from server.doors.host import GameHost
    from server.web.door import WebFrontDoor

    args = cli.build_parser().parse_args(
        ["--port", "0", "--data-dir", str(tmp_path), "--web-port", "0", "--workers", "0"]
    )
    server = SkyjoServer(cli.config_from_args(args))
    cli.attach_doors(server, args)
    game_host, door = server.front_doors[1:]
    assert isinstance(game_host, GameHost) and isinstance(door, WebFrontDoor)
    assert door.game_host is game_host
    await server.start()
    try:
        host = f"[{loopback}]" if ":" in loopback else loopback
        async with door_client(f"http://{host}:{door.port}/") as client:
            await client.shows(NAME_PROMPT)
    finally:
        await server.stop()


def test_no_web_loads_neither_aiohttp_nor_the_door() -> None:
    program = (
        "import sys\n"
        "from server import cli\n"
        "from server.app import SkyjoServer\n"
        "args = cli.build_parser().parse_args(['--no-web', '--no-ssh'])\n"
        "server = SkyjoServer(cli.config_from_args(args))\n"
        "cli.attach_doors(server, args)\n"
        "print(sorted(m for m in ('aiohttp', 'server.web.door', 'textual') if m in sys.modules))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.strip() == "[]"
    args = cli.build_parser().parse_args(["--no-web", "--no-ssh"])
    server = SkyjoServer(cli.config_from_args(args))
    cli.attach_doors(server, args)
    assert server.front_doors == [server.tcp]


def test_with_the_door_on_every_log_line_is_json_workers_included(tmp_path: Path) -> None:
    """The door starts the players' worker processes; they log in the server's format."""
    import json
    import signal
    import time

    from ..server.processes import server_command

    command = [part for part in server_command(tmp_path / "data") if part != "--no-web"]
    log = tmp_path / "server.log"
    with log.open("w") as stderr:
        process = subprocess.Popen(
            [*command, "--web-port", "0", "--log-format", "json"],
            stderr=stderr,
            stdout=subprocess.DEVNULL,
        )
    try:
        deadline = time.monotonic() + 60
        while "data in " not in log.read_text() or "ready" not in log.read_text():
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(60) == 0
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert any(r["logger"] == "server.web.door" for r in records)
    assert any(
        r["message"].startswith("worker ") and r["logger"] != "server.termhost.workers"
        for r in records
    ), "no line from a worker process itself"


def started_server_output(tmp_path: Path, *options: str) -> tuple[str, str]:
    """skyjo-server with the browser door (and ``options``) from start to stop: what it
    wrote on standard output (not a terminal here), and its log (standard error)."""
    import signal
    import time

    from ..server.processes import server_command

    command = [part for part in server_command(tmp_path / "data") if part != "--no-web"]
    tmp_path.mkdir()
    out, log = tmp_path / "stdout", tmp_path / "server.log"
    with out.open("w") as stdout, log.open("w") as stderr:
        process = subprocess.Popen(
            [*command, "--web-port", "0", "--workers", "0", *options], stdout=stdout, stderr=stderr
        )
    try:
        deadline = time.monotonic() + 60
        # Its last line once started; the banner, if any, is printed before it stops.
        while "data in " not in log.read_text() or (options and "scan" not in out.read_text()):
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text() + out.read_text()
            time.sleep(0.05)
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(60) == 0
    return out.read_text(), log.read_text()


def test_the_start_banner_shows_the_pages_address_as_a_qr_code_a_camera_reads(
    tmp_path: Path,
) -> None:
    import re

    import segno

    from skyjo_tui.qr import QUIET_ZONE, modules_of_lines

    out, log = started_server_output(tmp_path / "asked", "--qr")
    (address,) = re.findall(r"open (http://127\.0\.0\.1:\d+/)$", out, re.MULTILINE)
    drawn = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in out.splitlines()[:-1]]
    symbol = segno.make(address, error="l", micro=False, boost_error=True)
    expected = [[not dark for dark in row] for row in symbol.matrix_iter(border=QUIET_ZONE)]
    assert modules_of_lines(drawn)[: len(expected)] == expected
    assert "█" not in log  # never in the log
    # Not a terminal, not asked: no banner (a service's output stays plain).
    out, log = started_server_output(tmp_path / "plain")
    assert out == "" and "█" not in log
