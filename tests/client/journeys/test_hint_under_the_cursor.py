"""Journey: the hint's card under the cursor, where cards are drawn on one line.

On one line a card's marks are its two edges: ``[12]`` the cursor, ``>12<`` the hint's
card. With the cursor on the hint's card the edges said only ``[12]``: the hint's mark
was gone but for its colour, so without colour nothing told that the hint was about the
card under the cursor. Now it reads ``<12>`` (the hint's angles turned out, round the card
as the cursor's brackets are), and ``>12<`` again once the cursor moves on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from skyjo_tui.app import SkyjoApp
from skyjo_tui.layout import ROWS
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.tableau import TableauWidget

from .seen import a_local_game, prompt_line, screen_lines, until
from .test_hints import own_tableau

#: A terminal too short for boxed cards (at 80 columns with one opponent: fewer than 17 rows).
ONE_LINE = (80, 16)


def card_text(app: SkyjoApp, tableau: TableauWidget, pos: int) -> str:
    """The characters drawn for the card at ``pos`` (one line), as the screen shows them:
    what is read without colour."""
    region = tableau.content_region
    y = 1 + pos % ROWS  # the name line, then one line per row of cards
    line = screen_lines(app)[region.y + y]
    return "".join(line[region.x + x] for x in range(region.width) if tableau.pos_at(x, y) == pos)


async def cursor_to(pilot: Pilot[Any], table: TableScreen, pos: int) -> None:
    """Move the cursor with the arrows to ``pos`` of our tableau (column by column)."""
    assert isinstance(table.cursor, int)
    column, row = divmod(pos, ROWS)
    now_column, now_row = divmod(table.cursor, ROWS)
    across = "right" if column > now_column else "left"
    down = "down" if row > now_row else "up"
    await pilot.press(*[across] * abs(column - now_column), *[down] * abs(row - now_row))
    await until(pilot, lambda: table.cursor == pos, f"the cursor on card {pos}")


async def test_the_hints_card_under_the_cursor_keeps_its_mark_on_one_line(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app(environ={"NO_COLOR": "1"})
    async with app.run_test(size=(80, 24)) as pilot:
        table: TableScreen = await a_local_game(pilot)
        await pilot.resize_terminal(*ONE_LINE)
        own = own_tableau(table)
        await until(pilot, lambda: not own.card_size.boxed, "our cards on one line")

        # Ask the coach which card to turn up: it is marked, the cursor is elsewhere.
        await pilot.press("i")
        await until(pilot, lambda: prompt_line(app).startswith("Hint: "), "the hint")
        await until(pilot, lambda: len(own.hint) == 1, "the hint's card marked")
        (hinted,) = own.hint
        elsewhere = next(pos for pos in range(12) if pos != hinted)
        await cursor_to(pilot, table, elsewhere)
        await until(pilot, lambda: card_text(app, own, hinted).startswith(">"), "the hint's mark")
        assert card_text(app, own, hinted).endswith("<")
        assert card_text(app, own, elsewhere)[::3] == "[]"

        # The cursor onto the hint's card: both marks, told apart from either alone.
        await cursor_to(pilot, table, hinted)
        await until(pilot, lambda: card_text(app, own, hinted)[::3] == "<>", "both marks")
        assert card_text(app, own, elsewhere)[::3] == "  "
        assert prompt_line(app).startswith("Hint: ")  # the hint still stands

        # And off it again: the hint's mark as it was.
        await cursor_to(pilot, table, elsewhere)
        await until(pilot, lambda: card_text(app, own, hinted)[::3] == "><", "the hint alone")
        assert card_text(app, own, elsewhere)[::3] == "[]"
