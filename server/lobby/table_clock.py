"""What a table does on its own, when nobody asks: one task per table.

The clock sleeps until the next thing due, or until woken by a change, then
does it: a bot's move (paced so people can follow), a bot playing for a seat
whose turn timer ran out or whose player is away past the grace time, the
next round, and closing a table that nobody is at any more. A table where
nobody is present does not move at all: bots and timers wait for someone.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from ..protocol import LeftReason, TableStatus
from .table import IN_GAME

if TYPE_CHECKING:
    from .play import TablePlay

logger = logging.getLogger(__name__)

Step = Callable[[], Awaitable[None]]
Due = tuple[float, Step]  # (monotonic time, what to do then)
ERROR_BACKOFF = 1.0  # seconds the clock rests after a failed step


class TableClock:
    def __init__(self, play: TablePlay) -> None:
        self.play = play
        self.table = play.table
        self.pace = play.pace
        self.empty_since: float | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopped = False

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(
            self._run(), name=f"table-{self.table.id}"
        )

    async def stop(self) -> None:
        """Stop for good (the table is closed or the server stops); safe from the clock itself."""
        self._stopped = True
        self.wake()
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        self._task = None

    def wake(self) -> None:
        """Something changed: look again at what is due."""
        self._wake.set()

    def presence_changed(self) -> None:
        """Someone came or went: an empty table starts counting towards its closing."""
        if self.table.anyone_here():
            self.empty_since = None
        elif self.empty_since is None:
            self.empty_since = time.monotonic()
        self.wake()

    async def _run(self) -> None:
        while not self._stopped:
            self._wake.clear()
            due = self._next_due(time.monotonic())
            if due is None:
                await self._wake.wait()
                continue
            when, step = due
            delay = when - time.monotonic()
            if delay > 0:
                try:
                    await asyncio.wait_for(self._wake.wait(), delay)
                    continue  # something changed first: look again
                except TimeoutError:
                    pass
            try:
                await step()
            except Exception:
                logger.exception("table %s: an automatic step failed", self.table.id)
                await asyncio.sleep(ERROR_BACKOFF)

    def _next_due(self, now: float) -> Due | None:
        """The earliest thing this table does on its own, and when."""
        table, play = self.table, self.play
        if not table.anyone_here():
            return self._closing_due()
        due: list[Due] = []
        if table.status in IN_GAME:
            due.extend(self._grace_due())
        if table.status == TableStatus.PLAYING:
            due.extend(self._moves_due())
        if table.status == TableStatus.BETWEEN_ROUNDS:
            when = now if play.everyone_ready() else (play.next_round_at or now)
            due.append((when, play.next_round))
        return min(due, key=lambda item: item[0]) if due else None

    def _closing_due(self) -> Due:
        if self.empty_since is None:
            self.empty_since = time.monotonic()
        # One wait, in a game or not: the seats are kept for people coming back
        # (a blip, a restart), and a table everyone walked away from closes soon.
        return self.empty_since + self.pace.empty_table, self._close_abandoned

    async def _close_abandoned(self) -> None:
        if not self.table.anyone_here():
            await self.play.host.close_table(self.table, LeftReason.CLOSED)

    def _grace_due(self) -> list[Due]:
        """People away past the grace time get a bot playing for them."""
        due = []
        for index, _ in self.table.filled():
            place = self.table.place_at(index)
            if place is not None and not place.standin and place.away_since is not None:
                due.append((place.away_since + self.pace.grace_period, self._autoplay_step(index)))
        return due

    def _autoplay_step(self, index: int) -> Step:
        async def step() -> None:
            place = self.table.place_at(index)
            if place is not None and place.away_since is not None and not place.standin:
                place.standin = True
                self.table.push_table()

        return step

    def _moves_due(self) -> list[Due]:
        due = []
        for index in self.play.acting_seats():
            when = self.play.bot_move_time(index)
            if when is not None:
                due.append((when, self._move_step(index)))
        return due

    def _move_step(self, index: int) -> Step:
        return lambda: self.play.bot_move(index)
