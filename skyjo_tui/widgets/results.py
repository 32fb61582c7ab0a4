"""A finished round, one line per player from the lowest total: rank, cards, scores."""

from __future__ import annotations

from typing import Final

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from ..i18n import Translator
from ..layout import COLUMNS, ROWS
from ..names import shorten
from ..summary import PlayerResult, RoundSummary
from .card_art import value_colours
from .text import TextTable

#: The fewest cells a shortened name keeps ("Bartho…").
MIN_NAME_ROOM: Final = 7
#: The cells of a tableau column by column (``cards_text``).
CARDS_WIDTH: Final = COLUMNS * (ROWS * 3 - 1) + COLUMNS - 1


def cards_text(result: PlayerResult) -> Text:
    """The tableau column by column (``-1  0  6│ 4 …``, ``CARDS_WIDTH`` cells); a removed column's
    three cards struck through."""
    removed = dict(result.removed)
    struck = Style(dim=True, strike=True)
    text = Text()
    for column in range(COLUMNS):
        if column:
            text.append("│", Style(dim=True))
        for row in range(ROWS):
            if row:
                text.append(" ", struck if column in removed else Style())
            if column in removed:
                value = removed[column]
                text.append(f"{'?' if value is None else value:>2}", struck)
                continue
            value = result.cards[column * ROWS + row]
            if value is None:
                text.append(" ·")
                continue
            bg, fg = value_colours(value)
            text.append(f"{value:>2}", Style(color=fg, bgcolor=bg, bold=True))
    return text


def score_text(result: PlayerResult, tr: Translator) -> Text:
    if result.doubled:
        return Text(
            tr("summary.doubled", raw=result.raw, score=result.score), Style(bold=True, color="red")
        )
    return Text(str(result.score), Style(bold=True))


def marks(result: PlayerResult) -> str:
    """What follows a player's name: ✓ who closed the round, ★ who won the game."""
    return (" ✓" if result.closer else "") + (" ★" if result.winner else "")


def standings(summary: RoundSummary) -> list[tuple[int, PlayerResult]]:
    """The players from the lowest total (the best), with their rank; a tie shares it."""
    ordered = sorted(summary.players, key=lambda result: (result.total, result.seat))
    ranked: list[tuple[int, PlayerResult]] = []
    for index, result in enumerate(ordered):
        tied = index and result.total == ordered[index - 1].total
        ranked.append((ranked[-1][0] if tied else index + 1, result))
    return ranked


class ResultsTable(TextTable[Text]):
    """Fill with ``show(summary, tr)``."""

    # No horizontal scroll bar: the table refits its columns to its width once laid out
    # (``on_resize``), and a bar shown until then took a row, then gave it back, moving
    # the dialog's buttons under a finger about to tap them.
    DEFAULT_CSS = """
    ResultsTable { height: auto; max-height: 12; overflow-x: hidden; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="none", zebra_stripes=True, show_cursor=False)
        self.can_focus = False  # Enter belongs to the screen (next round), not to the table
        self._shown: tuple[RoundSummary, Translator] | None = None
        self._room: int | None = None  # cells for a player's name and marks; None: whole
        self._cards = True  # the cards column: too wide for a phone held upright
        self._full_width = 0  # the table's width with the whole names

    def show(self, summary: RoundSummary, tr: Translator) -> None:
        self._shown, self._room, self._cards = (summary, tr), None, True
        self._fill(summary, tr)
        self._full_width = 0  # measured once laid out

    def on_resize(self) -> None:
        """Too wide for its place (8 players, or a name of 20 characters, at 80 columns):
        the short names, and the player column narrower by as much as the table is too wide.
        Too wide even then (a phone held upright): no cards (the table behind shows them),
        the scores whole."""
        if self._shown is None or not self.size.width:
            return
        if self._room is None and self._cards:
            self._full_width = self.virtual_size.width
        over = self._full_width - self.size.width
        summary = self._shown[0]
        widest = max((cell_len(r.name + marks(r)) for r in summary.players), default=0)
        cards = over <= widest - MIN_NAME_ROOM
        if not cards:
            over -= CARDS_WIDTH + 2 * self.cell_padding
        room = widest - over if over > 0 else None
        if (room, cards) != (self._room, self._cards):
            self._room, self._cards = room, cards
            self._fill(*self._shown)

    def _fill(self, summary: RoundSummary, tr: Translator) -> None:
        self.clear(columns=True)
        cards = [Text(tr("summary.cards"))] if self._cards else []
        self.add_columns(
            Text("#", justify="right"),
            Text(tr("summary.player")),
            *cards,
            Text(tr("summary.round"), justify="right"),
            Text(tr("summary.total"), justify="right"),
        )
        for rank, result in standings(summary):
            self.add_row(
                Text(f"{rank}.", justify="right", style=Style(dim=True)),
                self._player_cell(result, summary),
                *([cards_text(result)] if self._cards else []),
                Text.assemble(score_text(result, tr), justify="right"),
                Text(str(result.total), justify="right", style=Style(bold=True)),
            )

    def _player_cell(self, result: PlayerResult, summary: RoundSummary) -> Text:
        style = Style(bold=result.seat == summary.own_seat)
        if self._room is None:
            return Text(result.name + marks(result), style)
        room = max(MIN_NAME_ROOM, self._room - cell_len(marks(result)))
        return Text(shorten(result.short or result.name, room) + marks(result), style)
