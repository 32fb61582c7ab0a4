"""Rate limits: a token bucket per connection (messages) and per player (chat)."""

from __future__ import annotations

import time


class TokenBucket:
    """``rate`` tokens a second, holding at most ``burst``; each message takes one."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = float(burst)
        self._stamp = time.monotonic()
        self.refused = 0  # messages refused since the bucket was last full

    def take(self) -> bool:
        """True when a message may pass now."""
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            if self._tokens >= self.burst - 1:
                self.refused = 0
            return True
        self.refused += 1
        return False
