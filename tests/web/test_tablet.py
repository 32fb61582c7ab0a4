"""The browser door on a tablet with its own keyboard (an iPad in a keyboard case): Debian's
Chromium emulating an iPad's touch screen, upright and turned.

What a person sees: the page opens on the game; outside text fields, the keys they type are
the game's shortcuts (the on-screen keyboard's text area stays put away), and a tap on a
card still raises no on-screen keyboard.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Browser

from .browserkit import IN_BROWSER, TIMEOUT, TermPage
from .phonekit import (
    TABLETS,
    TEXT_AREA_FOCUSED,
    a_private_table_with_a_bot,
    keyboard_is_down,
    keyboard_is_up,
    phone,
    tap_a_face_down_card,
    tap_footer,
)
from .webdoor import web_door

pytestmark = [*IN_BROWSER, pytest.mark.timeout(240)]

#: The app's smallest screen (skyjo_tui.layout.MENU_MIN_SIZE).
APP_MIN = (60, 18)


async def text_area_put_away(page: TermPage, after: str) -> None:
    """Until the text area loses the focus (the app said no text field has it)."""
    try:
        await page.page.wait_for_function(f"() => !({TEXT_AREA_FOCUSED})()", timeout=TIMEOUT * 1000)
    except Exception as error:
        raise AssertionError(f"the text area kept the focus {after}") from error


@pytest.mark.parametrize("name", list(TABLETS))
async def test_a_tablets_own_keyboard_gives_the_game_its_keys_outside_text_fields(
    tmp_path: Path, browser: Browser, name: str
) -> None:
    async with (
        web_door(tmp_path) as door,
        phone(browser, name) as context,
        TermPage.open(context, door.url) as page,
    ):
        await page.shows("Choose your name")
        assert "too small" not in page.text
        columns, rows = page.size
        assert columns >= APP_MIN[0] and rows >= APP_MIN[1], page.size
        await keyboard_is_up(page, "for the name")
        await page.type("bob")
        await page.press("Enter")
        await page.shows("New table")  # the lobby's footer
        await text_area_put_away(page, "in the lobby")
        # A key with no text field focused: the lobby's shortcut, not lost on the page.
        await page.press("n")
        await page.shows("Starting player")
        await page.press("Escape")
        await page.gone("Starting player")
        await page.shows("New table")
        await text_area_put_away(page, "back in the lobby")


async def test_a_tap_on_a_card_of_a_tablet_raises_no_keyboard(
    tmp_path: Path, browser: Browser
) -> None:
    async with (
        web_door(tmp_path) as door,
        a_private_table_with_a_bot(door) as (host, code),
        phone(browser, "ipad") as context,
        TermPage.open(context, f"{door.url}t/{code}") as page,
    ):
        await page.shows("Choose your name")
        await keyboard_is_up(page, "for the name")
        await page.type("bob")
        await page.press("Enter")
        await page.shows(f"code {code}")
        await page.wait_until(lambda: "bob" in page.text, "bob seated")
        await tap_footer(page, "Ready")
        await page.shows("You are ready")
        await host.request({"type": "start_game"})
        await page.shows("Turn up a card")
        await text_area_put_away(page, "in the game")
        for _ in range(2):
            await tap_a_face_down_card(page, "bob")
            await keyboard_is_down(page, "at a tap on a card")
