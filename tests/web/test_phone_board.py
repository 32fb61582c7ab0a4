"""A phone held upright (a Pixel 7's 412x839 CSS pixels, touch) plays on the page by taps:
its cards are drawn at least 44x44 CSS pixels, the usual touch target, at the bottom of the
screen, and a tap on a card's corner or a pile's plays it.

The page's font is given (``?fontsize=11``: 68x55 cells) so that this tests the board's
layout in the page, whatever font the page picks for a phone by itself. Then each phone of
``phonekit.PHONES``, upright and turned, with the font the page picks: its cards are as big
at a table of two, four and eight.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from playwright.async_api import Browser, ViewportSize

from .browserkit import IN_BROWSER, TIMEOUT, TermPage
from .phonekit import (
    PHONES,
    a_private_table_with_a_bot,
    name_myself,
    phone,
    tap_a_face_down_card,
    tap_footer,
    tap_words,
)
from .webdoor import SCORE, web_door

pytestmark = [*IN_BROWSER, pytest.mark.timeout(240)]

PIXEL_7: ViewportSize = {"width": 412, "height": 839}
TOUCH_TARGET = 44  # CSS pixels


class Cards:
    """Where the page draws the screen's cells, in CSS pixels."""

    def __init__(self, page: TermPage, x: float, y: float, width: float, height: float) -> None:
        self.page = page
        columns, rows = page.size
        self.x, self.y = x, y
        self.cell = (width / columns, height / rows)

    @classmethod
    async def of(cls, page: TermPage) -> Cards:
        box = await page.page.locator(".xterm-screen").bounding_box(timeout=TIMEOUT * 1000)
        assert box is not None, "the terminal is not on the page"
        return cls(page, box["x"], box["y"], box["width"], box["height"])

    def my_card(self, name: str, column: int, row: int) -> tuple[int, int, int, int]:
        """(left, top, width, height) in cells of one of ``name``'s cards, read from its
        frame on the screen: the first card's "┌" (under the name), then along and down."""
        lines = self.page.lines
        seat = [y for y, line in enumerate(lines) if name in line and SCORE.search(line)]
        assert seat, f"no seat line for {name}:\n{self.page.text}"
        start, top = lines[seat[0]].index(name), seat[0] + 1  # the name is over the first card
        corners = [m.start() for m in re.finditer("[┌┏╔╭]", lines[top]) if m.start() >= start]
        assert len(corners) >= 2, f"{name}'s cards are not framed cards:\n{self.page.text}"
        right = re.compile("[┐┓╗╮]").search(lines[top], corners[0])
        assert right is not None, lines[top]
        bottom = next(y for y in range(top, len(lines)) if lines[y][corners[0]] in "└┗╚╰")
        width, height = right.end() - corners[0], bottom + 1 - top
        left = corners[0] + column * (corners[1] - corners[0])
        return left, top + row * height, width, height

    def pixels(self, cells: tuple[int, int, int, int]) -> tuple[float, float]:
        return cells[2] * self.cell[0], cells[3] * self.cell[1]

    async def tap(self, column: int, row: int) -> None:
        """A finger's tap on the middle of that cell."""
        x = self.x + (column + 0.5) * self.cell[0]
        y = self.y + (row + 0.5) * self.cell[1]
        await self.page.page.touchscreen.tap(x, y)


async def test_a_phone_upright_taps_thumb_sized_cards_at_the_bottom(
    tmp_path: Path, browser: Browser
) -> None:
    context = await browser.new_context(
        viewport=PIXEL_7, has_touch=True, is_mobile=True, device_scale_factor=1
    )
    try:
        async with (
            web_door(tmp_path) as door,
            TermPage.open(context, door.url + "?fontsize=11") as page,
        ):
            # The name typed (the keyboard is up for it); the rest by taps: a touch screen
            # gives the keys to no one outside a text field.
            await name_myself(page, "Ann")
            await page.shows("Lobby · Ann")
            await tap_footer(page, "New table")
            await tap_words(page, "Create")
            await page.shows("You are the host")
            await tap_footer(page, "Bots +")
            await page.shows("Casual")
            await tap_footer(page, "Bots +")
            await page.screen_until(lambda s: s.count("Casual") == 2, "two bots seated")
            await tap_footer(page, "Start")
            await page.shows("Turn up a card")
            cards = await Cards.of(page)
            first = cards.my_card("Ann", 0, 0)
            width, height = cards.pixels(first)
            assert width >= TOUCH_TARGET and height >= TOUCH_TARGET, (width, height, page.text)
            assert first[1] >= page.size[1] // 2, "your cards are in the top half"

            # A corner of each of two cards turns them up.
            await cards.tap(first[0], first[1])
            await page.shows("You turned up")
            last = cards.my_card("Ann", 3, 2)
            await cards.tap(last[0] + last[2] - 1, last[1] + last[3] - 1)
            await page.screen_until(lambda s: s.count("You turned up") == 2, "two cards up")

            # Our turn: a tap on the draw pile, then on a card keeps the drawn one.
            await page.shows("Your turn", timeout=TIMEOUT)
            column, row = page.find("Pile")
            await cards.tap(column + 1, row + 1)
            await page.shows("You drew")
            swap = cards.my_card("Ann", 1, 0)
            await cards.tap(swap[0], swap[1] + swap[3] - 1)
            await page.shows("You kept")
    finally:
        await asyncio.wait_for(context.close(), TIMEOUT)


