"""``skyjo-server --role lobby`` and ``--role doors`` in real processes on 127.0.0.1."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

SERVER = Path(sys.executable).with_name("skyjo-server")
WAIT = 40.0  # seconds a start may take (a worker process imports the whole client)


class Role:
    """One ``skyjo-server`` process, its log in a file."""

    def __init__(self, command: list[str], log: Path) -> None:
        self.command, self.log = command, log
        self.process = subprocess.Popen(command, stderr=log.open("a"), stdout=subprocess.DEVNULL)

    def wait_for(self, pattern: str, after: int = 0) -> re.Match[str]:
        """Wait (bounded) until the log says ``pattern`` (after its first ``after`` characters)."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            found = re.search(pattern, self.log.read_text()[after:])
            if found:
                return found
            assert self.process.poll() is None, self.log.read_text()
            time.sleep(0.05)
        raise TimeoutError(f"never logged {pattern!r}:\n{self.log.read_text()}")

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(WAIT)

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(WAIT)


def lobby_command(data_dir: Path, secret: Path, port: int = 0) -> list[str]:
    return [
        str(SERVER),
        "--role",
        "lobby",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--data-dir",
        str(data_dir),
        "--door-secret",
        str(secret),
        "--bot-delay",
        "0",
        "--grace",
        "600",
    ]


class Lobby(Role):
    def __init__(self, data_dir: Path, secret: Path, log: Path, port: int = 0) -> None:
        self.data_dir, self.secret = data_dir, secret
        super().__init__(lobby_command(data_dir, secret, port), log)
        self.port = int(self.wait_for(r"listening on 127\.0\.0\.1:(\d+)").group(1))

    def restart(self) -> None:
        """SIGKILL, then the lobby again on its data directory and port."""
        self.kill()
        done = len(self.log.read_text())
        self.process = subprocess.Popen(
            lobby_command(self.data_dir, self.secret, self.port),
            stderr=self.log.open("a"),
            stdout=subprocess.DEVNULL,
        )
        self.wait_for(r"listening on 127\.0\.0\.1:(\d+)", after=done)

    def admin(self, *command: str) -> dict[str, object]:
        """``skyjo-server admin --json COMMAND...``'s answer."""
        answer = subprocess.run(
            [str(SERVER), "admin", "--json", "--data-dir", str(self.data_dir), *command],
            capture_output=True,
            text=True,
            timeout=WAIT,
            check=True,
        )
        result: dict[str, object] = json.loads(answer.stdout)
        return result


class DoorHost(Role):
    """``--role doors``: SSH on a free port, one worker process, the browser door on a
    free port with ``web`` (else none)."""

    def __init__(
        self,
        name: str,
        lobby_port: int,
        secret: Path,
        data_dir: Path,
        log: Path,
        extra: tuple[str, ...] = (),
        *,
        web: bool = False,
    ) -> None:
        super().__init__(
            [
                str(SERVER),
                "--role",
                "doors",
                "--lobby",
                f"127.0.0.1:{lobby_port}",
                "--door-secret",
                str(secret),
                "--door-name",
                name,
                "--host",
                "127.0.0.1",
                "--ssh-port",
                "0",
                *(["--web-port", "0"] if web else ["--no-web"]),
                "--workers",
                "1",
                "--data-dir",
                str(data_dir),
                *extra,
            ],
            log,
        )
        found = self.wait_for(r"SSH front door on 127\.0\.0\.1:(\d+) .*host key (SHA256:\S+)")
        self.ssh_port, self.host_key = int(found.group(1)), found.group(2)
        self.web_url = ""
        """The browser door's page, with ``web``."""
        if web:
            page = self.wait_for(r"Browser door on 127\.0\.0\.1:(\d+)")
            self.web_url = f"http://127.0.0.1:{page.group(1)}/"
