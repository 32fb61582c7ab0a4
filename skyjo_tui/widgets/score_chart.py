"""Each player's total over the rounds, against the game's end score (a terminal plot)."""

from __future__ import annotations

from textual_plotext import PlotextPlot

from ..sheet import SheetShown
from .sheet_table import marker


class ScoreChart(PlotextPlot):
    """Fill with ``show(shown, round_word)``. One line per player drawn with its mark
    (the pad's heading names it): no name is drawn here, so none is read as anything."""

    DEFAULT_CSS = """
    ScoreChart { height: 1fr; min-height: 7; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.shown: SheetShown | None = None
        self.round_word = ""

    def show(self, shown: SheetShown, round_word: str) -> None:
        self.shown, self.round_word = shown, round_word
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        rounds = list(range(len(shown.lines) + 1))
        for seat in range(len(shown.names)):
            plt.plot(rounds, shown.totals(seat), marker=marker(seat))
        end = shown.end_score
        plt.hline(end)
        highest = max([end, *(total for seat in range(len(shown.names)) for total in shown.totals(seat))])
        lowest = min([0, *(total for seat in range(len(shown.names)) for total in shown.totals(seat))])
        plt.ylim(lowest, highest)
        plt.yticks(sorted({lowest, 0, end // 2, end}))
        plt.xticks(rounds)
        plt.xlabel(round_word)
        self.refresh()
