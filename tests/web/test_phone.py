"""The browser door on a phone: Debian's Chromium emulating a Pixel 7 and an iPhone 13 (their
viewports, pixel ratios, touch), held upright and turned, and played with taps only.

What a person sees: the page opens on the game with no font fiddling, drawn whole at the
phone's pixel ratio, its font buttons beside the game and big enough for a finger; the
on-screen keyboard's text area has the focus for the name and the chat, and never from a tap
on a card; a table's link opens that table.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser

from .browserkit import IN_BROWSER, TIMEOUT, TermPage
from .phonekit import (
    PHONES,
    a_private_table_with_a_bot,
    phone,
    swipe,
    tap_a_face_down_card,
    tap_footer,
)
from .webdoor import web_door

pytestmark = [*IN_BROWSER, pytest.mark.timeout(240)]

#: The app's smallest screen (skyjo_tui.layout.MENU_MIN_SIZE).
APP_MIN = (60, 18)
#: The usual size of a touch target, in CSS pixels.
FINGER = 44

TEXT_AREA_STATE = """() => {
    const area = document.querySelector('.xterm-helper-textarea');
    return {focused: document.activeElement === area, inputmode: area.getAttribute('inputmode'),
            readonly: area.readOnly};
}"""


#: A phone that can be put in a pocket (its tab hidden) and records its vibrations.
POCKET = """
window.inThePocket = false;
window.vibrations = [];
Object.defineProperty(Document.prototype, "hidden", { get: () => window.inThePocket });
navigator.vibrate = (pattern) => { window.vibrations.push(pattern); return true; };
"""

TYPING = (
    "document.activeElement === document.querySelector('.xterm-helper-textarea')"
    " && document.activeElement.getAttribute('inputmode') === 'text'"
)


async def until_in_page(page: TermPage, condition: str, what: str) -> None:
    """Until ``condition`` (JavaScript) holds in the page, checked at each of its frames.

    The page's own policy forbids eval: a function, not a string of code, is polled."""
    try:
        await page.page.wait_for_function(f"() => {condition}", timeout=TIMEOUT * 1000)
    except Exception as error:
        raise AssertionError(f"{what}: not seen ({await text_area(page)})") from error


async def text_area(page: TermPage) -> dict[str, Any]:
    state: dict[str, Any] = await page.page.evaluate(TEXT_AREA_STATE)
    return state


async def keyboard_is_down(page: TermPage) -> None:
    """The text area does not have the focus, and would raise no keyboard if it had."""
    state = await text_area(page)
    assert state == {"focused": False, "inputmode": "none", "readonly": True}, state


async def keyboard_is_up(page: TermPage) -> None:
    """The text area has the focus, to type with the on-screen keyboard (as the app said)."""
    await until_in_page(page, TYPING, "the text area focused to type")


@contextlib.asynccontextmanager
async def at_the_name_prompt(
    tmp_path: Path, browser: Browser, name: str, script: str | None = None
) -> AsyncIterator[TermPage]:
    """A server with its page, open on the phone ``name`` at the name prompt."""
    async with (
        web_door(tmp_path) as door,
        phone(browser, name, script) as context,
        TermPage.open(context, door.url) as page,
    ):
        await page.shows("Choose your name")
        yield page


@pytest.mark.parametrize("name", list(PHONES))
async def test_a_phone_opens_the_page_on_the_game_drawn_whole_with_its_buttons_beside_it(
    tmp_path: Path, browser: Browser, name: str
) -> None:
    async with at_the_name_prompt(tmp_path, browser, name) as page:
        assert "too small" not in page.text
        columns, rows = page.size
        assert columns >= APP_MIN[0] and rows >= APP_MIN[1], page.size
        await page.assert_drawn()
        # Drawn at the phone's pixel ratio, the whole terminal (not its top-left part).
        ratio = await page.page.evaluate(
            """() => {
                const canvas = [...document.querySelectorAll('.xterm-screen canvas')]
                    .find((c) => c.width > 0);
                return canvas.width / canvas.getBoundingClientRect().width;
            }"""
        )
        assert ratio == pytest.approx(PHONES[name]["device_scale_factor"], rel=0.02)
        terminal = await page.page.locator(".xterm-screen").bounding_box()
        assert terminal is not None
        for button in ("#door-font-smaller", "#door-font-larger"):
            box = await page.page.locator(button).bounding_box()
            assert box is not None and box["width"] >= FINGER and box["height"] >= FINGER, box
            opacity = await page.page.locator(button).evaluate(
                "(b) => Number(getComputedStyle(b.parentElement).opacity)"
                " * Number(getComputedStyle(b).opacity)"
            )
            assert opacity == 1, f"{button} is faint ({opacity}): no hover on a touch screen"
            apart = (
                box["x"] >= terminal["x"] + terminal["width"]
                or box["y"] + box["height"] <= terminal["y"]
            )
            assert apart, f"{button} {box} is over the game {terminal}"


async def test_a_tap_on_a_font_button_changes_the_text_in_place_and_keeps_the_game(
    tmp_path: Path, browser: Browser
) -> None:
    async with at_the_name_prompt(tmp_path, browser, "pixel-7-landscape") as page:
        before = page.size
        await page.page.tap("#door-font-smaller")
        await page.wait_until(lambda: page.size[0] > before[0], "more columns")
        assert len(page.connections) == 1, "the page reloaded"
        assert "Choose your name" in page.text


