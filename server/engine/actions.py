"""The moves a player can make, as small immutable values.

One class with a kind keeps legal-action lists cheap to build and compare;
``Action.flip(0, 5)`` reads like the move it names.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from .errors import InvalidSetup


class ActionKind(str, Enum):
    FLIP = "flip"  # an initial flip, before the first turn
    TAKE_DISCARD = "take"  # take the top discard and exchange it at pos
    DRAW = "draw"  # draw the top card of the draw pile
    SWAP_DRAWN = "swap"  # exchange the drawn card at pos
    DISCARD_AND_FLIP = "discard_flip"  # discard the drawn card, turn up pos


#: Kinds that name a position in the player's tableau.
POSITIONAL = frozenset(
    {ActionKind.FLIP, ActionKind.TAKE_DISCARD, ActionKind.SWAP_DRAWN, ActionKind.DISCARD_AND_FLIP}
)


@dataclass(frozen=True, slots=True)
class Action:
    kind: ActionKind
    player: int
    pos: int | None = None

    @staticmethod
    def flip(player: int, pos: int) -> Action:
        return Action(ActionKind.FLIP, player, pos)

    @staticmethod
    def take_discard(player: int, pos: int) -> Action:
        return Action(ActionKind.TAKE_DISCARD, player, pos)

    @staticmethod
    def draw(player: int) -> Action:
        return Action(ActionKind.DRAW, player)

    @staticmethod
    def swap_drawn(player: int, pos: int) -> Action:
        return Action(ActionKind.SWAP_DRAWN, player, pos)

    @staticmethod
    def discard_and_flip(player: int, pos: int) -> Action:
        return Action(ActionKind.DISCARD_AND_FLIP, player, pos)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind.value, "player": self.player}
        if self.pos is not None:
            data["pos"] = self.pos
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        """Build an action from plain data, checking its shape (not its legality)."""
        try:
            kind = ActionKind(data["kind"])
            player = data["player"]
            pos = data.get("pos")
        except (KeyError, ValueError, TypeError) as exc:
            raise InvalidSetup(f"not an action: {data!r}") from exc
        if type(player) is not int or player < 0:
            raise InvalidSetup(f"action player must be a seat number, got {player!r}")
        if kind in POSITIONAL:
            if type(pos) is not int or not 0 <= pos < 12:
                raise InvalidSetup(f"{kind.value} needs a position 0..11, got {pos!r}")
        elif pos is not None:
            raise InvalidSetup(f"{kind.value} takes no position")
        return cls(kind, player, pos)

    def __str__(self) -> str:
        where = "" if self.pos is None else f" @{self.pos}"
        return f"P{self.player} {self.kind.value}{where}"
