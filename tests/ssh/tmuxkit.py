"""Drive the real OpenSSH client inside a tmux pane, as a player would.

Each ``TmuxPane`` uses its own tmux server (``-L`` socket name) so tests never
touch a developer's tmux, and it is always killed at the end.  Every wait is
bounded in time.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import shlex
import shutil
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

TMUX = shutil.which("tmux")
SSH = shutil.which("ssh")
TIMEOUT = 10.0
_names = itertools.count()


def openssh_command(port: int, user: str, key_file: Path | None, *extra: str) -> list[str]:
    """``ssh`` to 127.0.0.1 ignoring the user's config, agent and known hosts."""
    command = [
        SSH or "ssh", "-F", "/dev/null", "-tt",
        "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
        "-o", "IdentityAgent=none", "-o", "IdentitiesOnly=yes", "-o", "LogLevel=ERROR",
        "-p", str(port),
    ]
    if key_file is not None:
        command += ["-i", str(key_file)]
    else:
        command += ["-o", "PubkeyAuthentication=no"]
    return [*command, *extra, f"{user}@127.0.0.1"]


class TmuxPane:
    def __init__(self, socket_name: str) -> None:
        self.socket_name = socket_name

    async def tmux(self, *args: str) -> str:
        proc = await asyncio.create_subprocess_exec(
            TMUX or "tmux", "-L", self.socket_name, "-f", "/dev/null", *args,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(proc.communicate(), TIMEOUT)
        if proc.returncode != 0:
            raise RuntimeError(f"tmux {args[0]} failed: {err.decode().strip()}")
        return out.decode()

    async def screen(self) -> str:
        return await self.tmux("capture-pane", "-p", "-t", "play")

    async def keys(self, *keys: str) -> None:
        await self.tmux("send-keys", "-t", "play", *keys)

    async def wait_for(self, needle: str, timeout: float = TIMEOUT) -> str:
        """The screen, once it shows ``needle``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            screen = await self.screen()
            if needle in screen:
                return screen
            if loop.time() > deadline:
                raise AssertionError(f"{needle!r} not on the tmux screen:\n{screen}")
            await asyncio.sleep(0.1)

    async def wait_for_exit(self, timeout: float = TIMEOUT) -> str:
        """The pane's last screen, once its command (ssh) has exited."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            dead = await self.tmux("display-message", "-p", "-t", "play", "#{pane_dead}")
            if dead.strip() == "1":
                return await self.screen()
            if loop.time() > deadline:
                raise AssertionError(f"ssh did not exit:\n{await self.screen()}")
            await asyncio.sleep(0.1)


@contextlib.asynccontextmanager
async def tmux_pane(command: Sequence[str], size: tuple[int, int] = (80, 24),
                    env: dict[str, str] | None = None) -> AsyncIterator[TmuxPane]:
    """Run ``command`` in a fresh detached tmux server; the pane stays after it exits."""
    pane = TmuxPane(f"skyjo-test-{os.getpid()}-{next(_names)}")
    width, height = size
    shell_command = " ".join(shlex.quote(part) for part in command)
    for name, value in (env or {}).items():
        shell_command = f"{name}={shlex.quote(value)} {shell_command}"
    await pane.tmux("new-session", "-d", "-s", "play", "-x", str(width), "-y", str(height),
                    shell_command)
    try:
        await pane.tmux("set-option", "-t", "play", "remain-on-exit", "on")
        yield pane
    finally:
        with contextlib.suppress(Exception):
            await pane.tmux("kill-server")


def write_private_key(key_pem: bytes, path: Path) -> Path:
    """A private key file OpenSSH accepts (mode 0600)."""
    path.write_bytes(key_pem)
    path.chmod(0o600)
    return path
