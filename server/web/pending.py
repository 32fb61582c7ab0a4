"""Caps on the browser door's connections before their WebSocket upgrade.

Every TCP connection to the door costs a file descriptor from the moment it
is accepted, long before it has sent a request: a few thousand that never
send one would take the whole process to its descriptor limit (no new
player, browser or health check could be accepted).  The caps on WebSocket
connections (``server.limits.ConnectionRegistry``) count only upgraded
ones, so connections still on their way in (a page, its files, a health
check, a request not complete yet) are held here, by the protocol factory
itself, before aiohttp sees them:

- from one address, at most ``max_per_address``: one more is closed at
  once (a reset: no answer, no task, no log line of its own); a trusted
  reverse proxy (``--web-trust-proxy``) brings everyone's connections, so
  it has no such cap (which player is behind it is not known before the
  request's headers);
- in all, at most ``max_total``: then the address with the most of them
  gives way.  A newcomer from that address (or one that would have as many)
  is closed at once; one from any other address makes room by closing the
  heaviest address's oldest connection that has sent nothing yet (else its
  oldest).  A flood's addresses are the heavy ones, and its connections
  the silent ones (an honest client sends its request as it connects): a
  flood from many addresses cannot keep a health check or a new player
  from another address out.

A connection stops counting here once the door upgrades it to the game's
WebSocket (``upgraded``) or it closes.  Each refusal is counted in a
``RefusalLog``: one WARNING line a minute at most.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from ..listen import peer_host
from .strangers import RefusalLog


class PendingConnections:
    """The connections not upgraded yet, by address, against the two caps."""

    def __init__(
        self,
        max_total: int,
        max_per_address: int,
        refusals: RefusalLog,
        *,
        uncapped: Callable[[str], bool] = lambda address: False,
    ) -> None:
        self.max_total = max_total
        self.max_per_address = max_per_address
        self.refusals = refusals
        self._uncapped = uncapped
        """Addresses without a cap of their own (the trusted proxies)."""
        self._address_of: dict[asyncio.Transport, str] = {}
        self._by_address: dict[str, dict[asyncio.Transport, None]] = {}
        """Each address's pending connections, oldest first."""
        self._silent: set[asyncio.Transport] = set()
        """Those that have sent nothing yet."""

    def __len__(self) -> int:
        return len(self._address_of)

    def admit(self, transport: asyncio.Transport, address: str) -> bool:
        """Count a new connection; False: over a cap, close it."""
        mine = len(self._by_address.get(address, ()))
        if mine >= self.max_per_address and not self._uncapped(address):
            self.refusals.refused(f"{address}: {self.max_per_address} from one address")
            return False
        if len(self._address_of) >= self.max_total:
            heaviest = max(self._by_address.values(), key=len)
            if mine >= len(heaviest):  # it would be the heaviest itself
                self.refusals.refused(f"{address}: {self.max_total} in all, the most from it")
                return False
            victim = next((t for t in heaviest if t in self._silent), next(iter(heaviest)))
            victim_address = self._address_of[victim]
            self.forget(victim)
            self.refusals.refused(
                f"{victim_address}: {self.max_total} in all, the most from it: "
                "its oldest closed for a newcomer"
            )
            victim.abort()
        self._address_of[transport] = address
        self._by_address.setdefault(address, {})[transport] = None
        self._silent.add(transport)
        return True

    def heard(self, transport: asyncio.Transport) -> None:
        """It sent its first bytes: closed for a newcomer after its address's silent ones."""
        self._silent.discard(transport)

    def forget(self, transport: asyncio.Transport) -> None:
        """It upgraded, or it closed: it no longer counts."""
        address = self._address_of.pop(transport, None)
        if address is None:
            return
        self._silent.discard(transport)
        others = self._by_address[address]
        del others[transport]
        if not others:
            del self._by_address[address]

    upgraded = forget


class GuardedProtocol(asyncio.Protocol):
    """aiohttp's protocol for one connection, made only once ``pending`` admits it.

    Everything asyncio calls is passed on to aiohttp's ``RequestHandler``
    (aiohttp reaches its handler through the request, never through the
    transport's protocol).  A refused connection is reset at once and never
    reaches aiohttp.
    """

    def __init__(self, make_handler: Callable[[], Any], pending: PendingConnections) -> None:
        self._make_handler = make_handler
        self._pending = pending
        self._handler: Any = None
        self._transport: asyncio.Transport | None = None
        self._heard = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)  # a TCP server's
        self._transport = transport
        address = peer_host(transport.get_extra_info("peername"))
        if not self._pending.admit(transport, address):
            transport.abort()
            return
        self._handler = self._make_handler()
        self._handler.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._transport is not None:
            self._pending.forget(self._transport)
        if self._handler is not None:
            self._handler.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._handler is not None:
            if not self._heard:
                self._heard = True
                assert self._transport is not None
                self._pending.heard(self._transport)
            self._handler.data_received(data)

    def eof_received(self) -> bool | None:
        return self._handler.eof_received() if self._handler is not None else None

    def pause_writing(self) -> None:
        if self._handler is not None:
            self._handler.pause_writing()

    def resume_writing(self) -> None:
        if self._handler is not None:
            self._handler.resume_writing()


__all__ = ["GuardedProtocol", "PendingConnections"]
