"""Each player's total over the rounds, against the game's end score (a terminal plot)."""

from __future__ import annotations

from rich.text import Text
from textual_plotext import PlotextPlot

from ..sheet import SheetShown
from .sheet_table import marker

Y_AXIS_CELLS = 6  # the scale's numbers and frame, left of the plot
X_AXIS_ROWS = 3  # the frame above and below the plot, and the rounds' numbers
MOST_STEPS = 3  # the y-axis labels a step at most this many times (0, 50, 100)


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
        low, high = min(every), max(every)
        plt.ylim(low, high)
        labels = y_labels(low, high, end, self.size.height - X_AXIS_ROWS)
        plt.yticks([float(value) for value in labels])
        plt.xticks([float(number) for number in rounds])


def y_labels(low: int, high: int, end: int, rows: int) -> list[int]:
    """The values the y-axis from ``low`` to ``high`` labels on ``rows`` rows.

    First the end score (its line is drawn across), the top (the highest total: a
    doubled 35 passes an end of 10 by far), 0 and the lowest total below 0; then steps
    of 1, 2, 2.5 or 5 times a power of ten. A value is labelled on a row of its own,
    or not at all: in a 100-point game that ends at 105, 100 is the top row's.
    """
    step = axis_step(high - low)
    scale = max(0, rows - 1) / max(1, high - low)  # rows per point
    row_of: dict[int, int] = {}
    for value in (end, high, 0, low, *range(step, high, step), *range(-step, low, -step)):
        row = round((value - low) * scale)
        if row not in row_of.values():
            row_of[value] = row
    return sorted(row_of)


def axis_step(span: int) -> int:
    """The least step of 1, 2, 2.5 or 5 times a power of ten that covers ``span`` in
    ``MOST_STEPS`` steps or fewer (100 points: 50)."""
    power = 1
    while True:
        for tenths in (10, 20, 25, 50):
            step, part = divmod(tenths * power, 10)
            if not part and span <= MOST_STEPS * step:
                return step
        power *= 10
