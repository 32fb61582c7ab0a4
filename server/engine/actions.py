"""The moves a player can make, as small immutable values.

One class with a kind keeps legal-action lists cheap to build and compare;
``Action.flip(0, 5)`` reads like the move it names. Every move a seat can ever
make is built once (``MOVES``): legal-action lists and the constructors hand
out those shared instances, so the hot loop allocates no actions.
"""

from __future__ import annotations

import reprlib
from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import Any, NamedTuple

from .cards import TABLEAU_SIZE
from .errors import InvalidSetup
from .settings import MAX_PLAYERS


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
        return interned(ActionKind.FLIP, player, pos)

    @staticmethod
    def take_discard(player: int, pos: int) -> Action:
        return interned(ActionKind.TAKE_DISCARD, player, pos)

    @staticmethod
    def draw(player: int) -> Action:
        return interned(ActionKind.DRAW, player)

    @staticmethod
    def swap_drawn(player: int, pos: int) -> Action:
        return interned(ActionKind.SWAP_DRAWN, player, pos)

    @staticmethod
    def discard_and_flip(player: int, pos: int) -> Action:
        return interned(ActionKind.DISCARD_AND_FLIP, player, pos)

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
            if type(pos) is not int or not 0 <= pos < TABLEAU_SIZE:
                raise InvalidSetup(f"{kind.value} needs a position 0..11, got {pos!r}")
        elif pos is not None:
            raise InvalidSetup(f"{kind.value} takes no position")
        return interned(kind, player, pos)

    def __str__(self) -> str:
        where = "" if self.pos is None else f" @{self.pos}"
        return f"P{self.player} {self.kind.value}{where}"


@dataclass(frozen=True, slots=True)
class SeatMoves:
    """Every action one seat can ever make, indexed by tableau position."""

    draw: Action
    flip: tuple[Action, ...]
    take_discard: tuple[Action, ...]
    swap_drawn: tuple[Action, ...]
    discard_and_flip: tuple[Action, ...]

    @classmethod
    def build(cls, player: int) -> SeatMoves:
        def row(kind: ActionKind) -> tuple[Action, ...]:
            return tuple(Action(kind, player, pos) for pos in range(TABLEAU_SIZE))

        return cls(
            Action(ActionKind.DRAW, player),
            row(ActionKind.FLIP),
            row(ActionKind.TAKE_DISCARD),
            row(ActionKind.SWAP_DRAWN),
            row(ActionKind.DISCARD_AND_FLIP),
        )

    def of_kind(self, kind: ActionKind) -> tuple[Action, ...]:
        return getattr(self, kind.name.lower())


def malformed(action: object) -> str | None:
    """Why ``action`` is not an ``Action`` of the engine's own types, or None.

    Only the shape is checked (a seat or a position may still be out of range):
    anything this refuses cannot be named as a move, so it is described with
    ``describe`` rather than ``str``.
    """
    if not isinstance(action, Action):
        return "not an Action"
    if action.kind.__class__ is not ActionKind:
        # A plain "flip" equals ActionKind.FLIP, but the rules compare kinds by identity.
        return (
            "its kind is not an ActionKind (build moves with Action.flip(...) or Action.from_dict)"
        )
    return None


_SHORT = reprlib.Repr()
_SHORT.maxother = _SHORT.maxstring = 80


def describe(action: object) -> str:
    """``action`` for an error message: the move it names, or a short repr of what it is."""
    return str(action) if malformed(action) is None else _SHORT.repr(action)


#: MOVES[seat]: the shared instances of every action of every possible seat.
MOVES: tuple[SeatMoves, ...] = tuple(SeatMoves.build(p) for p in range(MAX_PLAYERS))


def interned(kind: ActionKind, player: int, pos: int | None = None) -> Action:
    """The shared instance of this action (a new one for a seat no table has)."""
    if not 0 <= player < MAX_PLAYERS:
        return Action(kind, player, pos)
    moves = MOVES[player]
    if kind is ActionKind.DRAW:
        return moves.draw if pos is None else Action(kind, player, pos)
    if pos is None or not 0 <= pos < TABLEAU_SIZE:
        return Action(kind, player, pos)
    return moves.of_kind(kind)[pos]


class LiveMoves(NamedTuple):
    """A seat's moves that depend only on which positions are still on the table."""

    choose: tuple[Action, ...]  # draw, then take the discard at each live position
    swap_drawn: tuple[Action, ...]  # exchange the drawn card at each live position


@cache  # at most 8 seats x 16 sets of remaining columns
def live_moves(player: int, live: tuple[int, ...]) -> LiveMoves:
    moves = MOVES[player]
    return LiveMoves(
        (moves.draw, *[moves.take_discard[pos] for pos in live]),
        tuple(moves.swap_drawn[pos] for pos in live),
    )
