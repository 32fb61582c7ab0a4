"""The control socket between the server process and one worker process.

A Unix ``SOCK_SEQPACKET`` socket: each message is one msgpack map in one
packet, with file descriptors attached when it hands over a socket (a
session's relay, a lobby connection).  Packets keep their boundaries, so a
message and its descriptors always arrive together.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import Callable
from typing import Any, Final

import msgpack

logger = logging.getLogger(__name__)

MAX_MESSAGE: Final = 64 * 1024
MAX_FDS: Final = 4
MAX_READS_AT_ONCE: Final = 64
STALL_TIMEOUT: Final = 30.0
"""Seconds the other side may leave a full socket unread before it is given up on."""

MessageHandler = Callable[[dict[str, Any], list[int]], None]


def control_pair() -> tuple[socket.socket, socket.socket]:
    """(ours, theirs): ``theirs`` is inherited by the worker process."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    ours.setblocking(False)
    theirs.set_inheritable(True)
    return ours, theirs


class ControlChannel:
    """Sends and receives control messages on the event loop.

    ``handler(message, fds)`` gets every message; it owns the descriptors
    (and must close the ones it does not keep).  ``closed`` resolves when the
    other side is gone.
    """

    def __init__(self, sock: socket.socket) -> None:
        sock.setblocking(False)
        self._sock: socket.socket | None = sock
        self._loop = asyncio.get_running_loop()
        self._handler: MessageHandler | None = None
        self.closed: asyncio.Future[None] = self._loop.create_future()
        self._outbox: list[tuple[bytes, list[socket.socket]]] = []
        self._stalled: asyncio.TimerHandle | None = None
        """Armed while the socket is full; reset by every message that goes out."""

    def start(self, handler: MessageHandler) -> None:
        self._handler = handler
        assert self._sock is not None
        self._loop.add_reader(self._sock.fileno(), self._readable)

    def send(
        self, message: dict[str, Any], handing_over: list[socket.socket] | None = None
    ) -> None:
        """Queue ``message``; the sockets in ``handing_over`` are closed here once sent."""
        if self._sock is None:
            for sock in handing_over or []:
                sock.close()
            return
        self._outbox.append((msgpack.packb(message, use_bin_type=True), handing_over or []))
        if self._stalled is None:
            self._flush()

    def close(self) -> None:
        sock, self._sock = self._sock, None
        if sock is not None:
            self._loop.remove_reader(sock.fileno())
            self._loop.remove_writer(sock.fileno())
            sock.close()
        for _data, handing_over in self._outbox:
            for handed in handing_over:
                handed.close()
        self._outbox.clear()
        if self._stalled is not None:
            self._stalled.cancel()
            self._stalled = None
        if not self.closed.done():
            self.closed.set_result(None)

    # -- internals ------------------------------------------------------------------

    def _flush(self) -> None:
        """Send what is queued; if the socket is full, wait until it is writable."""
        sock = self._sock
        while self._outbox and sock is not None:
            data, handing_over = self._outbox[0]
            try:
                socket.send_fds(sock, [data], [s.fileno() for s in handing_over])
            except BlockingIOError:
                if self._stalled is None:
                    self._loop.add_writer(sock.fileno(), self._flush)
                    self._stalled = self._loop.call_later(STALL_TIMEOUT, self._give_up)
                return
            except OSError as exc:
                logger.warning("control socket: %s", exc)
                self.close()
                return
            self._outbox.pop(0)
            for handed in handing_over:
                handed.close()
            if self._stalled is not None:  # progress: the other side is reading
                self._stalled.cancel()
                self._stalled = self._loop.call_later(STALL_TIMEOUT, self._give_up)
        if self._stalled is not None and sock is not None:
            self._loop.remove_writer(sock.fileno())
            self._stalled.cancel()
            self._stalled = None

    def _give_up(self) -> None:
        self._stalled = None
        logger.error(
            "control socket: the other side has read nothing for %.0f s; closing", STALL_TIMEOUT
        )
        self.close()

    def _readable(self) -> None:
        for _ in range(MAX_READS_AT_ONCE):  # what is waiting, within reason
            if not self._read_one():
                return

    def _read_one(self) -> bool:
        """Handle one message; False when there is nothing more to read now."""
        sock = self._sock
        if sock is None:
            return False
        try:
            data, fds, _flags, _address = socket.recv_fds(sock, MAX_MESSAGE, MAX_FDS)
        except (BlockingIOError, InterruptedError):
            return False
        except OSError as exc:
            logger.warning("control socket: %s", exc)
            self.close()
            return False
        if not data:
            for fd in fds:
                os.close(fd)
            self.close()
            return False
        try:
            message = msgpack.unpackb(data, raw=False)
            if not isinstance(message, dict):
                raise ValueError("not a map")
        except (ValueError, msgpack.UnpackException) as exc:
            logger.error("control socket: bad message (%s)", exc)
            for fd in fds:
                os.close(fd)
            return True
        assert self._handler is not None
        self._handler(message, list(fds))
        return True


__all__ = ["ControlChannel", "control_pair"]
