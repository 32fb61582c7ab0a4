"""The table's plan on a phone: upright, your cards big enough for a thumb, the log over
them; on its side, and on every terminal of 80x24 and more, the plan as it always was."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.screen import Screen

from server.engine import Game
from skyjo_tui.app import SkyjoApp
from skyjo_tui.layout import (
    FIXED_ROWS,
    PORTRAIT_LOG_ROWS,
    TablePlan,
    piles_height,
    piles_width,
    plan_table,
    portrait_below,
    tableau_height,
    tableau_width,
)
from skyjo_tui.screens.game_over import GameOverScreen
from skyjo_tui.screens.round_summary import RoundSummaryScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.piles import PilesWidget
from skyjo_tui.widgets.results import ResultsTable

from .journeys.seen import drawn_words, prompt_line, screen_lines
from .players import wait_for
from .scenes import game_pushes, moves, round_over, table_map
from .test_snapshots import show_table

#: A fingertip's 44x44 CSS pixels with the page's cell of about 7x15 pixels.
THUMB = (7, 3)


def phone_grid(css_width: int, css_height: int, columns: int = 60) -> tuple[int, int]:
    """The cells a phone's page gives the app: the font that fits ``columns`` across, its
    cell twice as tall as wide (the page's own controls take nothing from the terminal)."""
    cell = css_width / columns
    return columns, int(css_height // (2 * cell))


def shown(plan: TablePlan | None) -> tuple[object, ...] | None:
    """What a player sees of a plan: the card sizes, the opponents' bands, the log's rows."""
    if plan is None:
        return None
    own = plan.own and (plan.own.width, plan.own.height)
    return (own, (plan.others.width, plan.others.height), plan.per_band, plan.bands,
            plan.spare_rows, plan.portrait)  # fmt: skip


def assert_upright_for_a_thumb(plan: TablePlan | None, width: int, height: int) -> None:
    assert plan is not None and plan.portrait and plan.own is not None
    own = plan.own
    assert own.width >= THUMB[0] and own.height >= THUMB[1]
    assert plan.piles == own  # the piles as easy to hit as your cards
    assert piles_width(own) + tableau_width(own) <= width  # side by side, at the bottom
    assert plan.per_band * tableau_width(plan.others) <= width
    used = FIXED_ROWS + plan.bands * tableau_height(plan.others) + plan.spare_rows
    assert used + max(tableau_height(own), piles_height(own)) == height
    assert plan.spare_rows >= PORTRAIT_LOG_ROWS  # the latest moves over the cards


@pytest.mark.parametrize("opponents", range(1, 8))
@pytest.mark.parametrize(
    "size",
    [(60, 45), (60, 40), (60, 55), phone_grid(412, 839), phone_grid(390, 664), (65, 50)],
)
def test_a_phone_upright_gets_thumb_sized_cards_at_every_table(
    size: tuple[int, int], opponents: int
) -> None:
    width, height = size
    assert_upright_for_a_thumb(plan_table(width, height, opponents), width, height)


def test_upright_your_cards_are_8x5_and_the_opponents_as_big_as_the_log_allows() -> None:
    assert shown(plan_table(60, 45, 1)) == ((8, 5), (6, 3), 1, 1, 16, True)
    assert shown(plan_table(60, 45, 3)) == ((8, 5), (6, 3), 2, 2, 6, True)
    assert shown(plan_table(60, 45, 7)) == ((8, 5), (4, 1), 3, 3, 14, True)
    # Two bands of 6x3 opponents would leave the log one row: 4x3, three to a band.
    assert shown(plan_table(60, 40, 3)) == ((8, 5), (4, 3), 3, 1, 11, True)
    # Short of rows for 8x5 beside seven opponents: 7x3, still a thumb's.
    assert shown(plan_table(60, 30, 7)) == ((7, 3), (4, 1), 3, 3, 5, True)


@pytest.mark.parametrize(
    ("size", "opponents"),
    [((60, 49), 5), ((60, 49), 6), ((61, 41), 3)],  # the cells the page gives each phone
)
def test_upright_the_rows_over_the_log_show_the_opponents_cards_framed(
    size: tuple[int, int], opponents: int
) -> None:
    """A Pixel 7 at six or seven, an iPhone 13 at four: the opponents' cards framed, 4 cells
    wide, three to a band (they were one row high, over an empty band of log)."""
    plan = plan_table(*size, opponents)
    assert plan is not None and plan.portrait
    assert (plan.others.width, plan.others.height, plan.per_band) == (4, 3, 3)
    assert plan.spare_rows >= PORTRAIT_LOG_ROWS


def test_the_upright_plan_begins_where_the_landscape_one_cannot_box_your_cards() -> None:
    """70 columns: 6x3 cards and piles beside the 24 columns of the log."""
    assert portrait_below() == 70
    assert shown(plan_table(69, 40, 1)) == ((8, 5), (6, 3), 1, 1, 11, True)
    plan = plan_table(70, 40, 1)
    assert plan is not None and not plan.portrait


@pytest.mark.parametrize("size", [(60, 18), (60, 29)])
def test_a_terminal_wider_than_tall_keeps_the_log_beside_the_cards(size: tuple[int, int]) -> None:
    plan = plan_table(*size, 1)
    assert plan is not None and not plan.portrait and plan.side_width >= 24


def test_a_spectator_keeps_the_landscape_plan_on_a_phone() -> None:
    plan = plan_table(60, 45, 3, spectator=True)
    assert plan is not None and not plan.portrait and plan.own is None


def test_a_phone_on_its_side_keeps_the_landscape_plan() -> None:
    """90x18 (a phone on its side at the page's font): your cards boxed beside the log
    with up to five opponents, 9x22 CSS pixels a cell there: a 6x3 card is 56x66."""
    assert shown(plan_table(90, 18, 1)) == ((6, 3), (4, 1), 1, 1, 1, False)
    assert shown(plan_table(90, 18, 3)) == ((6, 3), (4, 1), 3, 1, 1, False)
    assert shown(plan_table(90, 18, 5)) == ((6, 3), (4, 1), 5, 1, 1, False)


@pytest.mark.parametrize("opponents", range(1, 8))
@pytest.mark.parametrize("size", [(97, 18), (84, 18), (90, 18), (90, 16)])
def test_a_phone_on_its_side_keeps_your_cards_boxed_at_every_table(
    size: tuple[int, int], opponents: int
) -> None:
    """A Pixel 7 (97x18) and an iPhone 13 (84x18) on their side: your cards and the piles
    6 cells by 3 rows, the opponents' name lines only when their cards leave no room."""
    width, height = size
    plan = plan_table(width, height, opponents, touch=True)
    assert plan is not None and not plan.portrait and plan.own is not None
    assert (plan.own.width, plan.own.height) >= (6, 3) and plan.piles == plan.own
    assert plan.side_width >= 24  # the log beside them
    assert plan.per_band * plan.bands >= opponents
    rows = FIXED_ROWS + plan.bands * tableau_height(plan.others) + plan.middle_height
    assert rows + plan.spare_rows == height


def test_on_its_side_at_a_full_table_the_opponents_are_their_name_lines() -> None:
    """Seven opponents on a Pixel 7 on its side: their cards would leave yours one row high
    (4x1: 40x22 CSS pixels); their name lines, four to a row, leave yours 6x3."""
    assert shown(plan_table(97, 18, 7, touch=True)) == ((6, 3), (5, 0), 4, 2, 3, False)
    assert shown(plan_table(84, 18, 7, touch=True)) == ((6, 3), (5, 0), 3, 3, 2, False)


def test_with_a_keyboard_a_short_terminal_still_shows_the_opponents_cards() -> None:
    """An SSH or local terminal as short: one-row cards for everyone, so that the
    opponents' cards stay in sight (what a keyboard player reads the game by)."""
    assert shown(plan_table(97, 18, 7)) == ((4, 1), (4, 1), 5, 2, 3, False)
    assert shown(plan_table(80, 16, 1)) == ((4, 1), (4, 1), 1, 1, 5, False)


async def test_on_its_side_with_one_row_cards_the_empty_slot_says_nothing_not_none(
    make_app: Callable[..., SkyjoApp],
) -> None:
    """Seven at a table on a small terminal: one-row piles, too narrow for "Nothing
    drawn", say "Nothing" under them (they said "None", which reads as a fault)."""
    app = make_app()
    async with app.run_test(size=(60, 18)) as pilot:
        await show_table(7, 3, moves(17))(pilot)
        screen = app.screen
        assert isinstance(screen, TableScreen)
        piles = screen.query_one(PilesWidget)
        assert piles.card_size.height == 1 and screen.view and screen.view.drawn_card is None
        words = drawn_words(app, piles).split()
        assert "Nothing" in words and "None" not in words


#: The plans of every table (1 to 7 opponents) before phones: (your cards, the others',
#: opponents a band, bands, the log's rows under the cards, portrait).
BEFORE_PHONES = {
    (80, 24): [((6, 3), (6, 3), 1, 1, 1), ((6, 3), (6, 3), 2, 1, 1)]
    + [((6, 3), (4, 1), 3, 1, 7), ((6, 3), (4, 1), 4, 1, 7)]
    + [((6, 3), (4, 1), 4, 2, 3)] * 3,
    (120, 40): [((11, 7), (6, 3), n, 1, 5) for n in range(1, 5)] + [((8, 5), (6, 3), 4, 2, 1)] * 3,
}


@pytest.mark.parametrize("size", list(BEFORE_PHONES))
def test_80x24_and_120x40_plan_as_before(size: tuple[int, int]) -> None:
    expected = [(*plan, False) for plan in BEFORE_PHONES[size]]
    assert [shown(plan_table(*size, n)) for n in range(1, 8)] == expected


@pytest.mark.parametrize("size", [(60, 45), (97, 18), (60, 18)])
async def test_nothing_drawn_is_said_once_without_an_empty_slot_under_it(
    make_app: Callable[..., SkyjoApp], size: tuple[int, int]
) -> None:
    """Under the piles, "Nothing drawn" (or "Nothing") and blank rows: a faint "··", the
    mark of an empty slot, stood under the words and read as a fault."""
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await show_table(3 if size[1] > 18 else 7, 3, moves(17))(pilot)
        screen = app.screen
        assert isinstance(screen, TableScreen)
        assert screen.view is not None and screen.view.drawn_card is None
        words = drawn_words(app, screen.query_one(PilesWidget))
        assert "Nothing" in words and "··" not in words, words


#: The environment the page gives the app on a phone (skyjo_tui/webpage.py).
TOUCH_SCREEN = {"SKYJO_IN_PAGE": "1", "SKYJO_TOUCH": "1"}


@pytest.mark.parametrize("players", [2, 8])
@pytest.mark.parametrize("size", [(60, 49), (61, 41)])
async def test_upright_the_results_fit_the_dialog_with_every_score(
    make_app: Callable[..., SkyjoApp], size: tuple[int, int], players: int
) -> None:
    """On a phone held upright the game's results are read whole: the round's score and the
    total in view (they were cut at the dialog's edge, a scroll bar under them)."""
    app = make_app(environ=TOUCH_SCREEN)
    async with app.run_test(size=size) as pilot:
        screen = TableScreen(table_map(players, server_bot_names=True))
        await app.push_screen(screen)
        for push in game_pushes(players, 1, lambda game, moves: False):
            screen.feed_game(push)
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
        over = app.screen
        await pilot.pause()
        results = over.query_one(ResultsTable)
        await wait_for(pilot, lambda: results.virtual_size.width <= results.size.width)
        header = " ".join(str(column.label) for column in results.columns.values())
        assert "Round" in header and "Total" in header
        lines = "\n".join(screen_lines(app))
        assert "Round" in lines and "Total" in lines, lines


async def test_under_the_game_over_dialog_the_prompt_names_nothing_to_tap(
    make_app: Callable[..., SkyjoApp],
) -> None:
    """The prompt under the dialog said "tap Scores", a word its footer does not have; once
    the dialog is closed, the table's footer has Scores again and the prompt names it."""
    app = make_app(environ=TOUCH_SCREEN)
    async with app.run_test(size=(60, 49)) as pilot:
        screen = TableScreen(table_map(2, server_bot_names=True))
        await app.push_screen(screen)
        for push in game_pushes(2, 1, lambda game, moves: False):
            screen.feed_game(push)
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.pause()
        assert str(screen.board.prompt_line.text) == "The game is over."  # under the dialog
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)
        await pilot.pause()
        assert prompt_line(app) == "The game is over: tap Scores to see the results."


@pytest.mark.parametrize(
    ("dialog", "until", "button"),
    [
        (GameOverScreen, lambda game, moves: False, "#leave"),
        (RoundSummaryScreen, round_over, "#close"),
    ],
    ids=["game-over", "round-summary"],
)
@pytest.mark.parametrize("size", [(60, 49), (61, 41)])
async def test_upright_the_dialogs_buttons_stay_where_they_first_show(
    make_app: Callable[..., SkyjoApp],
    size: tuple[int, int],
    dialog: type[Screen[None]],
    until: Callable[[Game, int], bool],
    button: str,
) -> None:
    """A tap lands where the button was seen: the results, refitted to a phone's width once
    laid out, showed a scroll bar until then, and the buttons moved up a row under the
    finger (the two phones' journey lost its tap on Leave, 3 times in 10 under load)."""
    app = make_app(environ=TOUCH_SCREEN)
    async with app.run_test(size=size) as pilot:
        screen = TableScreen(table_map(2, server_bot_names=True))
        await app.push_screen(screen)
        for push in game_pushes(2, 1, until):
            screen.feed_game(push)
        await wait_for(pilot, lambda: isinstance(app.screen, dialog))
        shown = app.screen
        rows: list[int] = []
        for _ in range(50):  # every layout from the dialog's first on
            rows += [found.region.y for found in shown.query(button) if found.region.height]
            await pilot.pause(0)
        assert rows and set(rows) == {rows[-1]}, f"the button moved: rows {rows}"
