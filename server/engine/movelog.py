"""What a game remembers of each move: the action, the events it caused, who chose it.

The rules never look at who chose a move. But a person's seat is sometimes
played by a bot (a *stand-in*: they are away, their turn timer ran out, or
they left the game), and whoever looks back at the game (a review, a replay)
must not take the bot's moves for the person's. So the mark is kept with the
move itself, in the one log the server stores, snapshots and turns into a
record: nothing else keeps a copy that could disagree with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from .actions import Action
from .deal import Deal
from .errors import InvalidSetup
from .events import Event

#: Why a bot played for a person (``Standin.reason``): they were away past the grace
#: time, their turn timer ran out, or they left the game (a bot finishes it).
AWAY: Final = "away"
TIMER: Final = "timer"
LEFT: Final = "left"
REASONS: Final = (AWAY, TIMER, LEFT)


@dataclass(frozen=True, slots=True)
class Standin:
    """A bot chose this move for a person's seat: the bot's level, and why it played.

    ``reason`` is one of ``AWAY``, ``TIMER``, ``LEFT``; a reader meets other words
    only in records from a newer server, and should say "a bot played" then.
    """

    bot: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"bot": self.bot, "reason": self.reason}

    @classmethod
    def from_dict(cls, data: object) -> Standin:
        bot = data.get("bot") if isinstance(data, Mapping) else None
        reason = data.get("reason") if isinstance(data, Mapping) else None
        if not isinstance(bot, str) or not isinstance(reason, str):
            raise InvalidSetup(f"a stand-in is a bot level and a reason, got {data!r}")
        return cls(bot, reason)


class PlayedMove(NamedTuple):
    """One move of a round's log (a tuple: a game's log holds thousands of them)."""

    action: Action
    events: tuple[Event, ...]
    standin: Standin | None = None  # None: the seat's own player chose it (a person or a bot)


@dataclass(slots=True)
class RoundLog:
    """What a record needs of one finished or running round."""

    deal: Deal
    moves: list[PlayedMove] = field(default_factory=list)


def action_entry(action: Action, standin: Standin | None) -> dict[str, Any]:
    """An action as the server logs it (a game's snapshot, the moves since): the action's
    map, with a ``standin`` field when a bot chose it for a person."""
    entry = action.to_dict()
    if standin is not None:
        entry["standin"] = standin.to_dict()
    return entry


def read_action_entry(data: Mapping[str, Any]) -> tuple[Action, Standin | None]:
    """The action and its stand-in, if any, of an ``action_entry`` (or of a bare action's
    map, as logs from before stand-ins were marked hold)."""
    standin = data.get("standin")
    return Action.from_dict(dict(data)), None if standin is None else Standin.from_dict(standin)
