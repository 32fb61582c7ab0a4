"""A table's bots, and their thinking in worker threads so the event loop never waits.

A bot's decision is plain CPU work: a few milliseconds for the expert and
the master on average (the master's search has a fixed budget of imagined
deals, not a clock), but over a hundred in some positions on a busy machine. Run on the
event loop, that would stall every connection and every table for as long.
In a worker thread the loop keeps serving meanwhile (Python hands the GIL
back and forth every few milliseconds). Two workers: the machine this runs on
has few cores, and bot moves are paced anyway.

A decision that takes longer than ``time_limit`` is abandoned (the thread
finishes on its own) and the caller falls back to a safe move.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Final, TypeVar

from ..bots import Bot, make_bot
from ..engine import Action, Event, Game, PlayerView, Settings, public_event

logger = logging.getLogger(__name__)

BOT_THREADS: Final = 2
TIME_LIMIT: Final = 10.0  # seconds a bot may think before its move is played for it
T = TypeVar("T")


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
        return await self.run(partial(bot.choose, view))

    async def run(self, work: Callable[[], T]) -> T:
        """``work()`` in the bots' threads (a hint's evaluation); the same time limit."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self._threads, thread_name_prefix="skyjo-bot")
        loop = asyncio.get_running_loop()
        return await asyncio.wait_for(loop.run_in_executor(self._pool, work), self.time_limit)

    def close(self) -> None:
        """Drop decisions not started; one in progress finishes in its thread."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


class TableBots:
    """A bot for every seat of a game: bot seats play with theirs; people's stand by.

    A stand-in watches the whole round from its start, so when it must play
    for someone (timer, away, left) it knows what a bot of its level knows.
    While a bot thinks in a thread, the events it would be told wait for it.
    """

    def __init__(self, thinker: BotThinker, standin: str, label: str) -> None:
        self.thinker = thinker
        self.standin = standin  # the level that plays for people
        self.label = label  # the table, in logs
        self.by_seat: dict[int, Bot] = {}
        self._levels: dict[int, str] = {}
        self._seed, self._settings = "", Settings()
        self._unheard: dict[int, list[Event]] = {}  # id(bot) -> what it missed while thinking

    def deal(
        self, game: Game, levels: dict[int, str | None], seed: str, settings: Settings
    ) -> None:
        """New bots for a new game (or a game restored): ``levels`` by seat, None for people."""
        self._seed, self._settings = seed, settings
        self._levels = {seat: level or self.standin for seat, level in levels.items()}
        self.by_seat = {seat: self._new_bot(game, seat) for seat in levels}

    def _new_bot(self, game: Game, seat: int) -> Bot:
        """The bot for ``seat``, told everything public since the round began."""
        bot = make_bot(self._levels[seat], seat, self._seed, self._settings)
        events: list[Event] = [game.round.start_event()]
        for move in game.history[-1].moves:
            events.extend(move.events)
        bot.observe([public_event(e) for e in events])
        return bot

    def level_of(self, seat: int) -> str:
        """The level of the bot that plays ``seat`` (a person's: the stand-in's)."""
        return self._levels[seat]

    def tell(self, events: list[Event]) -> None:
        public = [public_event(e) for e in events]
        for bot in self.by_seat.values():
            if id(bot) in self._unheard:  # thinking in a thread: told once it is done
                self._unheard[id(bot)].extend(public)
            else:
                bot.observe(public)

    async def think(self, seat: int, view: PlayerView) -> tuple[Bot, Action | None]:
        """The seat's bot and its move, thought off the event loop (None: it failed).

        Call ``thought`` afterwards, under the same lock as ``tell``.
        """
        bot = self.by_seat[seat]
        self._unheard[id(bot)] = []
        try:
            action = await self.thinker.choose(bot, view)
        except Exception as exc:
            why = "took too long" if isinstance(exc, TimeoutError) else "failed"
            logger.error("table %s: bot for seat %d %s", self.label, seat, why, exc_info=exc)
            return bot, None
        if action not in view.legal_actions:
            logger.error("table %s: bot for seat %d chose %s, not legal", self.label, seat, action)
            return bot, None
        return bot, action

    def thought(self, game: Game, seat: int, bot: Bot, failed: bool) -> bool:
        """After ``think``: the bot hears what it missed (a failed one is replaced).

        False when the game's bots were dealt again meanwhile (the move is moot).
        """
        unheard = self._unheard.pop(id(bot), [])
        if self.by_seat.get(seat) is not bot:
            return False
        if failed:
            self.by_seat[seat] = self._new_bot(game, seat)
        else:
            bot.observe(unheard)
        return True
