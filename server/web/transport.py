"""One browser's terminal as the host sees it: a ``TerminalTransport`` over a WebSocket.

Output from the app arrives as terminal bytes (``write``, which never
blocks): it is queued and sent by one writer task, every chunk queued
meanwhile coalesced into one binary frame, which textual.js writes to
xterm.js as it is.  The only text frame this server ever sends is ``pong``:
textual.js would act on others (``open_url`` opens a window,
``deliver_file_start`` a download), and nothing the app does reaches them.

``pause_reading`` stops the door's reader from taking messages off the
WebSocket: aiohttp's queue fills (128 KiB) and pauses the TCP transport,
so the browser's own TCP window makes it wait.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import deque
from typing import TYPE_CHECKING, Final

from aiohttp import WSCloseCode

if TYPE_CHECKING:
    from aiohttp import web

logger = logging.getLogger(__name__)

MAX_FRAME: Final = 256 * 1024
"""Bytes of output coalesced into one frame at most."""
CLOSE_OK: Final = int(WSCloseCode.OK)  # 1000: the player quit, the page offers "Play again"
CLOSE_FAILED: Final = int(WSCloseCode.INTERNAL_ERROR)  # 1011: the session failed
CLOSE_GOING_AWAY: Final = int(WSCloseCode.GOING_AWAY)  # 1001: the server stops; pages reconnect
CLOSE_TRY_LATER: Final = int(WSCloseCode.TRY_AGAIN_LATER)  # 1013: over a cap; the page says why
CLOSE_POLICY: Final = int(WSCloseCode.POLICY_VIOLATION)  # 1008: too many bad messages


class WebSocketTransport:
    """``server.termhost.TerminalTransport`` for one browser connection."""

    def __init__(self, ws: web.WebSocketResponse, tcp: asyncio.Transport | None) -> None:
        self._ws = ws
        self._tcp = tcp
        self._queue: deque[bytes | str] = deque()
        """Output (bytes) and pongs (str), in order."""
        self._queued = 0
        self._wakeup = asyncio.Event()
        self._readable = asyncio.Event()
        self._readable.set()
        self._close: tuple[int, str] | None = None
        """Set once the connection is to close: code and reason, after the backlog."""
        self._aborted = False
        self._writer = asyncio.get_running_loop().create_task(self._send_all(), name="web-writer")

    # -- TerminalTransport ------------------------------------------------------

    def write(self, data: bytes) -> None:
        if data and self._close is None and not self._aborted:
            self._queue.append(bytes(data))
            self._queued += len(data)
            self._wakeup.set()

    def get_write_buffer_size(self) -> int:
        tcp = self._tcp
        return self._queued + (tcp.get_write_buffer_size() if tcp is not None else 0)

    def is_closing(self) -> bool:
        return self._close is not None or self._aborted or self._ws.closed

    def abort(self) -> None:
        """Drop the connection now, discarding what is queued."""
        if self._aborted:
            return
        self._aborted = True
        self._queue.clear()
        self._queued = 0
        self._writer.cancel()
        self._readable.set()  # the reader must see the end, not wait
        if self._tcp is not None:
            self._tcp.abort()

    def pause_reading(self) -> None:
        self._readable.clear()

    def resume_reading(self) -> None:
        self._readable.set()

    def end(self, status: int) -> None:
        """The session is over: send what is queued, then close (1000, or 1011)."""
        if status == 0:
            self.close(CLOSE_OK, "session ended")
        else:
            self.close(CLOSE_FAILED, "session failed")

    # -- for the door -----------------------------------------------------------

    def close(self, code: int, reason: str) -> None:
        """Close after the backlog with ``code`` (the first close asked wins)."""
        if self._close is None:
            self._close = (code, reason)
            self._wakeup.set()

    def refused(self, reason: str) -> None:
        """The host would not open a session (it wrote why and ended us): close
        with 1013 and ``reason``, so the page shows it instead of reconnecting.
        Called before anything was sent (the writer has not run since)."""
        if not self._aborted:
            self._close = (CLOSE_TRY_LATER, reason)
            self._wakeup.set()

    def pong(self, payload: str) -> None:
        """Answer textual.js's ``["ping", ms]`` (it logs the round trip)."""
        if self._close is None and not self._aborted:
            self._queue.append(json.dumps(["pong", payload]))
            self._wakeup.set()

    async def readable(self) -> None:
        """Until the host lets the door read input again."""
        await self._readable.wait()

    async def closed(self) -> None:
        """Until the writer task has sent the close (or the connection died)."""
        await asyncio.gather(self._writer, return_exceptions=True)

    def cancel(self) -> None:
        self._writer.cancel()

    async def _send_all(self) -> None:
        ws = self._ws
        try:
            while True:
                await self._wakeup.wait()
                self._wakeup.clear()
                while self._queue:
                    item = self._next_frame()
                    if isinstance(item, str):
                        await ws.send_str(item)
                    else:
                        await ws.send_bytes(item)  # waits while the socket's buffer is full
                if self._close is not None:
                    code, reason = self._close
                    await ws.close(code=code, message=reason.encode())
                    return
        except (ConnectionError, RuntimeError) as exc:
            # The browser went away (aiohttp raises ClientConnectionResetError,
            # a ConnectionError, or RuntimeError on a closing socket).
            logger.debug("web connection lost while sending: %s", exc)
            self._aborted = True
            self._queue.clear()
            self._queued = 0
        finally:
            # A reader paused by the input budget must see the end: the host
            # drops its resume timer once the session is over.
            self._readable.set()

    def _next_frame(self) -> bytes | str:
        """The next text frame, or every queued output chunk up to ``MAX_FRAME`` as one."""
        first = self._queue.popleft()
        if isinstance(first, str):
            return first
        chunks = [first]
        size = len(first)
        while self._queue and isinstance(self._queue[0], bytes) and size < MAX_FRAME:
            chunk = self._queue.popleft()
            assert isinstance(chunk, bytes)
            chunks.append(chunk)
            size += len(chunk)
        self._queued -= size
        return b"".join(chunks)
