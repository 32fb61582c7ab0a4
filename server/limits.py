"""The limits every way in shares: rates (token buckets) and connection caps.

One module for the TCP lobby, the SSH door and the browser door, so that a
limit means the same thing and is refused in the same words wherever a
player comes in.  Pure and clock-injected (no I/O, no event loop), so the
policies are tested on their own; each door applies them to its connections.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from enum import Enum
from typing import Generic, TypeVar

T = TypeVar("T")


class TokenBucket:
    """``rate`` tokens a second, holding at most ``burst``.

    Two ways to use it:

    * ``take()``: one token per message, refused when there is none (the
      lobby's messages and chat lines: a refused message gets an error);
    * ``spend(amount)``: characters of terminal input that have already
      arrived.  The bucket may go negative; the answer is how long to stop
      reading the client to get back to zero (a door pauses the connection:
      SSH flow control or TCP backpressure makes the client wait, so the
      server never parses more than ``rate`` per second).  A keyboard, key
      repeat or a mouse reporting every motion stays far below it; a paste
      of a short chat line fits in ``burst``.
    """

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if rate <= 0 or burst <= 0:
            raise ValueError("a rate and a burst must be positive")
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._stamp = clock()
        self.refused = 0
        """Messages ``take`` refused since the bucket was last full."""

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now

    def take(self) -> bool:
        """True when a message may pass now (it takes one token)."""
        self._refill()
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            if self._tokens >= self.burst - 1:
                self.refused = 0
            return True
        self.refused += 1
        return False

    def full(self) -> bool:
        """Nothing taken that has not come back (it may be forgotten: a new one is the same)."""
        self._refill()
        return self._tokens >= self.burst

    def delay(self) -> float:
        """Seconds until ``take()`` would succeed (0: now)."""
        self._refill()
        return max(0.0, (1.0 - self._tokens) / self.rate)

    def spend(self, amount: int) -> float:
        """Take ``amount`` tokens for input already received; return the
        seconds to pause reading (0: none)."""
        self._refill()
        self._tokens -= amount
        if self._tokens >= 0:
            return 0.0
        return -self._tokens / self.rate


class Refusal(str, Enum):
    """Why a connection is refused, in the words every door uses."""

    FULL = "The server is full right now, please try again later."
    PER_ADDRESS = "Too many connections from your address."


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

    def admit(self, address: str, connection: T, *, per_address: bool = True) -> Refusal | None:
        """Register a new connection; return why it is refused (None: admitted).

        ``per_address=False``: not held to the cap per address (an address that many
        players share by design), but counted against the total all the same."""
        if self.total >= self.max_total:
            return Refusal.FULL
        if per_address and self.count(address) >= self.max_per_address:
            return Refusal.PER_ADDRESS
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
