"""The palette in the terminals players have: 16 million, 256 or 16 colours.

Textual brings every colour down to the terminal's (rich's nearest match):
the board and its bars must still look as intended there.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from rich.color import Color, ColorSystem
from rich.console import Console
from rich.style import Style

from skyjo_tui.app import SkyjoApp
from skyjo_tui.layout import CARD_SIZES
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets import card_art

from .players import wait_for
from .scenes import game_pushes, moves, table_map

DECK_VALUES = (-2, 0, 3, 7, 12)  # one per colour of the deck


def distance(a: Color, b: Color) -> float:
    """How far apart two colours look ("redmean", 0..~765)."""
    (r1, g1, b1), (r2, g2, b2) = a.get_truecolor(), b.get_truecolor()
    mean = (r1 + r2) / 2
    dr, dg, db = r1 - r2, g1 - g2, b1 - b2
    return float(
        ((2 + mean / 256) * dr * dr + 4 * dg * dg + (2 + (255 - mean) / 256) * db * db) ** 0.5
    )


async def colours_on_the_table(app: SkyjoApp) -> set[Color]:
    """Every foreground and background colour of a table at 80x24, your move."""
    async with app.run_test(size=(80, 24)) as pilot:
        screen = TableScreen(table_map(2, server_bot_names=True))
        await app.push_screen(screen)
        for push in game_pushes(2, 5, moves(16)):
            screen.feed_game(push)
        await wait_for(pilot, lambda: "Your turn" in str(screen.board.prompt_line.render()))
        console = Console(
            width=80, file=io.StringIO(), color_system="truecolor", force_terminal=True
        )
        update = app.screen._compositor.render_update(full=True)  # noqa: SLF001 - what the screen draws
        assert update is not None  # a full update always has the whole screen
        styles = [segment.style for segment in console.render(update) if segment.style]
    return {c for style in styles for c in (style.color, style.bgcolor) if c is not None}


async def test_a_256_colour_terminal_shows_the_table_as_a_truecolor_one(
    make_app: Callable[..., SkyjoApp],
) -> None:
    colours = await colours_on_the_table(make_app())
    # Navy bars for grey ones were 126 away; a shade of text blended on its
    # background may move a little (a 256-colour ramp step is about 20).
    far = {
        c.name: distance(c, c.downgrade(ColorSystem.EIGHT_BIT))
        for c in colours
        if distance(c, c.downgrade(ColorSystem.EIGHT_BIT)) > 30
    }
    assert not far, far


def card_background(look: card_art.CardLook) -> Color:
    """The colour of a card's middle, as drawn."""
    middle = card_art.draw_card(look, CARD_SIZES[1])[1]
    style = middle.spans[-1].style if middle.spans else middle.style
    assert isinstance(style, Style) and style.bgcolor is not None
    return style.bgcolor


def test_sixteen_colours_keep_every_colour_of_the_deck_apart() -> None:
    faces = [card_background(card_art.CardLook.of(value)) for value in DECK_VALUES]
    back = card_background(card_art.CardLook.of(None))
    basic = {colour.downgrade(ColorSystem.STANDARD).number for colour in faces}
    assert len(basic) == len(faces), basic
    assert back.downgrade(ColorSystem.STANDARD).number not in basic
