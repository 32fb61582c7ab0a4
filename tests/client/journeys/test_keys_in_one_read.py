"""Journey: keys that Textual's own driver reads at once do what the same keys typed one
by one do (Textual issue #6605), in the local client as in the hosted one.

Textual's terminal driver parses each read in its input thread and posts every key to
the app straight away; the app then applied them out of order ("helo⌫lo" became
"helol"), and an Esc read with the letter after it was Alt+letter.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from textual import constants
from textual._xterm_parser import XTermParser
from textual.pilot import Pilot
from textual.widgets import Input

from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.settings import SettingsScreen
from skyjo_tui.screens.setup import SetupScreen

from .seen import focused, on_screen, until

TICKS = 4


async def read_at_once(app: SkyjoApp, data: str) -> None:
    """``data`` as one read of the terminal: parsed and posted from another thread, as
    Textual's ``LinuxDriver`` does (the app's driver here is Pilot's headless one)."""
    driver = app._driver  # noqa: SLF001 - the driver the app runs with
    assert driver is not None

    def input_thread() -> None:
        parser = XTermParser()
        for event in parser.feed(data):
            driver.process_message(event)
        # Then the driver's ticks: an Esc and what follows it are told apart only once the
        # escape delay has passed (the driver ticks after every wait for input).
        for _ in range(TICKS):
            time.sleep(constants.ESCAPE_DELAY / 2)
            for event in parser.tick():
                driver.process_message(event)

    await asyncio.to_thread(input_thread)


async def settings_name_box(pilot: Pilot[Any]) -> Input:
    """From Home: Settings, and its name box, which holds the keyboard."""
    await pilot.press("o")
    settings = await on_screen(pilot, SettingsScreen)
    assert focused(pilot.app) == "Input#name"
    return settings.query_one("#name", Input)


async def test_letters_and_a_backspace_read_at_once_edit_in_the_order_typed(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        name_box = await settings_name_box(pilot)
        await pilot.press("ctrl+a", "ctrl+k")
        await until(pilot, lambda: name_box.value == "", "the name box empty")

        await read_at_once(app, "helo\x7flo")
        await until(pilot, lambda: len(name_box.value) >= 5, "five letters in the name box")
        assert name_box.value == "hello"


async def test_esc_then_a_letter_read_at_once_are_the_two_keys(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        name_box = await settings_name_box(pilot)
        name = name_box.value

        await read_at_once(app, "\x1bn")  # Esc (back Home, nothing changed), then n (New game)
        await until(
            pilot,
            lambda: isinstance(app.screen, SetupScreen) or name_box.value != name,
            "the Esc and the n handled",
        )
        assert name_box.value == name, "the n was typed into the name box"
        # The set-up drawn whole, its footer too (leaving while it mounts would cut that short).
        await on_screen(pilot, SetupScreen)
