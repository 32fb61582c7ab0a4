"""A real browser on the door's page, and what a person sees on it.

Headless Chromium from Debian's packages (``/usr/bin/chromium``, which
``.ci/run`` installs), driven by Playwright; Playwright never downloads a
browser of its own.  The page's terminal is xterm.js drawing on a canvas, so
the DOM holds no text: every binary WebSocket frame the page receives is fed
to a terminal emulator here (pyte, sized as the page's own terminal, which
the page announces in its ``["resize", {...}]`` frames), and the tests read
that screen.  A click on a cell goes to the middle of that cell on the page.

Every wait is bounded in time.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import struct
import zlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pyte
import pytest
from playwright.async_api import (
    Browser,
    BrowserContext,
    Page,
    ViewportSize,
    WebSocket,
    async_playwright,
)
from pyte.screens import wcwidth

CHROMIUM = Path("/usr/bin/chromium")
#: No sandbox (root in CI), no GPU, and nothing that would talk to anything but the page.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
#: The bound on any wait for what must happen: generous, as on a loaded machine a page
#: and its app may take tens of seconds to start; a passing test never waits it out.
TIMEOUT = 60.0
VIEWPORT: ViewportSize = {"width": 1280, "height": 800}
#: The marks of a test in the browser: ``-m browser`` selects them; they run on
#: the module's event loop, where the module's Chromium lives (conftest.py), and with
#: pytest-xdist (``-n``, ``--dist loadgroup``) on one worker, so one Chromium serves them all.
IN_BROWSER = [
    pytest.mark.browser,
    pytest.mark.asyncio(loop_scope="module"),
    pytest.mark.xdist_group("chromium"),
]


@contextlib.asynccontextmanager
async def chromium(executable: Path = CHROMIUM) -> AsyncIterator[Browser]:
    """Headless Chromium, always closed.  Missing, it fails the test: CI installs it.

    ``executable``: what starts it (tests/hosts: a script that runs it on a host)."""
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium; "
            ".ci/run does)",
            pytrace=False,
        )
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(executable), args=CHROMIUM_ARGS, timeout=TIMEOUT * 1000
        )
        try:
            yield browser
        finally:
            await asyncio.wait_for(browser.close(), TIMEOUT)


class Connection:
    """One WebSocket of the page: the terminal bytes it received, on a screen."""

    def __init__(self, ws: WebSocket, changed: Callable[[], None]) -> None:
        self.url = ws.url
        query = parse_qs(urlsplit(ws.url).query)
        columns = int(query.get("width", ["80"])[0])
        lines = int(query.get("height", ["24"])[0])
        self.screen = pyte.Screen(columns, lines)
        self.stream = pyte.ByteStream(self.screen)
        self.received = bytearray()
        self.messages: list[Any] = []
        """The JSON (text) frames received, decoded."""
        self.sent: list[Any] = []
        """The JSON frames the page sent (keys, sizes), decoded."""
        self.closed = False
        self.error: str | None = None
        self._changed = changed
        ws.on("framereceived", self._received)
        ws.on("framesent", self._sent)
        ws.on("close", self._close)
        ws.on("socketerror", self._socket_error)

    def _received(self, payload: str | bytes) -> None:
        if isinstance(payload, bytes):
            self.received += payload
            self.stream.feed(payload)
        else:
            with contextlib.suppress(ValueError):
                self.messages.append(json.loads(payload))
        self._changed()

    def _sent(self, payload: str | bytes) -> None:
        if isinstance(payload, str):
            with contextlib.suppress(ValueError):
                message = json.loads(payload)
                self.sent.append(message)
                if (
                    isinstance(message, list)
                    and len(message) == 2
                    and message[0] == "resize"
                    and isinstance(message[1], dict)
                ):
                    self.screen.resize(
                        lines=int(message[1]["height"]), columns=int(message[1]["width"])
                    )
        self._changed()

    def _close(self, _: object) -> None:
        self.closed = True
        self._changed()

    def _socket_error(self, error: str) -> None:
        self.error = error
        self._changed()


class TermPage:
    """A browser tab on the door's page, read through what its terminal received.

    ``connections`` are the page's WebSockets, oldest first; the screen is the
    newest one's (a reload or a reconnection starts a fresh terminal).
    """

    def __init__(self, page: Page) -> None:
        self.page = page
        self.connections: list[Connection] = []
        self._changed = asyncio.Event()
        page.on("websocket", self._opened)

    def _opened(self, ws: WebSocket) -> None:
        self.connections.append(Connection(ws, self._changed.set))
        self._changed.set()

    @classmethod
    @contextlib.asynccontextmanager
    async def open(cls, context: BrowserContext, url: str) -> AsyncIterator[TermPage]:
        """A new tab on ``url``, closed at the end."""
        page = await context.new_page()
        term = cls(page)
        try:
            # Until the page is there; its terminal is waited for by what it shows.
            await page.goto(url, wait_until="commit", timeout=TIMEOUT * 1000)
            yield term
        finally:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(page.close(), TIMEOUT)

    @property
    def connection(self) -> Connection:
        if not self.connections:
            raise AssertionError("the page opened no WebSocket")
        return self.connections[-1]

    @property
    def size(self) -> tuple[int, int]:
        """(columns, rows) of the page's terminal."""
        screen = self.connection.screen
        return screen.columns, screen.lines

    @property
    def lines(self) -> list[str]:
        """The screen, one string per row (a wide character counts once)."""
        return (
            [line.rstrip() for line in self.connection.screen.display] if self.connections else []
        )

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    async def wait_until(
        self, condition: Callable[[], bool], what: str, timeout: float = TIMEOUT
    ) -> None:
        """Until ``condition()`` holds, woken by each frame (bounded in time)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            self._changed.clear()
            if condition():
                return
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(
                    f"{what}: not seen in {timeout:.0f} s ({self.state()}); the page shows:\n{self.text}"
                )
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(remaining, 0.5))

    def state(self) -> str:
        """How the page's connections stand, for a failure's message."""
        if not self.connections:
            return "no WebSocket opened"
        last = self.connection
        return (
            f"{len(self.connections)} WebSocket(s), the last {'closed' if last.closed else 'open'}"
            f"{', error ' + last.error if last.error else ''}, {len(last.received)} bytes received"
        )

    async def shows(self, needle: str, timeout: float = TIMEOUT) -> str:
        """The screen, once it shows ``needle`` (on one row)."""
        await self.wait_until(lambda: needle in self.text, repr(needle), timeout)
        return self.text

    async def gone(self, needle: str, timeout: float = TIMEOUT) -> str:
        """The screen, once ``needle`` has left it."""
        await self.wait_until(lambda: needle not in self.text, f"{needle!r} gone", timeout)
        return self.text

    async def screen_until(
        self, condition: Callable[[str], bool], what: str, timeout: float = TIMEOUT
    ) -> str:
        """The screen, once ``condition(screen)`` holds."""
        await self.wait_until(lambda: condition(self.text), what, timeout)
        return self.text

    # Keys and the mouse, as a person uses them.

    # Keys go where the page has put the keyboard focus, as a person's do: no
    # test focuses the terminal for them.

    async def press(self, *keys: str) -> None:
        """Press each key (Playwright's names: ``Enter``, ``ArrowDown``, ``Control+s``, ``n``)."""
        for key in keys:
            await self.page.keyboard.press(key)

    async def type(self, text: str) -> None:
        await self.page.keyboard.type(text)

    def find(self, needle: str) -> tuple[int, int]:
        """(column, row) of the first cell of ``needle`` on the screen."""
        for row, line in enumerate(self.cells()):
            text = "".join(char for _, char in line)
            index = text.find(needle)
            if index >= 0:
                return line[index][0], row
        raise AssertionError(f"{needle!r} is not on the page:\n{self.text}")

    def cells(self) -> list[list[tuple[int, str]]]:
        """Each row's characters with the column each starts in (wide ones take two)."""
        screen = self.connection.screen
        rows = []
        for y in range(screen.lines):
            line, x = [], 0
            while x < screen.columns:
                char = screen.buffer[y][x].data or " "
                line.append((x, char))
                x += 2 if wcwidth(char[0]) == 2 else 1
            rows.append(line)
        return rows

    async def middle_of(self, column: int, row: int) -> tuple[float, float]:
        """Where the page draws the middle of that cell (CSS pixels)."""
        box = await self.page.locator(".xterm-screen").bounding_box(timeout=TIMEOUT * 1000)
        assert box is not None, "the terminal is not on the page"
        columns, rows = self.size
        width, height = box["width"] / columns, box["height"] / rows
        return box["x"] + (column + 0.5) * width, box["y"] + (row + 0.5) * height

    async def click_cell(self, column: int, row: int) -> None:
        """A click in the middle of that cell, where the page draws it."""
        await self.page.mouse.click(*await self.middle_of(column, row))

    async def tap_cell(self, column: int, row: int) -> None:
        """A finger's tap in the middle of that cell (a page with ``has_touch``)."""
        await self.page.touchscreen.tap(*await self.middle_of(column, row))

    async def tap_text(self, needle: str, offset: int = 0) -> None:
        """Tap ``needle`` where the screen shows it (``offset`` cells into it)."""
        column, row = self.find(needle)
        await self.tap_cell(column + offset, row)

    async def click_text(self, needle: str, offset: int = 0) -> None:
        """Click on ``needle`` where the screen shows it (``offset`` cells into it)."""
        column, row = self.find(needle)
        await self.click_cell(column + offset, row)

    # That the page really drew.

    async def assert_drawn(self) -> None:
        """The page says it got the first bytes, and its picture is not blank."""
        await self.page.wait_for_function(
            "document.body.classList.contains('-first-byte')", timeout=TIMEOUT * 1000
        )
        png = await self.page.locator(".xterm-screen").screenshot(timeout=TIMEOUT * 1000)
        assert colour_count(png) > 1, "the terminal drew nothing: its picture is one colour"


def colour_count(png: bytes, at_most: int = 2) -> int:
    """How many colours a PNG's pixels take (counting stops at ``at_most``).

    Enough of a PNG decoder for a browser's screenshots: 8 bits a channel,
    grey/RGB/RGBA, not interlaced.
    """
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    position, chunks, header = 8, bytearray(), b""
    while position < len(png):
        (length,), kind = (
            struct.unpack(">I", png[position : position + 4]),
            png[position + 4 : position + 8],
        )
        body = png[position + 8 : position + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks += body
        position += 12 + length
    width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", header)
    channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(colour_type)
    assert depth == 8 and channels and not interlace, f"unexpected PNG: {depth=} {colour_type=}"
    raw, stride = zlib.decompress(bytes(chunks)), width * channels
    previous, colours = bytearray(stride), set[bytes]()
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = previous[x]
            upper_left = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                estimate = left + up - upper_left
                pa, pb, pc = abs(estimate - left), abs(estimate - up), abs(estimate - upper_left)
                line[x] = (
                    line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else upper_left)
                ) & 0xFF
        colours.update(bytes(line[x : x + channels]) for x in range(0, stride, channels))
        if len(colours) >= at_most:
            return len(colours)
        previous = line
    return len(colours)
