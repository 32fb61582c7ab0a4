"""Two friends, each with their phone, at one table, by taps only: Debian's Chromium
emulating a Pixel 7 and an iPhone 13 held upright (their viewports and pixel ratios, touch).

Ann opens the page, taps the name field and types her name, taps New table and Create; her
room shows the table's link. Bea opens that link on her phone and names herself the same way.
Bea taps Ready, Ann (the host) taps Start; each turns up two cards, then plays a turn by
tapping a pile and one of her own cards, and each sees the other's move in her log. Bea taps
Chat and sends a line (the on-screen keyboard's Enter); Ann reads it. No tap on a card or a
pile gives xterm's text area (the on-screen keyboard) the focus.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.async_api import Browser

from .browserkit import IN_BROWSER, TermPage
from .phonekit import (
    compact_face_down_card,
    keyboard_is_down,
    keyboard_is_up,
    name_myself,
    phone,
    tap_a_face_down_card,
    tap_footer,
    tap_words,
)
from .webdoor import web_door

pytestmark = [*IN_BROWSER, pytest.mark.timeout(240)]

#: The table's link as the room shows it.
LINK = re.compile(r"http://\S+/t/([A-Z0-9]+)")


async def tap_pile(page: TermPage, label: str) -> None:
    """Tap the pile under ``label`` ("Pile", "Discard"): a cell inside its card."""
    await page.shows(label)
    column, row = page.find(label)
    await page.tap_cell(column + 2, row + 2)


async def tap_a_card_of_mine(page: TermPage, name: str, what: str) -> None:
    """Tap one of ``name``'s face-down cards (the drawn or taken card goes there); the log
    says ``what`` was done ("kept", "took"), and the keyboard stayed down."""
    before = page.text.count(f"You {what}")
    await page.tap_cell(*compact_face_down_card(page, name))
    await page.wait_until(lambda: page.text.count(f"You {what}") > before, f"You {what}")
    await keyboard_is_down(page, f"at a tap on {name}'s card")


async def test_two_phones_at_one_table_play_and_chat_by_taps_only(
    tmp_path: Path, browser: Browser
) -> None:
    async with (
        web_door(tmp_path) as door,
        phone(browser, "pixel-7") as ann_phone,
        phone(browser, "iphone-13") as bea_phone,
        TermPage.open(ann_phone, door.url) as ann,
    ):
        await name_myself(ann, "Ann")
        await ann.shows("Lobby · Ann")
        await tap_footer(ann, "New table")
        await tap_words(ann, "Create")
        await ann.shows("You are the host")
        await ann.wait_until(lambda: LINK.search(ann.text) is not None, "the table's link")
        link = LINK.search(ann.text)
        assert link is not None
        code = link.group(1)
        assert f"code {code}" in ann.text

        async with TermPage.open(bea_phone, link.group(0)) as bea:
            await name_myself(bea, "Bea")
            await bea.shows(f"code {code}")  # at Ann's table, seated beside her
            await bea.shows("Ann")
            await ann.shows("Bea")

            await tap_footer(bea, "Ready")
            await bea.shows("You are ready")
            await tap_footer(ann, "Start")
            for page, name in ((ann, "Ann"), (bea, "Bea")):
                await page.shows("Turn up a card")
                await keyboard_is_down(page, "when the game started")
                for _ in range(2):
                    await tap_a_face_down_card(page, name)
                    await keyboard_is_down(page, f"at a tap on {name}'s card")

            # The higher two cards start: whoever it is draws from the pile and keeps the
            # card; the other takes the discard.
            await ann.wait_until(
                lambda: "Your turn" in ann.text or "Your turn" in bea.text, "someone's turn"
            )
            (first, first_name), (second, second_name) = (
                ((ann, "Ann"), (bea, "Bea"))
                if "Your turn" in ann.text
                else ((bea, "Bea"), (ann, "Ann"))
            )
            await tap_pile(first, "Pile")
            await first.shows("You drew")
            await keyboard_is_down(first, "at a tap on the pile")
            await tap_a_card_of_mine(first, first_name, "kept")
            await second.shows(f"{first_name} kept the")

            await second.shows("Your turn")
            await first.shows(f"Waiting for {second_name}")
            await tap_pile(second, "Discard")
            await keyboard_is_down(second, "at a tap on the discard")
            await tap_a_card_of_mine(second, second_name, "took")
            await first.shows(f"{second_name} took the")

            await tap_footer(bea, "Chat")
            await keyboard_is_up(bea, "at a tap on Chat")
            await bea.type("good luck")
            await bea.press("Enter")
            await ann.shows("Bea: good luck")
