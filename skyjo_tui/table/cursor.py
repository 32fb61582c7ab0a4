"""The keyboard cursor of the table: a card of your tableau, or a pile.

The piles sit left of your tableau (draw pile, then the discard), so moving
left from the first column reaches the discard pile, then the draw pile.
"""

from __future__ import annotations

from typing import Final, Literal

from ..layout import COLUMNS, ROWS

Target = int | Literal["draw", "discard"]
PILES: Final[tuple[str, ...]] = ("draw", "discard")

#: Direction name -> (columns, rows).
DIRECTIONS: Final[dict[str, tuple[int, int]]] = {
    "left": (-1, 0),
    "right": (1, 0),
    "up": (0, -1),
    "down": (0, 1),
}


def move(target: Target, direction: str, removed_columns: tuple[int, ...] = ()) -> Target:
    """Where the cursor goes from ``target`` one step in ``direction``."""
    dx, dy = DIRECTIONS[direction]
    if isinstance(target, str):
        return _from_pile(target, dx, removed_columns)
    column, row = divmod(target, ROWS)
    if dy:
        return column * ROWS + (row + dy) % ROWS
    next_column = column + dx
    while 0 <= next_column < COLUMNS and next_column in removed_columns:
        next_column += dx  # skip the gaps of removed columns
    if next_column < 0:
        return "discard"
    if next_column >= COLUMNS:
        return target
    return next_column * ROWS + row


def _from_pile(
    pile: Literal["draw", "discard"], dx: int, removed_columns: tuple[int, ...]
) -> Target:
    if dx < 0:
        return "draw"
    if dx > 0:
        if pile == "draw":
            return "discard"
        first = next((c for c in range(COLUMNS) if c not in removed_columns), None)
        return pile if first is None else first * ROWS + 1
    return pile
