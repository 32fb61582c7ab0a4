"""Bots: players that see only their own view. ``make_bot`` builds one by level."""

from __future__ import annotations

from server.engine import Settings

from .base import Bot
from .casual import CasualBot
from .expert import ExpertBot
from .greedy import GreedyBot
from .master import MasterBot
from .random_bot import RandomBot

#: Every level, weakest first: the ladder.
BOT_LEVELS: dict[str, type[Bot]] = {
    cls.level: cls for cls in (RandomBot, GreedyBot, CasualBot, ExpertBot, MasterBot)
}


def make_bot(level: str, seat: int, seed: int | str = 0, settings: Settings = Settings()) -> Bot:
    """A bot of ``level`` for ``seat``; ``settings`` are the table's variants (public)."""
    try:
        cls = BOT_LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; known: {', '.join(BOT_LEVELS)}") from None
    return cls(seat, seed, settings)


__all__ = ["BOT_LEVELS", "Bot", "make_bot"]
