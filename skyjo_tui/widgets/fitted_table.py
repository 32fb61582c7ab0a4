"""A table that fits its width: the columns of words wrap instead of running off the right.

A ``DataTable`` sizes each column to its longest cell and scrolls sideways
when they add up to more than its width: at 80 columns a person reads a
review's best move or a game's players as "Best mo…". Here the columns of
words ("flexible") share the cells the others leave, and a cell longer than
its column wraps onto more lines of its row. A column of names ("shortened")
gives way before them: a longer name is cut with "…" (``names.shorten``) to the
room they leave. The table lays itself out again when its width changes, so a
wide terminal shows each row on one line, every name whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.message import Message

from ..names import shorten
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


def plain(cell: Any) -> str:
    """``cell``'s words, without their styles."""
    return cell.plain if isinstance(cell, Text) else str(cell)


def shortened_cell(cell: Any, room: int) -> Any:
    """``cell`` cut to ``room`` (``names.shorten``); a ``Text`` keeps its own style (bold:
    your seat), not its spans'."""
    short = shorten(plain(cell), room)
    return Text(short, style=cell.style, end="") if isinstance(cell, Text) else short


def cell_width(cell: Any) -> int:
    """The cells ``cell`` takes on one line."""
    return max((cell_len(line) for line in plain(cell).splitlines()), default=0)


class FittedTable(TextTable[Any]):
    """A ``TextTable`` given its columns and rows whole (``show``), which it lays out to fit."""

    class LaidOut(Message):
        """The table laid its rows out again (new rows, a new width): which cells are cut."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._labels: list[str] = []
        self._flexible: frozenset[int] = frozenset()
        self._shortened: frozenset[int] = frozenset()
        self._rows: list[tuple[str | None, Sequence[Any]]] = []
        self._cut: frozenset[str | None] = frozenset()
        self._laid_out_at = -1

    def set_columns(
        self, labels: Sequence[str], flexible: Sequence[int], shortened: Sequence[int] = ()
    ) -> None:
        """The columns' labels; those at the ``flexible`` indexes share the width left, and
        wrap; those at the ``shortened`` indexes (one-line names) have what those leave (an
        even share with them when they wrap anyway), ``LEAST_WIDTH`` at least, and a longer
        cell there is cut with "…" (``shortened_cell``). ``is_cut`` says which rows were cut."""
        self._labels, self._flexible = list(labels), frozenset(flexible)
        self._shortened = frozenset(shortened)
        self._lay_out()

    def is_cut(self, key: str | None) -> bool:
        """The row of ``key`` shows a shortened cell cut ("…"), not whole."""
        return key in self._cut

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
        flexible, shortened = sorted(self._flexible), sorted(self._shortened - self._flexible)
        padding = 2 * self.cell_padding * len(natural)
        left = room - padding
        left -= sum(w for i, w in enumerate(natural) if i not in self._flexible | self._shortened)
        words = [natural[i] for i in flexible]
        if sum(words) + sum(min(natural[i], LEAST_WIDTH) for i in shortened) <= left:
            # The words fit on one line: the names give way first, to what the words leave.
            names = shared_widths([natural[i] for i in shortened], left - sum(words))
            widths = dict(zip(flexible + shortened, words + names, strict=True))
        else:  # the words wrap anyway: they and the names share alike
            together = shared_widths([natural[i] for i in flexible + shortened], left)
            widths = dict(zip(flexible + shortened, together, strict=True))
        cursor = self.cursor_row
        self.clear(columns=True)
        for index, label in enumerate(self._labels):
            self.add_column(label, width=widths.get(index, natural[index]))
        cut: set[str | None] = set()
        for key, cells in self._rows:
            shown = list(cells)
            for index in shortened:
                if cell_width(shown[index]) > widths[index]:
                    shown[index] = shortened_cell(shown[index], widths[index])
                    cut.add(key)
            self.add_row(*shown, key=key, height=None)
        self._cut = frozenset(cut)
        if self._rows:
            self.move_cursor(row=min(cursor, len(self._rows) - 1), animate=False)
        self.post_message(self.LaidOut())
