"""Client-side helpers for the SSH tests: a terminal on an asyncssh process.

Every wait here is bounded in time.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator, Callable
from typing import Any

import asyncssh

TIMEOUT = 5.0
_ANSI = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC
    r"|\x1b[()][0-9A-Za-z]"  # charset
    r"|\x1b[@-Z\\-_=>78]"  # other two-byte escapes
)


def strip_ansi(text: str) -> str:
    return _ANSI.sub("", text)


async def poll_until(predicate: Callable[[], bool], what: str, timeout: float = TIMEOUT) -> None:
    """Wait (bounded) until ``predicate()`` holds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


class Term:
    """Client side of one session: send keys, read the (ANSI-stripped) screen."""

    def __init__(self, proc: asyncssh.SSHClientProcess) -> None:  # type: ignore[type-arg]
        self.proc = proc
        self.raw = bytearray()

    @property
    def text(self) -> str:
        return strip_ansi(self.raw.decode("utf-8", "replace"))

    def press(self, keys: bytes) -> None:
        self.proc.stdin.write(keys)

    def mark(self) -> int:
        """A position in the output; ``wait_for(..., since=mark)`` looks after it."""
        return len(self.raw)

    async def wait_for(self, needle: str, timeout: float = TIMEOUT, since: int = 0) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while needle not in self._text_since(since):
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"{needle!r} not on screen: {self.text[-300:]!r}")
            try:
                chunk = await asyncio.wait_for(self.proc.stdout.read(65536), remaining)
            except asyncio.TimeoutError:
                continue
            if not chunk:
                raise AssertionError(f"EOF before {needle!r}: {self.text[-300:]!r}")
            self.raw += chunk

    def _text_since(self, since: int) -> str:
        return strip_ansi(self.raw[since:].decode("utf-8", "replace"))

    async def drain(self, seconds: float = 0.2) -> None:
        """Read whatever arrives for a short while."""
        with contextlib.suppress(asyncio.TimeoutError):
            while True:
                chunk = await asyncio.wait_for(self.proc.stdout.read(65536), seconds)
                if not chunk:
                    return
                self.raw += chunk

    async def exit_status(self) -> int | None:
        result = await asyncio.wait_for(self.proc.wait(), TIMEOUT)
        self.raw += result.stdout or b""
        return result.exit_status


async def connect(port: int, username: str, **options: Any) -> asyncssh.SSHClientConnection:
    """An asyncssh client connection to 127.0.0.1 that ignores the user's ssh setup."""
    settings: dict[str, Any] = {
        "known_hosts": None,
        "client_keys": None,
        "agent_path": None,
        "config": None,
        **options,
    }
    return await asyncio.wait_for(
        asyncssh.connect("127.0.0.1", port, username=username, **settings), TIMEOUT
    )


@contextlib.asynccontextmanager
async def open_terminal(
    conn: asyncssh.SSHClientConnection,
    *,
    term_type: str | None = "xterm-256color",
    term_size: tuple[int, int] = (80, 24),
    **options: Any,
) -> AsyncIterator[Term]:
    """A PTY session on ``conn`` (binary), closed on exit."""
    settings: dict[str, Any] = {"encoding": None, **options}
    if term_type is not None:
        settings.update(term_type=term_type, term_size=term_size)
    proc = await asyncio.wait_for(conn.create_process(**settings), TIMEOUT)
    try:
        yield Term(proc)
    finally:
        proc.close()


@contextlib.asynccontextmanager
async def closing(conn: asyncssh.SSHClientConnection) -> AsyncIterator[asyncssh.SSHClientConnection]:
    """Close ``conn`` (bounded wait) when the block ends."""
    try:
        yield conn
    finally:
        conn.close()
        await asyncio.wait_for(conn.wait_closed(), TIMEOUT)


class GuestClient(asyncssh.SSHClient):
    """Logs in like an OpenSSH user without keys: keyboard-interactive, no answers."""

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(
        self, name: str, instructions: str, lang: str, prompts: Any
    ) -> list[str]:
        return ["" for _ in prompts]


async def connect_guest(port: int, username: str, **options: Any) -> asyncssh.SSHClientConnection:
    """A connection with no key at all."""
    return await connect(port, username, client_factory=GuestClient, **options)
