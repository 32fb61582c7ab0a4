"""Counted WARNINGs: what a stranger can make happen again and again, said at most once
a minute (with the count since the last time), never a line each.

The browser door's refusals (``web.strangers``) and the host's apps that end as their
connection opens (``termhost.hardening``) are counted here: a flood costs the log a
line a minute, and a real fault is still said.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Final

REPORT_INTERVAL: Final = 60.0
"""Seconds between two WARNING lines of one ``RefusalLog``."""


class RefusalLog:
    """One kind of refusal: counted, and reported at most every ``interval`` seconds."""

    def __init__(
        self,
        logger: logging.Logger,
        what: str,
        *,
        interval: float = REPORT_INTERVAL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._logger = logger
        self._what = what
        self._interval = interval
        self._clock = clock
        self.count = 0
        """Refusals since the door started."""
        self._unreported = 0
        self._next_report: float | None = None

    def refused(self, detail: str) -> None:
        """One more (``detail``: the latest's address and reason, in the report)."""
        self.count += 1
        self._unreported += 1
        now = self._clock()
        if self._next_report is not None and now < self._next_report:
            return
        self._logger.warning(
            "%s: %d since the last report, %d in all (latest: %s)",
            self._what,
            self._unreported,
            self.count,
            detail,
        )
        self._unreported = 0
        self._next_report = now + self._interval
