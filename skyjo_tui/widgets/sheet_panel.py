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
        key.update(marks_key(shown, tr) if scored else tr("sheet.none"))
        names = self.query_one("#sheet-legend", Label)
        names.display = scored and compact(shown)
        names.update(legend(shown))


def marks_key(shown: SheetShown, tr: Translator) -> str:
    """What the sheet's marks mean. A doubled closer's mark is explained with the last one
    on the sheet ("47×2=94: the closer's 47, doubled"), and only when some closer was
    doubled: a made-up "7×2=14" read as a score of this game."""
    marks = tr("sheet.key", end=shown.end_score)
    penalised = next((line for line in reversed(shown.lines) if line.doubled), None)
    if penalised is None:
        return marks
    closer = penalised.closer
    doubled = tr("sheet.key.doubled", raw=penalised.raw[closer], score=penalised.scores[closer])
    return f"{doubled} · {marks}"
