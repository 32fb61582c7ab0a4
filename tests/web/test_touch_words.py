"""On a touch screen the table's prompts say what to tap, not which keys to press: the page
tells the app it is on one (``touch=1``, ``SKYJO_TOUCH``); a page with a mouse and a
keyboard still names the keys.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Browser, BrowserContext

from .browserkit import IN_BROWSER, TermPage
from .phonekit import (
    a_private_table_with_a_bot,
    name_myself,
    phone,
    tap_a_face_down_card,
    tap_footer,
    tap_words,
)
from .webdoor import web_door

pytestmark = [*IN_BROWSER, pytest.mark.timeout(240)]

#: What a prompt says of keys: the arrows, Enter, "click".
KEY_WORDS = ("arrows", "⏎", "click")


def prompt(page: TermPage, start: str) -> str:
    """The prompt that begins with ``start``, over as many lines as it takes (the footer
    under it, whose keys a tap presses too, is not the prompt's)."""
    _, row = page.find(start)
    return " ".join(line.strip() for line in page.lines[row:-1])


async def test_a_phone_is_told_to_tap_the_cards_and_the_piles(
    tmp_path: Path, browser: Browser
) -> None:
    async with (
        web_door(tmp_path) as door,
        phone(browser, "pixel-7") as context,
        TermPage.open(context, door.url) as page,
    ):
        await name_myself(page, "bob")
        await page.shows("No public table yet: tap New")  # "table to create one, or Code to"
        await tap_footer(page, "New table")
        await tap_words(page, "Create")
        await page.shows("You are the host: tap Bots +/- for")  # then "bots, Start when ..."
        assert "Press" not in page.text, page.text
        await tap_footer(page, "Bots +")
        await page.shows("Casual")
        await tap_footer(page, "Start")
        await page.shows("Turn up a card of your choice: tap it")
        words = prompt(page, "Turn up a card")
        assert not [word for word in KEY_WORDS if word in words], page.text
        await tap_a_face_down_card(page, "bob")
        await tap_a_face_down_card(page, "bob")
        await page.shows("Your turn: tap the pile, or the discard")
        words = prompt(page, "Your turn")
        assert not [word for word in KEY_WORDS if word in words], page.text


async def test_a_page_with_a_keyboard_still_names_the_keys(
    tmp_path: Path, context: BrowserContext
) -> None:
    async with (
        web_door(tmp_path) as door,
        a_private_table_with_a_bot(door, bot="random") as (host, code),
        TermPage.open(context, f"{door.url}t/{code}") as page,
    ):
        await page.shows("Choose your name")
        await page.type("ann")
        await page.press("Enter")
        await page.shows(f"code {code}")
        await page.shows("Press r when you are ready")
        await page.press("r")
        await page.shows("You are ready")
        await host.request({"type": "start_game"})
        await page.shows("arrows to move, ⏎ to turn it up (or click it)")
        assert "tap" not in prompt(page, "Turn up a card"), page.text
