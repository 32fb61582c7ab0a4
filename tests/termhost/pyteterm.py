"""A player's terminal for the host's tests: pyte parses what a ``SessionHost`` writes."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from typing import Any

import pyte
from textual._context import active_app
from textual.app import App

from server.termhost.hosted import HostedSession

TIMEOUT = 10.0
WRITE_AT = re.compile(rb"\x1b\[(\d+);(\d+)H(?=(?:\x1b\[[0-9;]*m)*[^\x1b\r\n])")
"""The cursor moved to (row, column), both from 1, and characters written there (after
colours, if any): not only the cursor parked, as at the end of a frame."""

Cells = list[list[tuple[str, bool]]]


SYNC_QUERY = b"\x1b[?2026$p"
"""The app asks whether the terminal has synchronized updates ..."""
SYNC_SUPPORTED = b"\x1b[?2026;2$y"
"""... and a terminal that has them (``sync``) says so: the app then marks every frame."""


class PyteTransport:
    """The player's terminal: pyte parses what the host writes; ``writes`` keeps each
    piece as it was written."""

    def __init__(self, size: tuple[int, int], *, sync: bool = False) -> None:
        self.size = size
        self.screen = pyte.Screen(*size)
        self.stream = pyte.ByteStream(self.screen)
        self.writes: list[bytes] = []
        self.ended: int | None = None
        self.session: HostedSession | None = None
        """Set to answer the app's questions (``sync``)."""
        self._sync = sync

    def write(self, data: bytes) -> None:
        self.writes.append(bytes(data))
        self.stream.feed(data)
        if self._sync and SYNC_QUERY in data:
            session = self.session
            assert session is not None, "a terminal that answers needs its session"
            asyncio.get_running_loop().call_soon(session.feed, SYNC_SUPPORTED)

    def get_write_buffer_size(self) -> int:
        return 0

    def is_closing(self) -> bool:
        return self.ended is not None

    def abort(self) -> None:
        self.end(1)

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def end(self, status: int) -> None:
        self.ended = status

    @property
    def written(self) -> bytes:
        """Everything written so far."""
        return b"".join(self.writes)

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    def shown(self) -> Cells:
        """What the terminal shows: (character, reversed) per cell."""
        buffer, (width, height) = self.screen.buffer, self.size
        return [
            [(buffer[y][x].data, buffer[y][x].reverse) for x in range(width)] for y in range(height)
        ]


def rows_in(data: bytes) -> set[int]:
    """The screen rows (from 0) that ``data`` writes to."""
    return {int(row) - 1 for row, _ in WRITE_AT.findall(data)}


def drawn(app: App[Any]) -> Cells:
    """The app's whole screen rendered from scratch: (character, reversed) per cell.

    Rendered as the app's own tasks do, with the app active: some widgets (the
    footer's keys) look it up while they render."""
    token = active_app.set(app)
    try:
        strips = app.screen._compositor.render_strips()  # noqa: SLF001
    finally:
        active_app.reset(token)
    rows = []
    for strip in strips:
        row: list[tuple[str, bool]] = []
        for segment in strip:
            reverse = bool(segment.style and segment.style.reverse)
            row.extend((char, reverse) for char in segment.text)
        rows.append(row)
    return rows


async def until(condition: Callable[[], object], what: str, timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"not seen in {timeout} s: {what}"
        await asyncio.sleep(0.02)


async def until_alike(session: HostedSession, transport: PyteTransport) -> None:
    """Until the terminal shows, cell for cell, the app's whole screen."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        app = session.app
        if app is not None and app.is_running and transport.shown() == drawn(app):
            return
        await asyncio.sleep(0.02)
    assert app is not None
    expected = "\n".join("".join(c for c, _ in row) for row in drawn(app))
    raise AssertionError(f"the terminal shows\n{transport.text}\n\nbut the app drew\n{expected}")
