"""Client-side helpers for the SSH tests: a terminal on an asyncssh process.

Every wait here is bounded in time.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import re
from collections.abc import AsyncIterator, Callable
from typing import Any

import asyncssh

#: The bound on any wait for what must happen (a screen, a closed connection): generous,
#: as on a loaded machine an app may take seconds to draw; a passing test never waits it out.
TIMEOUT = 20.0
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


_SEQUENCE = re.compile(
    r"\x1b\[([0-9;?<>=$]*)[ -/]*([@-~])"  # CSI: parameters, final byte
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC (a title), to BEL or ST
    r"|\x1b[^\[\]]?"  # other escapes
    r"|[\r\n\b]"
)


class Screen:
    """What the player's terminal shows: enough of a VT100 for Textual's output.

    Textual draws with cursor positioning (CSI row;col H), colours (SGR,
    ignored here) and plain text, with auto-wrap off; that is all modelled.
    """

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.rows = [[" "] * width for _ in range(height)]
        self.row = self.col = 0
        self._decode = codecs.getincrementaldecoder("utf-8")(errors="replace").decode
        self._pending = ""

    def resize(self, width: int, height: int) -> None:
        self.rows = [(row + [" "] * width)[:width] for row in self.rows[:height]]
        self.rows += [[" "] * width for _ in range(height - len(self.rows))]
        self.width, self.height = width, height
        self.row, self.col = min(self.row, height - 1), min(self.col, width)

    def feed(self, data: bytes) -> None:
        text = self._pending + self._decode(data)
        self._pending = ""
        position = 0
        for match in _SEQUENCE.finditer(text):
            self._put(text[position : match.start()])
            position = match.end()
            if match.end() == len(text) and match.group(0).startswith("\x1b"):
                self._pending = match.group(0)  # may be cut short: finish it next time
                return
            self._control(match)
        self._put(text[position:])

    def _control(self, match: re.Match[str]) -> None:
        token = match.group(0)
        if token == "\r":
            self.col = 0
        elif token == "\n":
            self.row = min(self.row + 1, self.height - 1)
        elif token == "\b":
            self.col = max(self.col - 1, 0)
        elif match.group(2) == "H":
            numbers = [int(n) if n.isdigit() else 1 for n in (match.group(1) or "1;1").split(";")]
            row, col = [*numbers, 1, 1][:2]
            self.row, self.col = min(row, self.height) - 1, min(col, self.width) - 1
        elif match.group(2) == "J" and match.group(1) == "2":
            self.rows = [[" "] * self.width for _ in range(self.height)]

    def _put(self, text: str) -> None:
        line = self.rows[self.row]
        for char in text:
            if self.col < self.width:
                line[self.col] = char
                self.col += 1

    @property
    def text(self) -> str:
        return "\n".join("".join(row).rstrip() for row in self.rows)


class Term:
    """Client side of one session: send keys, read the (ANSI-stripped) screen."""

    def __init__(self, proc: asyncssh.SSHClientProcess, size: tuple[int, int] = (80, 24)) -> None:
        self.proc = proc
        self.raw = bytearray()
        self.screen = Screen(*size)
        """The terminal as the player sees it now."""

    def resize(self, width: int, height: int) -> None:
        """Resize the window (the client tells the server)."""
        self.screen.resize(width, height)
        self.proc.change_terminal_size(width, height)

    async def read(self, timeout: float) -> None:
        """Read one chunk of output (raises TimeoutError / AssertionError at EOF)."""
        chunk = await asyncio.wait_for(self.proc.stdout.read(65536), timeout)
        if not chunk:
            raise AssertionError(f"the session ended: {self.screen.text!r}")
        self.raw += chunk
        self.screen.feed(chunk)

    async def wait_until(
        self, condition: Callable[[str], bool], what: str, timeout: float = TIMEOUT
    ) -> None:
        """Read output until ``condition(screen text)`` holds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not condition(self.screen.text):
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"{what} not on screen:\n{self.screen.text}")
            with contextlib.suppress(asyncio.TimeoutError):
                await self.read(remaining)

    async def shows(self, needle: str, timeout: float = TIMEOUT) -> None:
        """Wait until the screen shows ``needle`` (on one line)."""
        await self.wait_until(lambda text: needle in text, repr(needle), timeout)

    @property
    def text(self) -> str:
        return strip_ansi(self.raw.decode("utf-8", "replace"))

    def press(self, keys: bytes) -> None:
        self.proc.stdin.write(keys)

    def mark(self) -> int:
        """A position in the output; ``wait_for(..., since=mark)`` looks after it."""
        return len(self.raw)

    async def wait_for(self, needle: str, timeout: float = TIMEOUT, since: int = 0) -> None:
        """Wait until ``needle`` has been written (after ``since``), on screen or not."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while needle not in self.text_since(since):
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"{needle!r} not on screen: {self.text[-300:]!r}")
            with contextlib.suppress(asyncio.TimeoutError):
                await self.read(remaining)

    def text_since(self, since: int) -> str:
        return strip_ansi(self.raw[since:].decode("utf-8", "replace"))

    async def drain(self, seconds: float = 0.2) -> None:
        """Read whatever arrives for a short while (bounded: 50 chunks at most)."""
        with contextlib.suppress(asyncio.TimeoutError, AssertionError):
            for _ in range(50):
                await self.read(seconds)

    async def exit_status(self) -> int | None:
        result = await asyncio.wait_for(self.proc.wait(), TIMEOUT)
        stdout = result.stdout or b""
        assert isinstance(stdout, bytes)  # opened without an encoding
        self.raw += stdout
        self.screen.feed(stdout)
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
        yield Term(proc, term_size)
    finally:
        proc.close()


@contextlib.asynccontextmanager
async def closing(
    conn: asyncssh.SSHClientConnection,
) -> AsyncIterator[asyncssh.SSHClientConnection]:
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
