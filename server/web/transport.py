"""One browser's terminal as the host sees it: a ``TerminalTransport`` over a WebSocket.

Output from the app arrives as terminal bytes (``write``, which never
blocks): it is queued and sent by one writer task, every chunk queued
meanwhile coalesced into one binary frame, which textual.js writes to
xterm.js as it is.  The only text frame this server ever sends is ``pong``:
textual.js would act on others (``open_url`` opens a window,
``deliver_file_start`` a download), and nothing the app does reaches them.

Everything this server sends goes through the one writer and is counted in
``get_write_buffer_size`` (which the host holds to its cap and deadline):
output, pongs (textual.js's and WebSocket ones), heartbeat pings, the close.
Answers to pings are coalesced, one of each kind pending at most (the latest
payload wins): a client sending pings without reading queues a few bytes,
not one answer per ping.

The heartbeat is this transport's, not aiohttp's (aiohttp's restarts on any
byte received, so a client that only writes is never found out): a WebSocket
ping every ``heartbeat`` seconds, and a connection that has not answered it
``heartbeat / 2`` seconds later is dropped, whatever else it sends.

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

    from ..ratelog import RefusalLog

logger = logging.getLogger(__name__)

MAX_FRAME: Final = 256 * 1024
"""Bytes of output coalesced into one frame at most."""
CLOSE_OK: Final = int(WSCloseCode.OK)  # 1000: the player quit, the page offers "Play again"
CLOSE_FAILED: Final = int(WSCloseCode.INTERNAL_ERROR)  # 1011: the session failed
CLOSE_GOING_AWAY: Final = int(WSCloseCode.GOING_AWAY)  # 1001: the server stops; pages reconnect
CLOSE_TRY_LATER: Final = int(WSCloseCode.TRY_AGAIN_LATER)  # 1013: over a cap; the page says why
CLOSE_POLICY: Final = int(WSCloseCode.POLICY_VIOLATION)  # 1008: too many bad messages
_CONTROL_FRAME: Final = 2
"""Bytes a ping or pong frame costs besides its payload (its header), counted in the backlog."""


class WebSocketTransport:
    """``server.termhost.TerminalTransport`` for one browser connection."""

    def __init__(
        self,
        ws: web.WebSocketResponse,
        tcp: asyncio.Transport | None,
        *,
        heartbeat: float | None = None,
        peer: str = "?",
        non_readers: RefusalLog | None = None,
    ) -> None:
        self._ws = ws
        self._tcp = tcp
        self._peer = peer
        self._non_readers = non_readers
        """Counts the connections the heartbeat drops (the door's: one WARNING a minute)."""
        self._queue: deque[bytes] = deque()
        """Output, in order."""
        self._pong: str | None = None
        """textual.js's ``["pong", ...]`` to send, the latest asked."""
        self._ws_pong: bytes | None = None
        """A WebSocket pong to send (the payload of the latest ping)."""
        self._ws_ping = False
        """A heartbeat ping to send."""
        self._queued = 0
        """Bytes of everything above, not yet handed to aiohttp."""
        self._heartbeat = heartbeat
        self._pong_due = False
        """A heartbeat ping went out and its answer has not come."""
        self._beat: asyncio.TimerHandle | None = None
        self._wakeup = asyncio.Event()
        self._readable = asyncio.Event()
        self._readable.set()
        self._close: tuple[int, str] | None = None
        """Set once the connection is to close: code and reason, after the backlog."""
        self._aborted = False
        loop = asyncio.get_running_loop()
        self._writer = loop.create_task(self._send_all(), name="web-writer")
        if heartbeat is not None:
            self._beat = loop.call_later(heartbeat, self._heartbeat_due)

    # -- TerminalTransport ------------------------------------------------------

    def write(self, data: bytes) -> None:
        if data and self._close is None and not self._aborted:
            self._queue.append(bytes(data))
            self._queued += len(data)
            self._wakeup.set()

    def get_write_buffer_size(self) -> int:
        tcp = self._tcp
        return self._queued + (tcp.get_write_buffer_size() if tcp is not None else 0)

    @property
    def aborted(self) -> bool:
        """Dropped: what the browser sent meanwhile is not to be read any more."""
        return self._aborted

    def is_closing(self) -> bool:
        return self._close is not None or self._aborted or self._ws.closed

    def abort(self) -> None:
        """Drop the connection now, discarding what is queued."""
        if self._aborted:
            return
        self._aborted = True
        self._clear()
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

    def pong(self, payload: str) -> int:
        """Answer textual.js's ``["ping", ms]`` (it logs the round trip): the
        bytes this added to the backlog (an answer not yet sent is replaced)."""
        if self._close is not None or self._aborted:
            return 0
        text = json.dumps(["pong", payload])
        added = len(text) - (len(self._pong) if self._pong is not None else 0)
        self._pong = text
        return self._queue_control(added)

    def ws_pong(self, payload: bytes) -> int:
        """Answer a WebSocket ping (as ``pong``: the latest one only)."""
        if self._close is not None or self._aborted:
            return 0
        pending = self._ws_pong
        added = len(payload) - (len(pending) if pending is not None else -_CONTROL_FRAME)
        self._ws_pong = payload
        return self._queue_control(added)

    def pong_received(self) -> None:
        """The browser answered the heartbeat: the next ping in ``heartbeat`` seconds."""
        if not self._pong_due or self._heartbeat is None:
            return  # unsolicited: it proves nothing
        self._pong_due = False
        if self._beat is not None:
            self._beat.cancel()
        self._beat = asyncio.get_running_loop().call_later(self._heartbeat, self._heartbeat_due)

    def _heartbeat_due(self) -> None:
        """Send a ping; a ping still unanswered means the browser does not read."""
        self._beat = None
        heartbeat = self._heartbeat
        if heartbeat is None or self.is_closing():
            return
        if self._pong_due:
            # A line each at INFO; a stranger's many only count in the door's WARNING.
            logger.info(
                "web connection from %s dropped: no answer to a ping in %g s "
                "(it does not read, or sends more than its input budget lets us read)",
                self._peer,
                heartbeat / 2,
            )
            if self._non_readers is not None:
                self._non_readers.refused(self._peer)
            self.abort()
            return
        self._pong_due = True
        if not self._ws_ping:
            self._ws_ping = True
            self._queue_control(_CONTROL_FRAME)
        self._beat = asyncio.get_running_loop().call_later(heartbeat / 2, self._heartbeat_due)

    def _queue_control(self, added: int) -> int:
        self._queued += added
        self._wakeup.set()
        return max(added, 0)

    async def readable(self) -> None:
        """Until the host lets the door read input again."""
        await self._readable.wait()

    async def closed(self) -> None:
        """Until the writer task has sent the close (or the connection died)."""
        await asyncio.gather(self._writer, return_exceptions=True)

    def cancel(self) -> None:
        self._writer.cancel()
        self._stop_heartbeat()

    def _stop_heartbeat(self) -> None:
        if self._beat is not None:
            self._beat.cancel()
            self._beat = None

    def _clear(self) -> None:
        self._queue.clear()
        self._pong = self._ws_pong = None
        self._ws_ping = False
        self._queued = 0
        self._stop_heartbeat()

    async def _send_all(self) -> None:
        ws = self._ws
        try:
            while True:
                await self._wakeup.wait()
                self._wakeup.clear()
                while self._queue or self._has_control():
                    # Each send waits while the socket's buffer is full; answers go first.
                    await self._send_control()
                    if self._queue:
                        await ws.send_bytes(self._next_frame())
                if self._close is not None:
                    self._stop_heartbeat()
                    code, reason = self._close
                    await ws.close(code=code, message=reason.encode())
                    return
        except (ConnectionError, RuntimeError) as exc:
            # The browser went away (aiohttp raises ClientConnectionResetError,
            # a ConnectionError, or RuntimeError on a closing socket).
            logger.debug("web connection lost while sending: %s", exc)
            self._aborted = True
            self._clear()
        finally:
            # A reader paused by the input budget must see the end: the host
            # drops its resume timer once the session is over.
            self._readable.set()

    def _has_control(self) -> bool:
        return self._ws_ping or self._ws_pong is not None or self._pong is not None

    async def _send_control(self) -> None:
        """Send the pending ping and answers, each taken off the backlog as it goes."""
        ws = self._ws
        if self._ws_ping:
            self._ws_ping = False
            self._queued -= _CONTROL_FRAME
            await ws.ping()
        if self._ws_pong is not None:
            payload, self._ws_pong = self._ws_pong, None
            self._queued -= len(payload) + _CONTROL_FRAME
            await ws.pong(payload)
        if self._pong is not None:
            text, self._pong = self._pong, None
            self._queued -= len(text)
            await ws.send_str(text)

    def _next_frame(self) -> bytes:
        """Every queued output chunk up to ``MAX_FRAME`` as one frame."""
        chunks = [self._queue.popleft()]
        size = len(chunks[0])
        while self._queue and size < MAX_FRAME:
            chunk = self._queue.popleft()
            chunks.append(chunk)
            size += len(chunk)
        self._queued -= size
        return b"".join(chunks)
