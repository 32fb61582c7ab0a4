"""A finished round, one line per player: the cards by column, scores, totals."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widgets import DataTable

from ..i18n import Translator
from ..layout import COLUMNS, ROWS
from ..summary import PlayerResult, RoundSummary
from .card_art import value_colours


def cards_text(result: PlayerResult) -> Text:
    """The tableau column by column; a removed column's three cards struck through."""
    removed = dict(result.removed)
    text = Text()
    for column in range(COLUMNS):
        if column:
            text.append("│", Style(dim=True))
        if column in removed:
            value = removed[column]
            label = "?" if value is None else str(value)
            text.append(f"{label:>3}" * ROWS, Style(dim=True, strike=True))
            continue
        for row in range(ROWS):
            value = result.cards[column * ROWS + row]
            if value is None:
                text.append("  ·")
                continue
            bg, fg = value_colours(value)
            text.append(" ")
            text.append(f"{value:>2}", Style(color=fg, bgcolor=bg, bold=True))
    return text


def score_text(result: PlayerResult, tr: Translator) -> Text:
    if result.doubled:
        return Text(tr("summary.doubled", raw=result.raw, score=result.score), Style(bold=True, color="red"))
    return Text(str(result.score), Style(bold=True))


class ResultsTable(DataTable[Text]):
    """Fill with ``show(summary, tr)``."""

    DEFAULT_CSS = """
    ResultsTable { height: auto; max-height: 12; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="none", zebra_stripes=True, show_cursor=False)
        self.can_focus = False  # Enter belongs to the screen (next round), not to the table

    def show(self, summary: RoundSummary, tr: Translator) -> None:
        self.clear(columns=True)
        self.add_columns(
            Text(tr("summary.player")), Text(tr("summary.cards")),
            Text(tr("summary.round"), justify="right"), Text(tr("summary.total"), justify="right"),
        )
        for result in summary.players:
            self.add_row(
                self._player_cell(result, summary),
                cards_text(result),
                Text.assemble(score_text(result, tr), justify="right"),
                Text(str(result.total), justify="right", style=Style(bold=result.winner)),
            )

    @staticmethod
    def _player_cell(result: PlayerResult, summary: RoundSummary) -> Text:
        marks = (" ✓" if result.closer else "") + (" ★" if result.winner else "")
        style = Style(bold=result.seat == summary.own_seat)
        return Text(result.name + marks, style)
