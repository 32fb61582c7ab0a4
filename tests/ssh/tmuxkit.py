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
import tempfile
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path

TMUX = shutil.which("tmux")
SSH = shutil.which("ssh")
TIMEOUT = 10.0
EXIT_MARK = "[command exited: "
_names = itertools.count()


def openssh_command(
    port: int,
    user: str,
    key_file: Path | None,
    *extra: str,
    host: str = "127.0.0.1",
    known_hosts: Path | None = None,
) -> list[str]:
    """``ssh`` to ``host`` ignoring the user's config and agent; with ``known_hosts``,
    the server's key must be the one that file holds (else: any key, remembered nowhere)."""
    if known_hosts is None:
        checking = ["StrictHostKeyChecking=no", "UserKnownHostsFile=/dev/null"]
    else:
        checking = ["StrictHostKeyChecking=yes", f"UserKnownHostsFile={known_hosts}"]
    command = [SSH or "ssh", "-F", "/dev/null", "-tt"]
    for option in [*checking, "IdentityAgent=none", "IdentitiesOnly=yes", "LogLevel=ERROR"]:
        command += ["-o", option]
    command += ["-p", str(port)]
    if key_file is not None:
        command += ["-i", str(key_file)]
    else:
        command += ["-o", "PubkeyAuthentication=no"]
    return [*command, *extra, f"{user}@{host}"]


class TmuxPane:
    def __init__(self, socket_name: str, config: Path) -> None:
        self.socket_name = socket_name
        self.config = config

    async def tmux(self, *args: str) -> str:
        proc = await asyncio.create_subprocess_exec(
            TMUX or "tmux",
            "-L",
            self.socket_name,
            "-f",
            str(self.config),
            *args,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(proc.communicate(), TIMEOUT)
        if proc.returncode != 0:
            raise RuntimeError(f"tmux {args[0]} failed: {err.decode().strip()}")
        return out.decode()

    async def screen(self, history: bool = False) -> str:
        """The visible screen (with ``history``: and the lines scrolled off it)."""
        return await self.tmux(
            "capture-pane", "-p", "-t", "play", *(["-S", "-"] if history else [])
        )

    async def keys(self, *keys: str) -> None:
        await self.tmux("send-keys", "-t", "play", *keys)

    async def wait_until(
        self,
        condition: Callable[[str], bool],
        what: str,
        timeout: float = TIMEOUT,
        history: bool = False,
    ) -> str:
        """The screen, once ``condition(screen)`` holds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            screen = await self.screen(history)
            if condition(screen):
                return screen
            if loop.time() > deadline:
                raise AssertionError(f"{what} not on the tmux screen:\n{screen}")
            await asyncio.sleep(0.1)

    async def wait_for(self, needle: str, timeout: float = TIMEOUT, history: bool = False) -> str:
        """The screen, once it shows ``needle``."""
        return await self.wait_until(
            lambda screen: needle in screen, repr(needle), timeout, history
        )

    async def wait_gone(self, needle: str, timeout: float = TIMEOUT) -> str:
        """The screen, once ``needle`` has left it."""
        return await self.wait_until(
            lambda screen: needle not in screen, f"{needle!r} gone", timeout
        )

    async def wait_for_exit(self, timeout: float = TIMEOUT) -> tuple[int, str]:
        """The exit status of the pane's command (ssh) and its last screen."""
        screen = await self.wait_for(EXIT_MARK, timeout, history=True)
        status = screen.rsplit(EXIT_MARK, 1)[1].split("]", 1)[0]
        return int(status), screen


@contextlib.asynccontextmanager
async def tmux_pane(
    command: Sequence[str], size: tuple[int, int] = (80, 24), env: dict[str, str] | None = None
) -> AsyncIterator[TmuxPane]:
    """Run ``command`` in a fresh detached tmux server; the pane stays after it exits."""
    with tempfile.TemporaryDirectory(prefix="skyjo-tmux-") as folder:
        # In the server's configuration, so that it holds before the command
        # runs: a command that exits at once still leaves its pane to read.
        config = Path(folder) / "tmux.conf"
        config.write_text("set -g remain-on-exit on\n")
        pane = TmuxPane(f"skyjo-test-{os.getpid()}-{next(_names)}", config)
        width, height = size
        shell_command = " ".join(shlex.quote(part) for part in command)
        for name, value in (env or {}).items():
            shell_command = f"{name}={shlex.quote(value)} {shell_command}"
        shell_command = f'{shell_command}; echo "{EXIT_MARK}$?]"'
        await pane.tmux(
            "new-session", "-d", "-s", "play", "-x", str(width), "-y", str(height), shell_command
        )
        try:
            yield pane
        finally:
            with contextlib.suppress(Exception):
                await pane.tmux("kill-server")


def write_private_key(key_pem: bytes, path: Path) -> Path:
    """A private key file OpenSSH accepts (mode 0600)."""
    path.write_bytes(key_pem)
    path.chmod(0o600)
    return path
