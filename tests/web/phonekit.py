"""Phones for the browser tests: Chromium's emulation of real ones, and a finger's taps."""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator
from typing import Any

from playwright.async_api import Browser, BrowserContext
from playwright.async_api import Error as PlaywrightError

from server.netclient import ServerConnection

from .browserkit import TIMEOUT, TermPage
from .webdoor import WebDoor

#: Playwright's descriptors of the two phones (CSS pixels), without their user agents.
PHONES: dict[str, dict[str, Any]] = {
    "pixel-7": {"viewport": {"width": 412, "height": 839}, "device_scale_factor": 2.625},
    "pixel-7-landscape": {"viewport": {"width": 863, "height": 360}, "device_scale_factor": 2.625},
    "iphone-13": {"viewport": {"width": 390, "height": 664}, "device_scale_factor": 3},
    "iphone-13-landscape": {"viewport": {"width": 750, "height": 342}, "device_scale_factor": 3},
}

#: Tablets, upright and turned: an iPad Air's screen (its keyboard case makes it no less a
#: touch screen).
TABLETS: dict[str, dict[str, Any]] = {
    "ipad": {"viewport": {"width": 820, "height": 1180}, "device_scale_factor": 2},
    "ipad-landscape": {"viewport": {"width": 1180, "height": 820}, "device_scale_factor": 2},
}


@contextlib.asynccontextmanager
async def phone(
    browser: Browser, name: str, script: str | None = None
) -> AsyncIterator[BrowserContext]:
    """A fresh phone or tablet (no cookies): ``PHONES[name]`` or ``TABLETS[name]``, mobile,
    with a touch screen; ``script`` runs in each of its pages before theirs."""
    device = PHONES[name] if name in PHONES else TABLETS[name]
    context = await browser.new_context(**device, is_mobile=True, has_touch=True)
    if script is not None:
        await context.add_init_script(script)
    try:
        yield context
    finally:
        await context.close()


#: Whether xterm's text area, the one that raises a phone's keyboard, has the focus.
TEXT_AREA_FOCUSED = (
    "() => document.activeElement === document.querySelector('.xterm-helper-textarea')"
)


async def keyboard_is_down(page: TermPage, after: str) -> None:
    """The text area does not have the focus: no keyboard over the game."""
    assert not await page.page.evaluate(TEXT_AREA_FOCUSED), f"the keyboard came up {after}"


async def keyboard_is_up(page: TermPage, after: str) -> None:
    """The text area gets the focus (the page waits for the app's word that a text field
    has it): the phone's keyboard comes up."""
    try:
        await page.page.wait_for_function(TEXT_AREA_FOCUSED, timeout=TIMEOUT * 1000)
    except PlaywrightError as error:
        raise AssertionError(f"the keyboard did not come up {after}") from error


async def tap_footer(page: TermPage, words: str) -> None:
    """Tap the middle of ``words`` on the footer's line (the screen's last)."""
    await page.wait_until(lambda: words in page.lines[-1], f"{words!r} in the footer")
    footer = len(page.lines) - 1
    column = page.lines[footer].index(words)
    await page.tap_cell(column + len(words) // 2, footer)


async def tap_words(page: TermPage, words: str) -> None:
    """Tap the middle of ``words`` where the screen shows them above the footer (a
    button's label, a form's field)."""
    await page.wait_until(
        lambda: any(words in line for line in page.lines[:-1]), f"{words!r} on the screen"
    )
    column, row = page.find(words)
    await page.tap_cell(column + len(words) // 2, row)


async def name_myself(page: TermPage, name: str) -> None:
    """At the name prompt: a tap on its field, the name typed, a tap on OK."""
    await page.shows("Choose your name")
    await tap_words(page, "characters")  # the field's placeholder, "1 to 20 characters"
    await keyboard_is_up(page, "at a tap on the name field")
    await page.type(name)
    await page.shows(name)
    await tap_words(page, "OK")


def compact_face_down_card(page: TermPage, name: str) -> tuple[int, int]:
    """One of ``name``'s face-down cards ("░░") on a phone's board, under their seat's
    line (the name and its points: not a line of the log or the chat that has the name, as
    "bob: hello"; left of the log, the piles further left)."""
    lines = page.lines
    seat = re.compile(rf"{re.escape(name)}\s.*?-?\d+ (?:pts? ·|Σ)")
    seat_row, name_at = next(
        ((y, found.start()) for y, line in enumerate(lines) if (found := seat.search(line))),
        (None, 0),
    )
    if seat_row is None:
        raise AssertionError(f"no seat line of {name}'s:\n{page.text}")
    for y in range(seat_row + 1, len(lines)):
        board = lines[y].split("▏")[0]
        x = board.find("░░", max(0, name_at - 4))
        if x >= 0:
            return x, y
    raise AssertionError(f"no face-down card of {name}'s:\n{page.text}")


@contextlib.asynccontextmanager
async def a_private_table_with_a_bot(
    door: WebDoor, bot: str = "random", *, seats: int = 3, bots: int = 1
) -> AsyncIterator[tuple[ServerConnection, str]]:
    """A host (a program on the lobby) at a private table of ``seats`` with ``bots`` bots:
    the host's connection and the table's code; closed at the end."""
    host = await ServerConnection.open("127.0.0.1", door.server.port)
    try:
        await host.hello(name="host")
        reply = await host.request(
            {"type": "create_table", "name": "Friday", "seats": seats, "private": True}
        )
        for _ in range(bots):
            await host.request({"type": "add_bot", "level": bot})
        yield host, reply["table"]["code"]
    finally:
        await host.close()


async def tap_a_face_down_card(page: TermPage, name: str) -> None:
    """Tap one of ``name``'s face-down cards; wait until it is turned up (the log says so)."""
    turned = page.text.count("You turned up")
    await page.tap_cell(*compact_face_down_card(page, name))

    def turned_up() -> bool:
        return page.text.count("You turned up") > turned

    await page.wait_until(turned_up, "the card turned up")


async def swipe(page: TermPage, column: int, from_row: int, to_row: int) -> None:
    """A finger put on a cell, moved up or down to another row, and lifted (Chromium's own
    touch events: Playwright has taps only)."""
    session = await page.page.context.new_cdp_session(page.page)
    try:
        x, start = await page.middle_of(column, from_row)
        _, end = await page.middle_of(column, to_row)
        steps = 8
        await session.send(
            "Input.dispatchTouchEvent",
            {"type": "touchStart", "touchPoints": [{"x": x, "y": start}]},
        )
        for step in range(1, steps + 1):
            y = start + (end - start) * step / steps
            await session.send(
                "Input.dispatchTouchEvent",
                {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]},
            )
        await session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    finally:
        await session.detach()