#: The players at a table: the fewest, four, and the most (seven opponents: on a phone on
#: its side, too many for cards of everyone's beside yours).
PLAYERS = (2, 4, 8)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("name", list(PHONES))
async def test_each_phone_either_way_up_draws_your_cards_thumb_sized_at_every_table(
    tmp_path: Path,
    browser: Browser,
    name: str,
    players: int,
    request: pytest.FixtureRequest,
) -> None:
    """With the font the page picks for the phone (no ``?fontsize``), at a table of two,
    four and eight: your first card at least 44x44 CSS pixels (its size is recorded as
    ``card_css_px``: ``--junitxml`` writes it)."""
    async with (
        web_door(tmp_path) as door,
        a_private_table_with_a_bot(door, seats=players, bots=players - 2) as (host, code),
        phone(browser, name) as context,
        TermPage.open(context, f"{door.url}t/{code}") as page,
    ):
        await name_myself(page, "bob")
        await page.shows(f"code {code}")
        await tap_footer(page, "Ready")
        await page.shows("You are ready")
        await host.request({"type": "start_game"})
        await page.shows("Turn up a card")
        cards = await Cards.of(page)
        width, height = cards.pixels(cards.my_card("bob", 0, 0))
        request.node.user_properties.append(("card_css_px", f"{width:.0f}x{height:.0f}"))
        assert width >= TOUCH_TARGET and height >= TOUCH_TARGET, (width, height, page.text)


def prompt_below_the_cards(page: TermPage, cards: Cards, start: str) -> None:
    """The prompt that begins with ``start`` is whole (no "…") on the rows between your last
    row of cards and the footer: none of its lines is drawn over a card."""
    last = cards.my_card("bob", 3, 2)
    bottom = last[1] + last[3] - 1  # the last card row's frame
    footer = len(page.lines) - 1
    # The lowest line that begins so (the log above may tell the same words).
    row = max(y for y, line in enumerate(page.lines[:footer]) if line.strip().startswith(start))
    words = " ".join(line.strip() for line in page.lines[row:footer])
    assert row > bottom, f"the prompt is on the cards (row {row}, cards to {bottom}):\n{page.text}"
    assert "…" not in words, page.text
    assert page.lines[bottom][last[0]] in "└┗╚╰", f"a card's frame is cut:\n{page.text}"


async def test_an_iphone_upright_at_a_table_of_four_says_each_prompt_under_the_cards(
    tmp_path: Path, browser: Browser
) -> None:
    """An iPhone 13 upright (61x41) at four: the prompt of each step of a turn (its words
    wrap onto the log's rows when they need to) stands between your cards and the footer."""
    async with (
        web_door(tmp_path) as door,
        a_private_table_with_a_bot(door, "casual", seats=4, bots=2) as (host, code),
        phone(browser, "iphone-13") as context,
        TermPage.open(context, f"{door.url}t/{code}") as page,
    ):
        await name_myself(page, "bob")
        await page.shows(f"code {code}")
        await tap_footer(page, "Ready")
        await page.shows("You are ready")
        await host.request({"type": "start_game"})
        await host.request({"type": "leave_table"})  # a bot plays for the host
        await page.shows("Turn up a card")
        cards = await Cards.of(page)
        prompt_below_the_cards(page, cards, "Turn up a card")
        for _ in range(2):
            await tap_a_face_down_card(page, "bob")
        await page.shows("Your turn", timeout=TIMEOUT)
        prompt_below_the_cards(page, cards, "Your turn")
        column, row = page.find("Pile")
        await cards.tap(column + 1, row + 1)
        await page.wait_until(
            lambda: any(line.strip().startswith("You drew a") for line in page.lines[-4:-1]),
            "the drawn card's prompt",
        )
        prompt_below_the_cards(page, cards, "You drew a")
