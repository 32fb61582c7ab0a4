"""Each player's total over the rounds, against the game's end score (a terminal plot)."""

from __future__ import annotations

from rich.text import Text
from textual_plotext import PlotextPlot

from ..sheet import SheetShown
from .sheet_table import marker

Y_AXIS_CELLS = 6  # the scale's numbers and frame, left of the plot


class ScoreChart(PlotextPlot):
    """Fill with ``show(shown)``. One thin line per player, and the player's mark (the
    sheet's heading names it) on each round's total: no name is drawn here, so none is
    ever read as anything but a name, and no colour is needed to tell players apart."""

    DEFAULT_CSS = """
    ScoreChart { height: 1fr; min-height: 7; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.shown: SheetShown | None = None

    def show(self, shown: SheetShown) -> None:
        self.shown = shown
        self.refresh()

    def render(self) -> Text:
        if self.shown is not None:
            self._plot_totals(self.shown, max(1, self.size.width - Y_AXIS_CELLS))
        drawn = super().render()  # plotext's output read as ANSI styles (never markup): Text
        assert isinstance(drawn, Text)
        return drawn

    def _plot_totals(self, shown: SheetShown, width: int) -> None:
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        players = range(len(shown.names))
        rounds = list(range(len(shown.lines) + 1))
        totals = [shown.totals(seat) for seat in players]
        for seat in players:
            plt.plot(rounds, totals[seat], marker="braille")
        # The marks of one round side by side, a cell apart: two equal totals stay two marks.
        cell = max(1, len(rounds) - 1) / width
        for seat in players:
            offset = (seat - (len(shown.names) - 1) / 2) * cell
            # In the text colour: marks read alike in every theme, and without colour.
            plt.scatter(
                [r + offset for r in rounds], totals[seat], marker=marker(seat), color="default"
            )
        end = shown.end_score
        plt.hline(end, color="red")  # drawn "─" across: it reads without colour too
        every = [end, 0, *(total for line in totals for total in line)]
        plt.ylim(min(every), max(every))
        plt.yticks(sorted({min(every), 0, end // 2, end}))
        plt.xticks([float(number) for number in rounds])
