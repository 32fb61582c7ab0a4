"""The real ``skyjo-server`` command with its SSH door, as an admin starts it: what its
log says, and what its players see when it stops."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .tmuxkit import SSH, TMUX, openssh_command, tmux_pane

SERVER = Path(sys.executable).with_name("skyjo-server")
WAIT = 30.0  # seconds a start (a worker process imports the whole client) may take


class SSHServerProcess:
    """``skyjo-server`` in a subprocess on 127.0.0.1 (TCP and SSH on free ports, one
    worker process, no browser door), its log in a file; stopped with SIGTERM."""

    def __init__(self, data_dir: Path, log: Path) -> None:
        self.data_dir, self.log = data_dir, log
        self.terminated = False
        command = [
            str(SERVER),
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--ssh-port",
            "0",
            "--no-web",
            "--workers",
            "1",
            "--data-dir",
            str(data_dir),
        ]
        self.process = subprocess.Popen(command, stderr=log.open("w"), stdout=subprocess.DEVNULL)
        self.ssh_port = int(self._wait_for(r"SSH front door on 127\.0\.0\.1:(\d+)").group(1))

    def _wait_for(self, pattern: str) -> re.Match[str]:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            found = re.search(pattern, self.log.read_text())
            if found:
                return found
            assert self.process.poll() is None, self.log.read_text()
            time.sleep(0.05)
        raise TimeoutError(f"skyjo-server never logged {pattern!r}:\n{self.log.read_text()}")

    def terminate(self) -> None:
        """SIGTERM, as ``systemctl stop`` or Ctrl-C does; returns without waiting."""
        self.terminated = True
        self.process.send_signal(signal.SIGTERM)

    def stop(self) -> int:
        """SIGTERM once (a second one, as the server's loop ends, is the default action's:
        it would end the process at once, as a second Ctrl-C means to); its exit status."""
        if self.process.poll() is None and not self.terminated:
            self.terminate()
        return self.process.wait(WAIT)


@pytest.fixture
def ssh_server(tmp_path: Path) -> Iterator[SSHServerProcess]:
    server = SSHServerProcess(tmp_path / "data", tmp_path / "server.log")
    try:
        yield server
    finally:
        if server.process.poll() is None:
            server.process.kill()
            server.process.wait(WAIT)


def test_a_start_and_an_admin_command_say_only_what_matters(
    ssh_server: SSHServerProcess,
) -> None:
    """No library's deprecation warnings (asyncssh's DSA, about fifteen lines) open the
    log or an ``admin`` command's output, and one worker is "1 worker process"."""
    admin = subprocess.run(
        [str(SERVER), "admin", "--data-dir", str(ssh_server.data_dir), "players"],
        capture_output=True,
        text=True,
        timeout=WAIT,
        check=False,
    )
    assert admin.returncode == 0, admin.stderr
    assert "Warning" not in admin.stderr and "DSA" not in admin.stderr, admin.stderr
    assert ssh_server.stop() == 0
    log = ssh_server.log.read_text()
    assert "Warning" not in log and "DSA" not in log, log
    assert "in 1 worker process (" in log, log


@pytest.mark.skipif(not (SSH and TMUX), reason="needs the ssh client and tmux")
async def test_an_ssh_player_is_told_the_server_is_going_away(
    ssh_server: SSHServerProcess,
) -> None:
    """The admin stops the server (SIGTERM) while a guest sits in the lobby over OpenSSH:
    what stays on their terminal once ssh has exited says why the connection ended, and
    that games are kept (it said only "Connection to ... closed.")."""
    async with tmux_pane(openssh_command(ssh_server.ssh_port, "skyjo", None)) as pane:
        await pane.wait_for("Choose your name", timeout=WAIT)
        await pane.keys("Dora", "Enter")
        await pane.wait_for("Lobby · Dora")
        ssh_server.terminate()
        status, screen = await pane.wait_for_exit(WAIT)
        assert ssh_server.stop() == 0
        log = ssh_server.log.read_text()
        assert "The server is shutting down: every game is saved." in screen, screen + log
        assert status == 0, screen + log  # the session ended, the server said why: no error
