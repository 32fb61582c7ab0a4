"""Journey: the score sheet after round 1 and at the game's end, its chart at 80x24."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input

from skyjo_tui.app import SkyjoApp
from skyjo_tui.i18n import LANGUAGES
from skyjo_tui.screens.game_over import GameOverScreen
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.round_summary import RoundSummaryScreen
from skyjo_tui.screens.setup import SetupScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.score_chart import ScoreChart
from skyjo_tui.widgets.sheet_table import SheetTable

from ..players import KeyboardPlayer, play_to_game_over
from ..scenes import game_pushes, round_over, table_map
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
    the closer's mark ("47×2=94" doubled, "✓" closed), the total."""
    return {
        p.seat: f"{doubled(p)}{p.score}{'✓' if p.closer and not p.doubled else ''} {p.total}"
        for p in summary.players
    }


def doubled(result: Any) -> str:
    return f"{result.raw}×2=" if result.doubled else ""


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
    # The doubled mark is explained only when a closer's score was doubled, with theirs.
    closer = next(p for p in first.players if p.closer)
    explained = f"{closer.raw}×2={closer.score}: the closer's {closer.raw}, doubled"
    assert (explained in screen_text(app)) == closer.doubled, screen_text(app)
    assert ("×2=" in screen_text(app)) == closer.doubled, screen_text(app)
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


def doubled_rounds(pushes: list[dict[str, Any]]) -> list[tuple[int, int, int, int]]:
    """Each round whose closer was doubled: its number, the closer, their sum and score."""
    scored = [e for p in pushes for e in p["events"] if e.get("type") == "round_scored"]
    return [
        (number, e["closer"], e["raw_scores"][e["closer"]], e["final_scores"][e["closer"]])
        for number, e in enumerate(scored, 1)
        if e["closer_doubled"]
    ]


async def the_sheet_after(
    pilot: Pilot[Any], players: int, pushes: list[dict[str, Any]], ends: type[Screen[Any]]
) -> None:
    """A table of ``players`` fed ``pushes``, to the screen ``ends`` that they open; its
    score sheet (``g``) once its chart is drawn."""
    screen = TableScreen(table_map(players))
    await pilot.app.push_screen(screen)
    for push in pushes:
        screen.feed_game(push)
    await on_screen(pilot, ends)
    await pilot.press("g")
    await until(pilot, lambda: chart_on_screen(pilot.app), "the score sheet")


#: Per language: the sheet's first header, and how the marks' key ends (the end score).
SHEET_WORDS = {
    "de": ("Runde", "Endpunktzahl 100"),
    "en": ("Round", "the end score, 100"),
    "es": ("Ronda", "la meta, 100"),
    "fr": ("Manche", "le score de fin, 100"),
    "it": ("Manche", "traguardo 100"),
    "nl": ("Ronde", "eindscore 100"),
}


@pytest.mark.parametrize(
    ("players", "seed", "lang"),
    [*((5, 7, lang) for lang in LANGUAGES), (8, 7, "en")],
    ids=[*(f"5-players-{lang}" for lang in LANGUAGES), "8-players-compact"],
)
async def test_a_doubled_closer_reads_as_the_sum_doubled_within_80_columns(
    make_app: Callable[..., SkyjoApp], players: int, seed: int, lang: str
) -> None:
    """ "94×2" read as 94 times 2, while 94 was already doubled: the sheet writes the sum
    and what it became, "47×2=94", as the round's summary does, and still fits 80 columns
    with five players (a name and a total in each cell) or eight (the scores alone)."""
    pushes = game_pushes(players, seed, lambda game, moves: False)
    rounds = doubled_rounds(pushes)
    app = make_app(lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await the_sheet_after(pilot, players, pushes, GameOverScreen)
        sheet = app.screen.query_one(SheetTable)
        assert sheet.max_scroll_x == 0 and sheet.region.right <= 80
        drawn = [" ".join(line.strip("│ ").split()) for line in screen_lines(app)]
        first, key_end = SHEET_WORDS[lang]
        shown = [r for r in rounds if any(line.startswith(f"{r[0]} ") for line in drawn)]
        assert shown, (rounds, drawn)  # the sheet keeps its last rounds in sight
        for number, _closer, raw, score in shown:  # each cell on one line: one word each
            row = next(line for line in drawn if line.startswith(f"{number} "))
            assert f"{raw}×2={score}" in row, row
            assert f"{score}×2" not in row, row
            assert len(row.split()) == players + 1 + (0 if players >= 6 else players), row
        assert any(line.startswith(first) for line in drawn)
        _number, _closer, raw, score = rounds[-1]  # the marks explained with the last one
        key = next(line for line in drawn if line.startswith(f"{raw}×2={score}"))
        assert key.endswith(key_end), key  # whole: not cut at the panel's edge


async def test_with_no_closer_doubled_the_key_explains_no_doubled_mark(
    make_app: Callable[..., SkyjoApp],
) -> None:
    """An example "7×2=14" read as a score of this game: no doubled mark, no words for one."""
    pushes = game_pushes(2, 2, round_over)
    assert not doubled_rounds(pushes)  # the deal of seed 2: its closer had the lowest score
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await the_sheet_after(pilot, 2, pushes, RoundSummaryScreen)
        assert "✓ closed · the line: the end score, 100" in screen_text(app), screen_text(app)
        assert "×2" not in screen_text(app), screen_text(app)
