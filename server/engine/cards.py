"""The Skyjo deck and the tableau's geometry."""

from __future__ import annotations

from typing import Final

#: How many copies of each value the 150-card deck holds.
DECK_COMPOSITION: Final[dict[int, int]] = {
    -2: 5,
    -1: 10,
    0: 15,
    **dict.fromkeys(range(1, 13), 10),
}

#: The whole deck, in a fixed order; shuffles start from this list.
DECK: Final[tuple[int, ...]] = tuple(
    value for value, copies in DECK_COMPOSITION.items() for _ in range(copies)
)
DECK_SIZE: Final[int] = len(DECK)
MEAN_CARD_VALUE: Final[float] = sum(DECK) / DECK_SIZE
_SORTED_DECK: Final[list[int]] = sorted(DECK)

COLUMNS: Final[int] = 4
ROWS: Final[int] = 3
TABLEAU_SIZE: Final[int] = COLUMNS * ROWS


def column_of(pos: int) -> int:
    """Positions run down each column: pos = column * 3 + row."""
    return pos // ROWS


def positions_of_column(column: int) -> range:
    return range(column * ROWS, column * ROWS + ROWS)


def is_deck_multiset(cards: list[int] | tuple[int, ...]) -> bool:
    """True when ``cards`` are exactly the 150 cards of one deck (ints, not bools)."""
    # Sorting compares multisets cheaply; this runs for every deal.
    return set(map(type, cards)) == {int} and sorted(cards) == _SORTED_DECK
