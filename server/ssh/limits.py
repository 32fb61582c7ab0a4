"""Bookkeeping for the SSH server's limits: input rate and connection counts.

Pure and clock-injected (no I/O, no event loop), so the policies can be
tested on their own; ``session.py`` applies them to real channels.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass
class InputBudget:
    """A token bucket on the characters a player may type per second.

    A keyboard, key repeat or a mouse in "report every motion" mode stays far
    below ``rate``; a paste of a short chat line fits in ``burst``.  A client
    that sends more is not dropped: the session pauses reading from its
    channel until the bucket has refilled, so SSH flow control makes the
    client wait and the server never parses more than ``rate`` per second.
    """

    rate: float
    """Characters per second, sustained."""
    burst: float
    """Characters that may arrive at once after a quiet period."""
    clock: Callable[[], float] = time.monotonic
    _tokens: float = field(init=False)
    _updated: float = field(init=False)

    def __post_init__(self) -> None:
        if self.rate <= 0 or self.burst <= 0:
            raise ValueError("input rate and burst must be positive")
        self._tokens = self.burst
        self._updated = self.clock()

    def spend(self, amount: int) -> float:
        """Take ``amount`` characters; return seconds to pause (0: none).

        The bucket may go negative (the data has already arrived and is
        processed); the pause is exactly what it takes to get back to zero.
        """
        now = self.clock()
        self._tokens = min(self.burst, self._tokens + (now - self._updated) * self.rate)
        self._updated = now
        self._tokens -= amount
        if self._tokens >= 0:
            return 0.0
        return -self._tokens / self.rate


class ConnectionRegistry(Generic[T]):
    """Open connections, by client address, held against caps."""

    def __init__(self, max_total: int, max_per_address: int) -> None:
        self.max_total = max_total
        self.max_per_address = max_per_address
        self._by_address: dict[str, set[T]] = {}
        self.total = 0

    def count(self, address: str) -> int:
        return len(self._by_address.get(address, ()))

    def __iter__(self) -> Iterator[T]:
        """A snapshot of every open connection."""
        return iter([conn for conns in self._by_address.values() for conn in conns])

    def admit(self, address: str, connection: T) -> str | None:
        """Register a new connection; return why it is refused (None: admitted)."""
        if self.total >= self.max_total:
            return "The server is full right now, please try again later."
        if self.count(address) >= self.max_per_address:
            return "Too many connections from your address."
        self._by_address.setdefault(address, set()).add(connection)
        self.total += 1
        return None

    def release(self, address: str, connection: T) -> None:
        """Forget an admitted connection (unknown ones are ignored)."""
        conns = self._by_address.get(address)
        if conns is None or connection not in conns:
            return
        conns.discard(connection)
        self.total -= 1
        if not conns:
            del self._by_address[address]
