"""The score chart's y-axis, read off the chart drawn in an app: its top, its steps.

A game to 10 where a doubled 35 made a total of 70 had only "10" and "0" on its axis;
nothing said where the chart's top was.
"""

from __future__ import annotations

import re

import pytest
from textual.app import App, ComposeResult

from skyjo_tui.sheet import SheetRound, SheetShown
from skyjo_tui.widgets.score_chart import ScoreChart

from .journeys.seen import screen_lines

LABEL = re.compile(r"^\s*(-?\d+)[┤├]")  # a y-axis label: a number, then the axis


class ChartApp(App[None]):
    def compose(self) -> ComposeResult:
        yield ScoreChart()


def two_players(end_score: int, *totals: tuple[int, int]) -> SheetShown:
    """Each round's totals (the round's scores: the difference)."""
    lines, before = [], (0, 0)
    for number, after in enumerate(totals, 1):
        scores = (after[0] - before[0], after[1] - before[1])
        lines.append(SheetRound(number, scores, scores, 0, False, after))
        before = after
    return SheetShown(tuple(lines), ("You", "Bot"), end_score)


async def y_axis_labels(shown: SheetShown, size: tuple[int, int]) -> list[int]:
    """The numbers on the chart's y-axis, top to bottom, as drawn."""
    app = ChartApp()
    async with app.run_test(size=size) as pilot:
        app.query_one(ScoreChart).show(shown)
        await pilot.pause()
        return [int(m[1]) for line in screen_lines(app) if (m := LABEL.match(line))]


@pytest.mark.parametrize("size", [(80, 24), (60, 12), (50, 7)])
async def test_totals_past_the_end_score_label_the_top(size: tuple[int, int]) -> None:
    labels = await y_axis_labels(two_players(10, (70, 5)), size)  # 35 doubled: 70
    assert labels[0] >= 70, labels  # the top of the chart, at or above the highest total
    assert len(labels) >= 3 and labels == sorted(labels, reverse=True), labels
    if size[1] >= 12:
        assert labels == [70, 50, 25, 10, 0]  # steps between, and the end score's line


async def test_a_100_point_game_reads_as_before() -> None:
    labels = await y_axis_labels(two_players(100, (35, 5), (75, 15), (105, 16)), (60, 12))
    assert labels == [100, 50, 0]  # 105 shares the end score's row, the top one


async def test_a_total_below_zero_is_labelled() -> None:
    labels = await y_axis_labels(two_players(30, (-5, 20), (7, 35)), (60, 9))
    assert labels == [35, 30, 20, 0, -5]
