"""One client connection as the lobby sees it: who it is and how to reach it.

Where the player is (a table, a seat) is not kept here: ``places.Places``
is the one record of it.

Sending never waits: frames go straight into the transport's buffer, and a
client whose buffer grows past the limit (it does not read) is dropped on the
spot, so a slow reader costs the server a bounded amount of memory and never
delays anyone else's pushes.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import ssl
from collections.abc import Mapping
from typing import Any, Final

from ..config import Limits
from ..limits import TokenBucket
from ..protocol import ErrorCode, bye, encode_frame

logger = logging.getLogger(__name__)

_ids = itertools.count(1)
#: The address of a connection opened in-process with none of its own (the local game;
#: a door passes its client's).
IN_PROCESS = "in-process"
#: The way in of a connection: TCP, the local game; the terminal doors name
#: theirs (``DoorPlayer.door``: "ssh", "web").
TCP, LOCAL = "tcp", "local"


class Session:
    def __init__(
        self,
        writer: asyncio.StreamWriter,
        limits: Limits,
        *,
        identity: str | None = None,
        address: str = "",
        door: str = TCP,
    ) -> None:
        self.id = next(_ids)
        self.identity = identity  # trusted: only in-process front doors and door hosts set it
        self.address = address
        self.tcp_address = address
        """The peer's own address: a door host's for its players' connections."""
        self.door = door  # the way in: TCP, LOCAL, or a terminal door's name
        self.door_host = ""
        """The door host that claimed this connection (``server.link``); "": none."""
        self.door_claimed = False
        self.door_nonce: bytes | None = None  # asked for by a door host, used once
        self.tls = False
        self._writer = writer
        self._output_limit = limits.output_buffer
        self.messages = TokenBucket(limits.messages_per_second, limits.message_burst)
        self.chat = TokenBucket(limits.chat_per_second, limits.chat_burst)
        self.welcomed = False  # hello answered (a name may still be missing)
        self.player_id: int | None = None
        self.name: str | None = None
        self.muted: set[int] = set()
        self.closed = False

    def __repr__(self) -> str:
        return f"<Session {self.id} {self.name or '-'} {self.address}>"

    @property
    def has_name(self) -> bool:
        return self.player_id is not None

    # -- sending -------------------------------------------------------------------

    def send(self, message: Mapping[str, Any]) -> None:
        self.send_frame(encode_frame(message))

    def send_frame(self, data: bytes) -> None:
        """Queue one encoded frame; drop the client if it stopped reading."""
        if self.closed:
            return
        transport = self._writer.transport
        if transport.is_closing():
            self.closed = True
            return
        self._writer.write(data)
        if transport.get_write_buffer_size() > self._output_limit:
            logger.warning("%r does not read its messages: dropped", self)
            self.abort()

    def claim_door(self, *, identity: str | None, door: str, address: str, door_host: str) -> None:
        """A door host proved the door secret: this connection is its player's."""
        self.identity, self.door, self.address = identity, door, address
        self.door_host = door_host
        self.door_claimed = True

    async def start_tls(self, context: ssl.SSLContext, timeout: float) -> None:
        """TLS from here on (a door host's link), once what is queued (the ok) is sent."""
        await self._writer.start_tls(context, ssl_handshake_timeout=timeout)
        self.tls = True

    def close(self, code: ErrorCode, message: str, *, quiet: bool = False) -> None:
        """Say why, then end the stream once what is queued has been sent (``quiet``: no
        log line; the caller counts it)."""
        if self.closed:
            return
        if not quiet and code is not ErrorCode.SHUTTING_DOWN:  # the server says so once
            logger.info("%r disconnected: %s (%s)", self, message, code.value)
        self.send(bye(code, message))
        self.closed = True
        half_close(self._writer)

    def abort(self) -> None:
        """Close at once, discarding what is queued (the client is not reading)."""
        self.closed = True
        self._writer.transport.abort()


LINGER: Final = 1.0
"""Seconds a connection we closed is still read from (``half_close``, ``linger``)."""


def half_close(writer: asyncio.StreamWriter) -> None:
    """End our half of the stream after what is queued (the bye), and close it all
    ``LINGER`` seconds later at the latest.

    Closing a socket outright while the client's bytes wait unread makes TCP reset
    the connection, which throws away the bye still on its way: a client that sent an
    oversized frame, or trickled bytes past a deadline, heard nothing of why.
    """
    transport = writer.transport
    try:
        halved = transport.can_write_eof()
        if halved:
            transport.write_eof()
    except OSError:  # the client has gone already
        halved = False
    if not halved:
        writer.close()
        return
    asyncio.get_running_loop().call_later(LINGER, transport.close)


async def linger(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """After ``half_close``: drop what the client still sends until it closes its half
    (``LINGER`` seconds at most), then close."""
    with contextlib.suppress(TimeoutError, ConnectionError, OSError):
        async with asyncio.timeout(LINGER):
            while await reader.read(65536):
                pass
    writer.close()
