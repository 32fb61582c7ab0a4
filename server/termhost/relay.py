"""One session's terminal between the server process and the worker running its app.

When apps run in worker processes (``server.termhost.workers``), each session has
a stream socket pair between the two: the server side keeps the real channel
(flow control, input budget, write-buffer cap, idle timer) and relays; the
worker side drives the app through an ordinary ``ChannelTerminal`` whose
channel is this socket.  Frames are msgpack arrays, one after another:

* to the worker: ``["in", text]`` (client input, already decoded),
  ``["size", columns, rows]`` (already clamped), ``["stop"]`` (the client left:
  the app should exit);
* to the server side: ``["out", bytes]`` (terminal output), ``["exit", status]``
  (the app has finished; nothing follows).

After ``exit`` the worker ends its half of the stream and waits for the SSH
side to close the relay; a stream that ends without ``exit`` means the worker
died.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any, Final

import msgpack

from .driver import ChannelTerminal

logger = logging.getLogger(__name__)

MAX_FRAME: Final = 4 * 1024 * 1024
"""Largest frame accepted either way (a full redraw of the largest screen is far smaller)."""


def _unpacker() -> msgpack.Unpacker:
    return msgpack.Unpacker(raw=False, max_buffer_size=MAX_FRAME)


class _FrameProtocol(asyncio.Protocol):
    """Decodes frames; subclasses handle them."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self._frames = _unpacker()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        try:
            self._frames.feed(data)
            for frame in self._frames:
                if not isinstance(frame, list) or not frame:
                    raise ValueError(f"not a frame: {type(frame).__name__}")
                self.frame_received(frame)
        except (ValueError, msgpack.UnpackException, TypeError) as exc:
            logger.error("relay: bad frame (%s); closing the session's relay", exc)
            if self.transport is not None:
                self.transport.abort()

    def send(self, *frame: Any) -> None:
        transport = self.transport
        if transport is not None and not transport.is_closing():
            transport.write(msgpack.packb(frame, use_bin_type=True))

    def frame_received(self, frame: list[Any]) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


# --------------------------------------------------------------------------
# the server side
# --------------------------------------------------------------------------


class RemoteApp(_FrameProtocol):
    """Stands for a session's app on the server side.

    Attached to the session's ``ChannelTerminal`` in place of a driver: input
    and window sizes go to the worker, output comes back to the terminal.
    """

    def __init__(
        self, terminal: ChannelTerminal, on_input: Callable[[], None] | None = None
    ) -> None:
        super().__init__()
        self._terminal = terminal
        self._on_input = on_input
        """Told of every key relayed (the pool checks the worker is alive)."""
        self._stopping = False
        self._status: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()

    # -- driver side of ChannelTerminal ---------------------------------------------

    def feed(self, text: str) -> None:
        self.send("in", text)
        if self._on_input is not None:
            self._on_input()

    def resize(self, width: int, height: int) -> None:
        self.send("size", width, height)

    def _cancel_tick(self) -> None:
        """Nothing to cancel: the worker's driver keeps its own escape timer."""

    # -- lifecycle ------------------------------------------------------------------

    def stop(self) -> None:
        """Ask the app to exit (its player left); said once."""
        if not self._stopping:
            self._stopping = True
            self.send("stop")

    async def finished(self) -> int | None:
        """The app's exit status; None if the worker vanished before saying it."""
        return await self._status

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()

    def frame_received(self, frame: list[Any]) -> None:
        kind = frame[0]
        if kind == "out" and len(frame) == 2 and isinstance(frame[1], bytes):
            self._terminal.write_bytes(frame[1])
        elif kind == "exit" and len(frame) == 2 and isinstance(frame[1], int):
            if not self._status.done():
                self._status.set_result(frame[1] & 0xFF)
        else:
            raise ValueError(f"unexpected frame from a worker: {kind!r}")

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        if not self._status.done():
            self._status.set_result(None)


# --------------------------------------------------------------------------
# the worker side
# --------------------------------------------------------------------------


class PipeChannel(_FrameProtocol):
    """The worker's stand-in for a door.s transport (``driver.ChannelLike``).

    The worker's ``ChannelTerminal`` writes to it and gets its input from it;
    ``on_stop`` is called once when the server side says the client left, or
    when the relay breaks.
    """

    def __init__(self, on_stop: Callable[[str], None]) -> None:
        super().__init__()
        self.terminal: ChannelTerminal | None = None
        self._on_stop: Callable[[str], None] | None = on_stop
        self.closed = asyncio.get_running_loop().create_future()

    # -- ChannelLike ----------------------------------------------------------------

    def write(self, data: bytes | str) -> None:
        self.send("out", data.encode("utf-8", "replace") if isinstance(data, str) else data)

    def get_write_buffer_size(self) -> int:
        return self.transport.get_write_buffer_size() if self.transport is not None else 0

    def get_encoding(self) -> tuple[str | None, str]:
        return None, "strict"

    def is_closing(self) -> bool:
        return self.transport is None or self.transport.is_closing()

    def abort(self) -> None:
        if self.transport is not None:
            self.transport.abort()

    def pause_reading(self) -> None:
        """Input is budgeted on the server side; nothing to pause here."""

    def resume_reading(self) -> None:
        """Input is budgeted on the server side; nothing to resume here."""

    # -- frames ----------------------------------------------------------------------

    async def exit(self, status: int, timeout: float) -> None:
        """Report the app's exit status and end our half of the stream.

        Our side stays open for reading until the server side closes the relay
        (at most ``timeout`` seconds): what it sends meanwhile (a last key, a
        "stop") must not hit a closed socket, whose error would make it drop
        the exit status still unread in its buffer.
        """
        self.send("exit", status & 0xFF)
        transport = self.transport
        if transport is None:
            return
        if transport.can_write_eof():
            transport.write_eof()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(self.closed), timeout)
        transport.close()

    def frame_received(self, frame: list[Any]) -> None:
        kind, terminal = frame[0], self.terminal
        if kind == "in" and len(frame) == 2 and isinstance(frame[1], str):
            if terminal is not None:
                terminal.feed(frame[1])
        elif kind == "size" and len(frame) == 3 and all(isinstance(n, int) for n in frame[1:]):
            if terminal is not None:
                terminal.resize(frame[1], frame[2])
        elif kind == "stop" and len(frame) == 1:
            self._stop("client left")
        else:
            raise ValueError(f"unexpected frame from the server side: {kind!r}")

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        self._stop("relay closed")
        if not self.closed.done():
            self.closed.set_result(None)

    def _stop(self, reason: str) -> None:
        on_stop, self._on_stop = self._on_stop, None
        if on_stop is not None:
            on_stop(reason)


__all__ = ["MAX_FRAME", "PipeChannel", "RemoteApp"]