#: A Wake Lock that grants every request, and remembers them.
WAKE_LOCK = """
window.wakeLocks = [];
Object.defineProperty(navigator, "wakeLock", { value: { request: async (kind) => {
    window.wakeLocks.push(kind);
    return { release: async () => {}, addEventListener: () => {} };
} } });
"""


async def test_the_screen_is_kept_awake_while_the_game_is_open(
    tmp_path: Path, browser: Browser
) -> None:
    async with at_the_name_prompt(tmp_path, browser, "iphone-13", WAKE_LOCK) as page:
        await until_in_page(page, "window.wakeLocks.includes('screen')", "the screen kept on")


async def test_a_phone_turned_gets_a_font_that_fits_it_again(
    tmp_path: Path, browser: Browser
) -> None:
    async with at_the_name_prompt(tmp_path, browser, "pixel-7") as page:
        await page.page.set_viewport_size(PHONES["pixel-7-landscape"]["viewport"])
        await page.wait_until(lambda: page.size[1] < 30, "the terminal turned")
        columns, rows = page.size
        assert columns >= APP_MIN[0] and rows >= APP_MIN[1], page.size
        await page.shows("Choose your name")
        assert "too small" not in page.text


async def test_taps_only_from_a_tables_link_the_keyboard_comes_up_to_type_only(
    tmp_path: Path, browser: Browser
) -> None:
    """A friend opens the table's link on a phone: the keyboard comes up for their name, they
    are seated at that table; it goes down in the room, up for the chat, and a game's card
    taps never bring it back."""
    async with (
        web_door(tmp_path) as door,
        a_private_table_with_a_bot(door) as (host, code),
        phone(browser, "pixel-7", POCKET) as context,
        TermPage.open(context, f"{door.url}t/{code}") as page,
    ):
        await page.shows("Choose your name")
        await keyboard_is_up(page)
        await page.type("bob")
        await page.press("Enter")
        await page.shows(f"code {code}")  # the room of the link's table
        await page.wait_until(lambda: "bob" in page.text, "bob seated")
        await page.shows(f"{door.url}t/{code}")  # the link to pass on, as this page has it
        await until_in_page(page, f"!({TYPING})", "the text area put away")
        await keyboard_is_down(page)
        assert page.page.url == door.url  # a reload comes back to bob's seat, not the link's
        first = page.connection
        await page.page.reload(timeout=TIMEOUT * 1000)
        await page.wait_until(lambda: page.connection is not first, "a new connection")
        await page.shows(f"code {code}")
        await keyboard_is_down(page)

        await tap_footer(page, "Chat")
        await keyboard_is_up(page)
        await page.type("hello")
        await page.press("Enter")
        await page.shows("bob: hello")  # sent, and heard back from the table
        await tap_footer(page, "Close chat")  # the keyboard goes down
        await until_in_page(page, f"!({TYPING})", "the text area put away")
        await keyboard_is_down(page)

        await tap_footer(page, "Ready")
        await page.shows("You are ready")
        await host.request({"type": "start_game"})
        await page.shows("Turn up a card")
        await keyboard_is_down_after_taps_on_cards(page)

        # The phone goes in a pocket; the host leaves (a bot plays on) and bob's turn comes:
        # the tab's title says so, and the phone vibrates.
        await page.page.evaluate("window.inThePocket = true")
        await host.request({"type": "leave_table"})
        await page.shows("Your turn")
        assert await page.page.title() == "Your turn · Skyjo"
        await until_in_page(page, "window.vibrations.length > 0", "a vibration")


async def keyboard_is_down_after_taps_on_cards(page: TermPage) -> None:
    """Tap two of bob's face-down cards (turning them up); no tap raises the keyboard."""
    await until_in_page(page, f"!({TYPING})", "the text area put away")
    for _ in range(2):
        await tap_a_face_down_card(page, "bob")
        await keyboard_is_down(page)


async def test_a_swipe_scrolls_a_form_taller_than_a_phone_turned_sideways(
    tmp_path: Path, browser: Browser
) -> None:
    """The New table form is taller than 18 rows: it opens on its buttons (Create has the
    focus: a touch screen needs no typing for the defaults), and a swipe down brings its
    title back into view."""
    async with at_the_name_prompt(tmp_path, browser, "pixel-7-landscape") as page:
        await page.type("bob")
        await page.press("Enter")
        await page.shows("Lobby")
        await tap_footer(page, "New table")
        await page.shows("Starting player")
        columns, rows = page.size

        def buttons_seen() -> bool:
            return any("Create" in line for line in page.lines[:-1])  # not the footer's

        def title_seen() -> bool:  # the dialog's, not the lobby's words behind it
            return any(line.strip(" │").startswith("New table") for line in page.lines[:-1])

        await page.wait_until(buttons_seen, "the form's buttons in view")
        assert not title_seen(), page.text
        await swipe(page, columns // 2, 2, rows - 3)
        await page.wait_until(title_seen, "the form's title scrolled into view")
