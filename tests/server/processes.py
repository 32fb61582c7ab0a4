"""The real ``skyjo-server`` command in a subprocess, for tests that kill or refuse it."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from server.netclient import ServerConnection

from .support import WAIT, Client

SERVER = Path(sys.executable).with_name("skyjo-server")


def server_command(data_dir: Path, between_rounds: int = 0) -> list[str]:
    """``skyjo-server`` on 127.0.0.1, any free port, TCP only, on ``data_dir``."""
    return [
        str(SERVER),
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--no-ssh",
        "--no-web",
        "--data-dir",
        str(data_dir),
        "--bot-delay",
        "0",
        "--grace",
        "600",
        "--between-rounds",
        str(between_rounds),
    ]


class ServerProcess:
    """``skyjo-server`` in a subprocess, its log in a file."""

    def __init__(self, data_dir: Path, log: Path, between_rounds: int = 0) -> None:
        self.log = log
        self.process = subprocess.Popen(
            server_command(data_dir, between_rounds),
            stderr=log.open("w"),
            stdout=subprocess.DEVNULL,
        )
        self.port = self._wait_for_port()

    def _wait_for_port(self) -> int:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            found = re.search(r"listening on 127\.0\.0\.1:(\d+)", self.log.read_text())
            if found:
                return int(found.group(1))
            assert self.process.poll() is None, self.log.read_text()
            time.sleep(0.05)
        raise TimeoutError("skyjo-server did not start")

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(WAIT)

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(WAIT)


async def client(port: int, name: str | None = None, token: str | None = None) -> Client:
    """A client of the server on ``port`` (127.0.0.1), welcomed with this name or token."""
    conn = await ServerConnection.open("127.0.0.1", port)
    result = Client(conn)
    result.welcome = await conn.hello(name=name, token=token)
    return result


def refused_start(data_dir: Path) -> subprocess.CompletedProcess[str]:
    """Run ``skyjo-server`` on ``data_dir`` expecting it to refuse: its exit status and log.

    Bounded: a server that starts after all is stopped when ``WAIT`` runs out
    (``TimeoutExpired`` kills it), and the test fails.
    """
    return subprocess.run(
        server_command(data_dir), capture_output=True, text=True, timeout=WAIT, check=False
    )
