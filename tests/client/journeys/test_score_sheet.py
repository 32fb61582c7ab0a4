"""Journey: the score sheet after round 1 and at the game's end, its chart at 80x24."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input

from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.game_over import GameOverScreen
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.round_summary import RoundSummaryScreen
from skyjo_tui.screens.setup import SetupScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.score_chart import ScoreChart

from ..players import KeyboardPlayer, play_to_game_over
from .seen import footer, on_screen, play_the_round, screen_lines, screen_text, until

END_SCORE = 200


def chart_on_screen(app: App[Any]) -> bool:
    """The chart is drawn whole inside the terminal, with room to read it."""
    found = app.screen.query(ScoreChart)
    if not found:
        return False
    chart = found.first()
    region, size = chart.region, app.size
    return (
        chart.display
        and region.height >= 7
        and region.width >= 40
        and region.bottom <= size.height
        and region.right <= size.width
    )


def sheet_row(app: App[Any], first: str) -> str:
    """The score sheet's line that starts with ``first`` (a round's number; "Round": its
    heading, the first player's mark next)."""
    for line in screen_lines(app):
        cells = line.strip("│ ").split()
        if cells and cells[0] == first and (first != "Round" or cells[1:2] == ["o"]):
            return line
    raise AssertionError(f"no sheet line {first!r} on screen:\n{screen_text(app)}")


def round_cells(summary: Any) -> dict[int, str]:
    """What the sheet shows for each seat after the round ``summary`` tells: the score,
    the closer's mark ("×2" doubled, "✓" closed), the total."""
    return {
        p.seat: f"{p.score}{'×2' if p.doubled else '✓' if p.closer else ''} {p.total}"
        for p in summary.players
    }


def shows_round(app: App[Any], number: int, summary: Any) -> None:
    row = " ".join(sheet_row(app, str(number)).split())
    for seat, cell in round_cells(summary).items():
        assert cell in row, f"seat {seat}: {cell!r} not in round {number}'s line {row!r}"


async def walk_the_score_sheet(pilot: Pilot[Any]) -> None:
    app = pilot.app
    await on_screen(pilot, HomeScreen)
    await pilot.press("n")
    setup = await on_screen(pilot, SetupScreen)
    setup.query_one("#variant-end-score", Input).value = str(END_SCORE)
    await pilot.press("enter")
    summary = await play_the_round(pilot)
    assert isinstance(summary, RoundSummaryScreen) and summary.summary is not None
    first = summary.summary
    assert (await footer(pilot)).has("Sheet/round")
    assert not chart_on_screen(app)  # this round's cards first
    await pilot.press("g")
    await until(pilot, lambda: chart_on_screen(app), "the chart after round 1")
    heading = sheet_row(app, "Round")
    assert all(f"{mark} " in heading for mark in "ox+*"), heading  # each player's mark names them
    assert "o You" in heading
    shows_round(app, 1, first)
    assert "the end score, 200" in screen_text(app)
    assert any(
        line.strip("│ ").startswith("200┤") or line.strip("│ ").startswith("200├")
        for line in screen_lines(app)
    ), "the end score on the chart's scale"
    await pilot.press("g")  # back to the round's cards
    await until(
        pilot,
        lambda: not chart_on_screen(app) and "Cards by column" in screen_text(app),
        "the round again",
    )

    await pilot.press("enter")  # the next round; then the scores window during it
    await until(
        pilot,
        lambda: (
            isinstance(app.screen, TableScreen)
            and app.screen.view is not None
            and app.screen.view.round == 2
        ),
        "round 2 on the table",
    )
    await pilot.press("s")
    await on_screen(pilot, RoundSummaryScreen)
    await until(pilot, lambda: chart_on_screen(app), "the sheet in the scores window")
    shows_round(app, 1, first)
    await pilot.press("escape")
    await on_screen(pilot, TableScreen)

    over = await play_to_game_over(pilot, app, KeyboardPlayer(pilot))
    await on_screen(pilot, GameOverScreen)
    assert (await footer(pilot)).has("Sheet/round")
    await pilot.press("g")
    await until(pilot, lambda: chart_on_screen(app), "the chart at the game's end")
    rounds = over.summary.round
    assert rounds >= 2
    shows_round(app, 1, first)
    shows_round(app, rounds, over.summary)  # the last line: the final totals


async def test_the_score_sheet_after_round_one_and_at_the_end(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app(name="Zoé")
    async with app.run_test(size=(80, 24)) as pilot:
        await walk_the_score_sheet(pilot)
