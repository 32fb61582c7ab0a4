"""The turn timer as the server announces it: seconds left, counted down locally."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(slots=True)
class TurnTimer:
    deadline: float | None = None  # on the local monotonic clock
    seats: tuple[int, ...] = ()  # whose turn it times

    @property
    def running(self) -> bool:
        return self.deadline is not None

    def set(self, timer: dict[str, Any] | None, now: float) -> None:
        """From a ``game`` push's ``timer``: ``{"seats", "remaining", "total"}`` or None."""
        if not timer:
            self.deadline, self.seats = None, ()
            return
        self.deadline = now + max(0.0, float(timer.get("remaining") or 0))
        self.seats = tuple(timer.get("seats") or ())

    def seconds_left(self, now: float) -> int | None:
        return None if self.deadline is None else max(0, round(self.deadline - now))
