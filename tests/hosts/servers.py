"""What runs on the hosts: ``skyjo-server`` door hosts, HAProxy in front, players' ssh.

Every host listens on fixed ports (each namespace has its own): SSH on ``SSH_PORT``,
the lobby's TCP on ``LOBBY_PORT``.  Door hosts share one SSH host key, copied into each
one's data directory as an operator copies it (docs/scaling.md), so a player's
``known_hosts`` holds for every door host behind the balancer.
"""

from __future__ import annotations

import signal
import subprocess
import sys
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

    def kill(self) -> None:
        """kill -9, as a machine that dies."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(WAIT)

    def restart(self) -> None:
        """The same command again on the same data (after ``kill``), until it listens."""
        assert self.process.poll() is not None, "still running: kill it first"
        self.process = _start(self.host, self.argv, self.listening, self.log)


def start_server(host: Host, data_dir: Path, *options: str, listening: Sequence[int]) -> ServerHost:
    """``skyjo-server --host ADDRESS --data-dir DATA_DIR OPTIONS`` on ``host``, once
    something listens on each port of ``listening`` (the roles' hosts start this way)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    argv = [str(SERVER), "--host", host.address, "--data-dir", str(data_dir), *options]
    log = data_dir.parent / f"{host.name}.log"
    process = _start(host, argv, tuple(listening), log)
    return ServerHost(host, data_dir, argv, tuple(listening), process, log)


def _start(
    host: Host, argv: list[str], listening: Sequence[int], log: Path
) -> subprocess.Popen[bytes]:
    process = host.start(argv, log)
    for port in listening:
        host.wait_listening(port, process, log)
    return process


def start_door_host(
    host: Host, data_dir: Path, host_key: asyncssh.SSHKey, *options: str, web: bool = False
) -> ServerHost:
    """``skyjo-server`` on ``host`` (one worker process; the browser door with ``web``)
    with ``host_key`` as its SSH host key, copied in as an operator copies it;
    ``options`` added (``--ssh-trust-proxy``...)."""
    data_dir.mkdir(parents=True)
    write_private_key(host_key.export_private_key(), data_dir / HOST_KEY_FILENAME)
    web_options = ["--web-port", str(WEB_PORT)] if web else ["--no-web"]
    return start_server(
        host,
        data_dir,
        *("--port", str(LOBBY_PORT), "--ssh-port", str(SSH_PORT), *web_options),
        *("--workers", "1", *options),
        listening=[SSH_PORT, *([WEB_PORT] if web else [])],
    )


def start_balancer(
    host: Host, backends: list[Backend], folder: Path, web_backends: list[Backend] | None = None
) -> subprocess.Popen[bytes]:
    """HAProxy on ``host``, in front of ``backends``' SSH and ``web_backends``' pages, on
    the same ports (``kit.balancer_config``)."""
    config = folder / f"{host.name}.cfg"
    web = (WEB_PORT, web_backends) if web_backends else None
    config.write_text(balancer_config(host.address, SSH_PORT, backends, web=web))
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


def player_ssh(player: Host, to: str, user: str, known: Path) -> list[str]:
    """OpenSSH run on ``player``'s host, to ``to``'s SSH port, checking the host key."""
    return player.command(
        *openssh_command(SSH_PORT, user, None, "-o", "ConnectTimeout=5", host=to, known_hosts=known)
    )


__all__ = [
    "LOBBY_PORT",
    "SERVER",
    "SSH_PORT",
    "WEB_PORT",
    "ServerHost",
    "known_hosts",
    "player_ssh",
    "start_balancer",
    "start_door_host",
    "start_server",
]
