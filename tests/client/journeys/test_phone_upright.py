"""Journey: a phone held upright (60x45 cells, the page's font on a phone) plays by taps.

Your cards and the piles are at the bottom, within a thumb's reach, each at least
7 cells by 3 rows (about 49x45 CSS pixels: a fingertip's 44x44); a tap anywhere on
a card, its corners included, plays it; the log is over the cards, across the width.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.geometry import Region
from textual.pilot import Pilot

from skyjo_tui.app import SkyjoApp
from skyjo_tui.layout import ROWS
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.setup import SetupScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.line_log import LineLog
from skyjo_tui.widgets.piles import PilesWidget
from skyjo_tui.widgets.tableau import TableauWidget

from ..players import my_move
from .seen import on_screen, screen_text, until

PHONE = (60, 45)


def card_box(table: TableScreen, pos: int) -> Region:
    """Where your card at ``pos`` is drawn on the screen."""
    own = table.query_one("#own", TableauWidget)
    card, box = own.card_size, own.content_region
    column, row = divmod(pos, ROWS)
    x = box.x + 1 + column * (card.width + card.gap)
    return Region(x, box.y + 1 + row * card.height, card.width, card.height)


def pile_box(table: TableScreen) -> Region:
    """Where the draw pile is drawn on the screen."""
    piles = table.query_one(PilesWidget)
    card, box = piles.card_size, piles.content_region
    return Region(box.x + 1, box.y + 1, card.width, card.height)


def my_cards(table: TableScreen) -> tuple[int | None, ...]:
    view = table.view
    assert view is not None and view.seat is not None
    return view.tableaux[view.seat].cards


def drawn_card(table: TableScreen) -> int | None:
    return table.view.drawn_card if table.view else None


async def tap(pilot: Pilot[Any], x: int, y: int) -> None:
    assert await pilot.click(offset=(x, y)), f"nothing to tap at {x},{y}"


async def test_a_phone_upright_plays_by_taps_on_thumb_sized_cards(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app()
    async with app.run_test(size=PHONE) as pilot:
        await on_screen(pilot, HomeScreen)
        await pilot.press("n")
        await on_screen(pilot, SetupScreen)
        await pilot.press("enter")
        table = await on_screen(pilot, TableScreen)
        await until(pilot, lambda: my_move(app) and table.choices.flip, "the first flips")

        first, last = card_box(table, 0), card_box(table, 11)
        assert first.width >= 7 and first.height >= 3, f"a card of {first.size}"
        # Within reach: your cards and the piles in the bottom half, the log over them.
        pile = pile_box(table)
        assert min(first.y, pile.y) >= PHONE[1] // 2
        log = table.query_one("#log", LineLog)
        assert log.region.bottom <= pile.y and log.region.width >= PHONE[0] - 2
        assert "Nothing drawn" in screen_text(app)

        # The far corners of two cards turn them up.
        await tap(pilot, first.x, first.y)
        await until(pilot, lambda: my_cards(table)[0] is not None, "card 0 turned up")
        await tap(pilot, last.right - 1, last.bottom - 1)
        await until(pilot, lambda: my_cards(table)[11] is not None, "card 11 turned up")

        # A move: the draw pile's corner, then a face-down card's other corner swaps it.
        await until(pilot, lambda: my_move(app) and table.choices.draw, "our turn", timeout=60)
        await tap(pilot, pile.right - 1, pile.y)
        await until(pilot, lambda: drawn_card(table) is not None, "a card drawn")
        drawn = drawn_card(table)
        swap = card_box(table, 1)
        await tap(pilot, swap.x, swap.bottom - 1)
        await until(pilot, lambda: my_cards(table)[1] == drawn, "the drawn card kept")

        # Turned on its side, the log goes beside the cards; upright again, over them.
        await pilot.resize_terminal(100, 30)
        await until(pilot, lambda: log.region.x >= card_box(table, 11).right, "the log beside")
        await pilot.resize_terminal(*PHONE)
        await until(pilot, lambda: log.region.bottom <= pile_box(table).y, "the log over")
        assert card_box(table, 0).width >= 7 and "Nothing drawn" in screen_text(app)
