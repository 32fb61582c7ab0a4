"""The TCP side of an SSH connection, which asyncssh leaves unguarded.

asyncssh writes everything it sends to the connection's asyncio transport and
ignores ``pause_writing``: what it answers on its own (a reply to each
``keepalive@openssh.com`` or other global request, to each channel request
with want-reply, window adjustments) piles up in the transport's buffer
without bound when the client sends requests and never reads.  And pausing a
channel (the input budget) stops its data only: asyncssh goes on reading and
answering requests.

``ConnectionFlow`` closes both gaps, for the one session a connection has:

- while the transport's buffer is over its high-water mark, the connection
  is not read (nothing more is asked of it until the client reads), and the
  session is told (``on_full``) so that its write deadline runs even when the
  app writes nothing;
- the session's pause (its input budget) pauses the TCP reading too, so
  window changes and requests wait like keys do;
- ``buffered()`` is what the transport holds, counted by the session's
  transport with the channel's own buffer against the host's cap.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import Callable
from typing import Any, Final

import asyncssh

FULL: Final = "transport full"
BUDGET: Final = "input budget"

_FLOWS: weakref.WeakKeyDictionary[asyncssh.SSHServerConnection, ConnectionFlow] = (
    weakref.WeakKeyDictionary()
)


class ConnectionFlow:
    """Reading and writing of one SSH connection's TCP transport (see the module)."""

    def __init__(self, connection: asyncssh.SSHServerConnection) -> None:
        self._connection = weakref.ref(connection)  # _FLOWS keeps this by the connection
        self._paused_for: set[str] = set()
        self.on_full: Callable[[], None] | None = None
        """Called when the transport's buffer passes its high-water mark."""
        # asyncio calls its protocol's (asyncssh's connection's) pause_writing and
        # resume_writing, which asyncssh leaves empty: these take their place.
        connection.pause_writing = self._full  # type: ignore[method-assign]
        connection.resume_writing = self._drained  # type: ignore[method-assign]

    def _transport(self) -> asyncio.Transport | None:
        # A private attribute (server/termhost/private.py): asyncssh does not expose it.
        transport: Any = getattr(self._connection(), "_transport", None)
        return transport if isinstance(transport, asyncio.Transport) else None

    def buffered(self) -> int:
        """Bytes asyncssh wrote to the transport that the client has not taken yet."""
        transport = self._transport()
        return transport.get_write_buffer_size() if transport is not None else 0

    def pause(self, why: str) -> None:
        if not self._paused_for:
            transport = self._transport()
            if transport is not None and not transport.is_closing():
                with contextlib.suppress(RuntimeError):
                    transport.pause_reading()
        self._paused_for.add(why)

    def resume(self, why: str) -> None:
        if why not in self._paused_for:
            return
        self._paused_for.discard(why)
        if not self._paused_for:
            transport = self._transport()
            if transport is not None and not transport.is_closing():
                with contextlib.suppress(RuntimeError):
                    transport.resume_reading()

    def _full(self) -> None:
        self.pause(FULL)
        if self.on_full is not None:
            self.on_full()

    def _drained(self) -> None:
        self.resume(FULL)


def connection_flow(connection: asyncssh.SSHServerConnection) -> ConnectionFlow:
    """The connection's ``ConnectionFlow`` (made on first use: at ``connection_made``)."""
    flow = _FLOWS.get(connection)
    if flow is None:
        flow = _FLOWS[connection] = ConnectionFlow(connection)
    return flow
