"""The score sheet: the pad (every round's scores, the totals) above the chart of the totals."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical

from ..i18n import Translator
from ..sheet import SheetShown
from .score_chart import ScoreChart
from .sheet_table import SheetTable, compact, legend
from .text import Label


class SheetPanel(Vertical):
    """Fill with ``show(shown, tr)``; until a round is scored it says so, with no chart."""

    DEFAULT_CSS = """
    SheetPanel { height: 1fr; }
    SheetPanel #sheet-key { color: $text-muted; }
    SheetPanel #sheet-legend { width: 100%; }
    """

    def compose(self) -> ComposeResult:
        yield SheetTable(id="sheet-table")
        yield Label("", id="sheet-legend")
        yield Label("", id="sheet-key")
        yield ScoreChart(id="sheet-chart")

    def show(self, shown: SheetShown, tr: Translator) -> None:
        table, chart = self.query_one(SheetTable), self.query_one(ScoreChart)
        key = self.query_one("#sheet-key", Label)
        scored = bool(shown.lines)
        table.display = chart.display = scored
        table.show(shown, tr)
        chart.show(shown)
        key.update(tr("sheet.key", end=shown.end_score) if scored else tr("sheet.none"))
        names = self.query_one("#sheet-legend", Label)
        names.display = scored and compact(shown)
        names.update(legend(shown))
