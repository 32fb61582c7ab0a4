"""Bots think in worker threads, so the event loop never waits on them.

A bot's decision is plain CPU work: a few milliseconds for the expert on
average, but over a hundred in some positions on a busy machine. Run on the
event loop, that would stall every connection and every table for as long.
In a worker thread the loop keeps serving meanwhile (Python hands the GIL
back and forth every few milliseconds). Two workers: the machine this runs on
has few cores, and bot moves are paced anyway.

A decision that takes longer than ``time_limit`` is abandoned (the thread
finishes on its own) and the caller falls back to a safe move.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Final

from ..bots import Bot
from ..engine import Action, PlayerView

BOT_THREADS: Final = 2
TIME_LIMIT: Final = 10.0  # seconds a bot may think before its move is played for it


class BotThinker:
    """Runs ``bot.choose(view)`` off the event loop. Owned by the lobby: ``close()`` on stop."""

    def __init__(self, threads: int = BOT_THREADS, time_limit: float = TIME_LIMIT) -> None:
        self.time_limit = time_limit
        self._threads = threads
        self._pool: ThreadPoolExecutor | None = None

    async def choose(self, bot: Bot, view: PlayerView) -> Action:
        """The bot's move; raises ``TimeoutError`` after ``time_limit`` seconds.

        The caller must not let anything else touch ``bot`` until this returns
        (tables hold their lock): a bot is not thread-safe.
        """
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self._threads, thread_name_prefix="skyjo-bot")
        loop = asyncio.get_running_loop()
        thinking = loop.run_in_executor(self._pool, bot.choose, view)
        return await asyncio.wait_for(thinking, self.time_limit)

    def close(self) -> None:
        """Drop decisions not started; one in progress finishes in its thread."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
