"""The keys of a turn's moves: their bindings, and which move a key stands for.

The table's screen binds them. The local game's setup reads them too: a move key
pressed while the game starts is kept for the table (``MoveKeysKeeper``), which is
why they live here and not in the table's screen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, Protocol, runtime_checkable

from textual.binding import Binding

from ..keymap import keys_of
from .controller import REFUSABLE

#: One "d t Draw/take" in the footer, so that a turn's keys fit 80 columns in French too.
DRAW_OR_TAKE: Final = Binding.Group("keys.group.draw_take")

#: The moves' bindings, in the footer's order.
MOVE_BINDINGS: Final[tuple[Binding, ...]] = (
    Binding("enter,space", "choose", "keys.choose", id="table.choose"),
    Binding("d", "draw", "keys.draw", group=DRAW_OR_TAKE, id="table.draw"),
    Binding("t", "take", "keys.take", group=DRAW_OR_TAKE, id="table.take"),
    Binding("x", "discard", "keys.discard", id="table.discard"),
)
assert {binding.action for binding in MOVE_BINDINGS} == REFUSABLE


def move_action_of(key: str, keymap: Mapping[str, str]) -> str | None:
    """The move ("draw", "take", ...) ``key`` is bound to, with the player's keymap."""
    for binding in MOVE_BINDINGS:
        if key in keys_of(binding, keymap):
            return binding.action
    return None


@runtime_checkable
class MoveKeysKeeper(Protocol):
    """A screen that plays move keys pressed before it was up, in order (the table)."""

    def keep_keys(self, moves: Sequence[str]) -> None: ...


__all__ = ["DRAW_OR_TAKE", "MOVE_BINDINGS", "MoveKeysKeeper", "move_action_of"]
