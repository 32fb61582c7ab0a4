"""What runs on the hosts: ``skyjo-server`` door hosts, HAProxy in front, players' ssh.

Every host listens on fixed ports (each namespace has its own): SSH on ``SSH_PORT``,
the lobby's TCP on ``LOBBY_PORT``.  Door hosts share one SSH host key, copied into each
one's data directory as an operator copies it (docs/scaling.md), so a player's
``known_hosts`` holds for every door host behind the balancer.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import asyncssh

from server.ssh.options import HOST_KEY_FILENAME

from ..ssh.tmuxkit import openssh_command, write_private_key
from .kit import HAPROXY, WAIT, Backend, Host, balancer_config

SERVER = Path(sys.executable).with_name("skyjo-server")
SSH_PORT = 2222
LOBBY_PORT = 7777
WEB_PORT = 8080


@dataclass
class ServerHost:
    """``skyjo-server`` running on a host (killed by the network at the end)."""

    host: Host
    data_dir: Path
    argv: list[str]
    listening: tuple[int, ...]
    process: subprocess.Popen[bytes]
    log: Path

    def players(self) -> str:
        """``skyjo-server admin players`` (its socket is a file: no namespace needed)."""
        admin = subprocess.run(
            [str(SERVER), "admin", "--data-dir", str(self.data_dir), "players"],
            capture_output=True,
            text=True,
            timeout=WAIT,
            check=False,
        )
        assert admin.returncode == 0, admin.stderr + self.log.read_text()
        return admin.stdout

    def address_of(self, name: str) -> str | None:
        """The ADDRESS column of ``name``'s line in ``players``, None if not listed."""
        for line in self.players().splitlines()[1:]:
            if line.split()[:1] == [name]:
                return line.split()[-1]
        return None

    def wait_for_log(self, pattern: str, after: int = 0) -> re.Match[str]:
        """Wait (bounded) until the log says ``pattern`` (past its first ``after``
        characters); the match."""
        return wait_logged(self.log, pattern, self.process, after)

    def kill(self) -> None:
        """kill -9, as a machine that dies."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(WAIT)

    def kill_host(self) -> None:
        """kill -9 of everything on the host (the server and its worker processes), as
        a machine that dies; ``restart`` starts it again."""
        self.host.kill_all()
        self.process.wait(WAIT)

    def restart(self) -> None:
        """The same command again on the same data (after ``kill``), until it listens."""
        assert self.process.poll() is not None, "still running: kill it first"
        self.process = self.host.start(self.argv, self.log, append=True)
        self.wait_listening()

    def wait_listening(self) -> None:
        """Wait (bounded) until it listens on each of its ports."""
        for port in self.listening:
            self.host.wait_listening(port, self.process, self.log)


def wait_server_up(log: Path, server: str, process: subprocess.Popen[bytes]) -> None:
    """Wait (bounded) until HAProxy sends to ``server`` ("web_doors/door1") again: its log's
    last word on it is "is UP", or it never said "is DOWN" (a server dead for less than
    its checks' two failures is never marked down, so never marked up again either)."""
    deadline = time.monotonic() + WAIT
    while True:
        states = re.findall(rf"Server {re.escape(server)} is (UP|DOWN)", log.read_text())
        if not states or states[-1] == "UP":
            return
        if process.poll() is not None or time.monotonic() > deadline:
            raise AssertionError(f"{server} never up again:\n{log.read_text()}")
        time.sleep(0.05)


def wait_logged(
    log: Path, pattern: str, process: subprocess.Popen[bytes], after: int = 0
) -> re.Match[str]:
    """Wait (bounded) until ``process``'s ``log`` says ``pattern`` (past its first
    ``after`` characters); the match."""
    deadline = time.monotonic() + WAIT
    while True:
        found = re.search(pattern, log.read_text(errors="replace")[after:])
        if found is not None:
            return found
        if process.poll() is not None or time.monotonic() > deadline:
            raise AssertionError(f"never logged {pattern!r}:\n{log.read_text()}")
        time.sleep(0.05)


def start_server(
    host: Host, data_dir: Path, *options: str, listening: Sequence[int], wait: bool = True
) -> ServerHost:
    """``skyjo-server --host ADDRESS --data-dir DATA_DIR OPTIONS`` on ``host``, once
    something listens on each port of ``listening`` (the roles' hosts start this way;
    with ``wait=False`` at once: ``ServerHost.wait_listening`` then, so that several
    start side by side)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    argv = [str(SERVER), "--host", host.address, "--data-dir", str(data_dir), *options]
    log = data_dir.parent / f"{host.name}.log"
    server = ServerHost(host, data_dir, argv, tuple(listening), host.start(argv, log), log)
    if wait:
        server.wait_listening()
    return server


def start_door_host(
    host: Host,
    data_dir: Path,
    host_key: asyncssh.SSHKey,
    *options: str,
    web: bool = False,
    wait: bool = True,
) -> ServerHost:
    """``skyjo-server`` on ``host`` (one worker process; the browser door with ``web``)
    with ``host_key`` as its SSH host key, copied in as an operator copies it;
    ``options`` added (``--ssh-trust-proxy``, ``--role doors``...)."""
    data_dir.mkdir(parents=True)
    write_private_key(host_key.export_private_key(), data_dir / HOST_KEY_FILENAME)
    web_options = ["--web-port", str(WEB_PORT)] if web else ["--no-web"]
    return start_server(
        host,
        data_dir,
        *("--ssh-port", str(SSH_PORT), *web_options),
        *("--workers", "1", *options),
        listening=[SSH_PORT, *([WEB_PORT] if web else [])],
        wait=wait,
    )


def start_lobby(host: Host, data_dir: Path, secret: Path, *options: str) -> ServerHost:
    """``skyjo-server --role lobby`` on ``host`` (its TCP on ``LOBBY_PORT``), door hosts
    let in with ``secret``; a dropped player's seat kept for 10 minutes."""
    return start_server(
        host,
        data_dir,
        *("--role", "lobby", "--port", str(LOBBY_PORT), "--door-secret", str(secret)),
        *("--grace", "600", *options),
        listening=[LOBBY_PORT],
    )


def doors_role(lobby: Host, secret: Path, name: str) -> list[str]:
    """The options of a door host named ``name`` playing on ``lobby``'s lobby."""
    return [
        *("--role", "doors", "--lobby", f"{lobby.address}:{LOBBY_PORT}"),
        *("--door-secret", str(secret), "--door-name", name),
    ]


def start_balancer(
    host: Host,
    backends: list[Backend],
    folder: Path,
    web_backends: list[Backend] | None = None,
    balance: str = "leastconn",
) -> subprocess.Popen[bytes]:
    """HAProxy on ``host``, in front of ``backends``' SSH and ``web_backends``' pages, on
    the same ports (``kit.balancer_config``; ``balance``: HAProxy's algorithm)."""
    config = folder / f"{host.name}.cfg"
    web = (WEB_PORT, web_backends) if web_backends else None
    config.write_text(balancer_config(host.address, SSH_PORT, backends, web=web, balance=balance))
    log = folder / f"{host.name}.log"
    process = host.start([HAPROXY or "haproxy", "-db", "-f", str(config)], log)
    host.wait_listening(SSH_PORT, process, log)
    if web is not None:
        host.wait_listening(WEB_PORT, process, log)
    return process


def known_hosts(path: Path, address: str, host_key: asyncssh.SSHKey) -> Path:
    """A ``known_hosts`` file that holds ``host_key`` for ``address``'s SSH port."""
    public = host_key.export_public_key().decode().strip()
    path.write_text(f"[{address}]:{SSH_PORT} {public}\n")
    return path


def player_ssh(
    player: Host, to: str, user: str, known: Path, key_file: Path | None = None
) -> list[str]:
    """OpenSSH run on ``player``'s host, to ``to``'s SSH port, checking the host key;
    with ``key_file``, the player's key (who they are: their seat comes back with it)."""
    return player.command(
        *openssh_command(
            SSH_PORT, user, key_file, "-o", "ConnectTimeout=5", host=to, known_hosts=known
        )
    )


__all__ = [
    "LOBBY_PORT",
    "SERVER",
    "SSH_PORT",
    "WEB_PORT",
    "ServerHost",
    "doors_role",
    "known_hosts",
    "player_ssh",
    "start_balancer",
    "start_door_host",
    "start_lobby",
    "start_server",
    "wait_logged",
    "wait_server_up",
]
