"""A table that fits its width: the columns of words wrap instead of running off the right.

A ``DataTable`` sizes each column to its longest cell and scrolls sideways
when they add up to more than its width: at 80 columns a person reads a
review's best move or a game's players as "Best mo…". Here the columns of
words ("flexible") share the cells the others leave, and a cell longer than
its column wraps onto more lines of its row. The table lays itself out again
when its width changes, so a wide terminal shows each row on one line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from rich.cells import cell_len
from rich.text import Text
from textual import events

from .text import TextTable

#: The fewest cells a flexible column keeps, however narrow the table.
LEAST_WIDTH: Final = 8


def shared_widths(natural: Sequence[int], room: int, least: int = LEAST_WIDTH) -> list[int]:
    """Widths for columns of ``natural`` widths in ``room`` cells: each its own when they fit;
    else the narrower keep theirs and the wider share what is left evenly (``least`` each)."""
    widths = list(natural)
    left = room
    by_width = sorted(range(len(natural)), key=natural.__getitem__)
    for done, index in enumerate(by_width):
        fair = left // (len(by_width) - done)
        widths[index] = max(least, min(natural[index], fair))
        left -= widths[index]
    return widths


def cell_width(cell: Any) -> int:
    """The cells ``cell`` takes on one line."""
    text = cell.plain if isinstance(cell, Text) else str(cell)
    return max((cell_len(line) for line in text.splitlines()), default=0)


class FittedTable(TextTable[Any]):
    """A ``TextTable`` given its columns and rows whole (``show``), which it lays out to fit."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._labels: list[str] = []
        self._flexible: frozenset[int] = frozenset()
        self._rows: list[tuple[str | None, Sequence[Any]]] = []
        self._laid_out_at = -1

    def set_columns(self, labels: Sequence[str], flexible: Sequence[int]) -> None:
        """The columns' labels; those at the ``flexible`` indexes share the width left."""
        self._labels, self._flexible = list(labels), frozenset(flexible)
        self._lay_out()

    def show(self, rows: Sequence[tuple[str | None, Sequence[Any]]]) -> None:
        """The rows, each its key and its cells, in place of those shown."""
        self._rows = list(rows)
        self._lay_out()

    def on_resize(self, event: events.Resize) -> None:
        if self._room() != self._laid_out_at:
            self._lay_out()

    def _room(self) -> int:
        """The width the columns may fill: the same whether the scrollbar shows or not."""
        scrollbar = 0 if self.show_vertical_scrollbar else self.styles.scrollbar_size_vertical
        return self.size.width - scrollbar

    def _lay_out(self) -> None:
        room = self._room()
        self._laid_out_at = room
        natural = [
            max([cell_width(label), *(cell_width(cells[i]) for _, cells in self._rows)])
            for i, label in enumerate(self._labels)
        ]
        fixed = sum(width for i, width in enumerate(natural) if i not in self._flexible)
        padding = 2 * self.cell_padding * len(natural)
        flexible = sorted(self._flexible)
        shares = shared_widths([natural[i] for i in flexible], room - fixed - padding)
        widths = dict(zip(flexible, shares, strict=True))
        cursor = self.cursor_row
        self.clear(columns=True)
        for index, label in enumerate(self._labels):
            self.add_column(label, width=widths.get(index, natural[index]))
        for key, cells in self._rows:
            self.add_row(*cells, key=key, height=None)
        if self._rows:
            self.move_cursor(row=min(cursor, len(self._rows) - 1), animate=False)
