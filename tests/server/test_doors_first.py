"""Every door is bound before anyone is served: a door that cannot start stops the
real ``skyjo-server`` before a player gets in or a table is restored.

Through the real command in a subprocess, on real sockets: while it starts and
fails, a client keeps knocking at its TCP port.
"""

from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path

from .processes import SERVER
from .support import WAIT


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _start_knocking(
    command: list[str], tcp_port: int
) -> tuple[subprocess.CompletedProcess[str], int]:
    """Run ``command`` to its end (bounded by ``WAIT``) while connecting to
    ``tcp_port`` over and over: its result, and how many connections got in."""
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    got_in = 0
    deadline = time.monotonic() + WAIT
    try:
        while process.poll() is None and time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", tcp_port), timeout=WAIT):
                    got_in += 1
            except OSError:
                pass  # refused: nothing serves the port (yet)
        _, stderr = process.communicate(timeout=WAIT)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(WAIT)
    return subprocess.CompletedProcess(command, process.returncode, "", stderr), got_in


def _command(data_dir: Path, tcp_port: int, *more: str) -> list[str]:
    return [
        str(SERVER),
        "--host",
        "127.0.0.1",
        "--port",
        str(tcp_port),
        "--no-ssh",
        "--data-dir",
        str(data_dir),
        *more,
    ]


def test_a_web_port_in_use_stops_the_server_before_any_player_gets_in(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        web_port = taken.getsockname()[1]
        tcp_port = _free_port()
        result, got_in = _start_knocking(
            _command(tmp_path / "data", tcp_port, "--web-port", str(web_port)), tcp_port
        )
    assert result.returncode == 1
    assert "cannot start: " in result.stderr and "address already in use" in result.stderr
    assert "listening on" not in result.stderr  # no door was opened, TCP's neither
    assert "Traceback" not in result.stderr
    assert got_in == 0


def test_a_symlinked_admin_directory_stops_the_server_before_any_player_gets_in(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    (tmp_path / "elsewhere").mkdir(mode=0o700)
    (data / "admin").symlink_to(tmp_path / "elsewhere")
    tcp_port = _free_port()
    result, got_in = _start_knocking(_command(data, tcp_port, "--no-web"), tcp_port)
    assert result.returncode == 1
    assert "cannot start: " in result.stderr and "is a symbolic link" in result.stderr
    assert "listening on" not in result.stderr
    assert "Traceback" not in result.stderr
    assert got_in == 0
