"""A whole game on two phones, by taps only: Debian's Chromium emulating a Pixel 7 and an
iPhone 13 held upright.

Ann opens the page, names herself, taps New table, sets the game to end at 10 points (a tap
on the field, the on-screen keyboard's keys) and taps Create. Bea opens the table's link and
names herself; she taps Ready, Ann taps Start. Each plays by tapping her cards and the pile
until the game is over (a round summary on the way taps Next round); no tap on a card gives
the on-screen keyboard the focus. Ann taps Leave, opens the link again and is back at the
finished table; both tap Rematch and the new game begins.
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
    tap_footer,
    tap_words,
)
from .webdoor import web_door

pytestmark = [*IN_BROWSER, pytest.mark.timeout(300)]

#: The table's link as the room shows it.
LINK = re.compile(r"http://\S+/t/([A-Z0-9]+)")
#: Taps a game of two at 10 points takes at most: 2 x 12 cards turned or swapped in a round,
#: a tap on the pile before each swap, a few rounds.
MOST_TAPS = 400


def prompt(page: TermPage) -> str:
    """The prompt over the footer, on one line or two (the log above says what was done:
    "You drew a 3." stays there long after)."""
    return " ".join(page.lines[-3:-1])


def next_round_offered(page: TermPage) -> bool:
    """The round summary's Next round button, not yet tapped (the footer's is left out)."""
    above_the_footer = "\n".join(page.lines[:-1])
    return "Next round" in above_the_footer and "Waiting for the other" not in above_the_footer


async def tap_next_step(page: TermPage, name: str) -> bool:
    """What ``name``'s screen asks for now, by one tap; False when it asks nothing."""
    asked = prompt(page)
    if next_round_offered(page):
        await tap_words(page, "Next round")
    elif "Turn up a card of your choice: tap it" in asked or "You drew" in asked:
        await page.tap_cell(*compact_face_down_card(page, name))
        await keyboard_is_down(page, f"at a tap on {name}'s card")
    elif "Your turn: tap the pile" in asked:
        column, row = page.find("Pile")
        await page.tap_cell(column + 2, row + 2)
    else:
        return False
    return True


async def tap_and_see(page: TermPage, name: str) -> None:
    """One tap of ``tap_next_step``, if asked, and its effect on the screen."""
    before = page.text
    if await tap_next_step(page, name):
        await page.wait_until(lambda: page.text != before, f"{name}'s tap seen")


async def play_to_the_end(players: list[tuple[TermPage, str]]) -> None:
    """Each player taps what her screen asks for until both see the game over."""

    def over() -> bool:
        return all("Game over" in page.text for page, _ in players)

    def someone_asked() -> bool:
        return over() or any(
            re.search(r"tap it|You drew|Your turn: tap", prompt(page)) or next_round_offered(page)
            for page, _ in players
        )

    first = players[0][0]
    for _ in range(MOST_TAPS):
        await first.wait_until(someone_asked, "a player asked to tap, or the game's end")
        if over():
            return
        for page, name in players:
            await tap_and_see(page, name)
    raise AssertionError(f"no game over after {MOST_TAPS} taps:\n{first.text}")


async def test_two_phones_play_a_whole_game_leave_come_back_and_rematch(
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
        await tap_words(ann, "Game ends at")
        column, row = ann.find("100")
        await ann.tap_cell(column + 3, row)  # after its last digit
        await keyboard_is_up(ann, "at a tap on the end score")
        await ann.press("Backspace")  # 10
        await tap_words(ann, "Create")
        await ann.shows("Game to 10 points")
        await ann.wait_until(lambda: LINK.search(ann.text) is not None, "the table's link")
        link = LINK.search(ann.text)
        assert link is not None

        async with TermPage.open(bea_phone, link.group(0)) as bea:
            await name_myself(bea, "Bea")
            await bea.shows("Game to 10 points")
            await tap_footer(bea, "Ready")
            await bea.shows("You are ready")
            await tap_footer(ann, "Start")
            await play_to_the_end([(ann, "Ann"), (bea, "Bea")])

            await tap_words(ann, "Leave")
            await ann.shows("Lobby · Ann")
            await ann.page.goto(link.group(0))
            await ann.shows("Game over")  # back at the finished table, the results shown
            await tap_words(ann, "Rematch")
            await ann.shows("Waiting for the others to accept the rematch")
            await tap_words(bea, "Rematch")
            for page in (ann, bea):
                await page.shows("Turn up a card of your choice: tap it")
