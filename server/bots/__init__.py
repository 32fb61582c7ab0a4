"""Bots: players that see only their own view. ``make_bot`` builds one by level."""

from __future__ import annotations

from .base import Bot
from .random_bot import RandomBot

BOT_LEVELS: dict[str, type[Bot]] = {cls.level: cls for cls in (RandomBot,)}


def make_bot(level: str, seat: int, seed: int | str = 0) -> Bot:
    try:
        return BOT_LEVELS[level](seat, seed)
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; known: {', '.join(BOT_LEVELS)}") from None


__all__ = ["BOT_LEVELS", "Bot", "make_bot"]
