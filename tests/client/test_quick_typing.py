"""Keys that arrive together (a quick typist, a paste of keys, an SSH link that batches
them) edit a text box in the order they were typed: a correction (Backspace, an arrow)
between letters lands where it was pressed, not after the letters that followed it."""

from __future__ import annotations

from collections.abc import Callable

from textual.widgets import Input

from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.settings import SettingsScreen
from skyjo_tui.widgets.line_log import LineLog

from .journeys.seen import a_local_game, focused, on_screen, until
from .players import burst


async def test_a_correction_typed_quickly_in_the_name_box_lands_where_it_was_typed(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, HomeScreen)
        await pilot.press("o")
        settings = await on_screen(pilot, SettingsScreen)
        name = settings.query_one("#name", Input)
        assert focused(app) == "Input#name"
        await pilot.press("ctrl+u")  # an empty box to begin with
        burst(app, *"Alix", "backspace", *"ce", "home", "delete", "E")
        await until(pilot, lambda: len(name.value) >= 5, "the name typed")
        await pilot.pause()
        assert name.value == "Elice"


async def test_a_chat_line_typed_quickly_is_sent_as_typed(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await a_local_game(pilot)
        await pilot.press("c")
        await until(pilot, lambda: focused(app) == "ChatInput#chat-input", "the chat line")
        burst(app, *"gx", "backspace", *"od", "left", "o", "end", *" luck", "enter")
        log = table.query_one("#log", LineLog)
        await until(pilot, lambda: any(": " in line for line in log.lines), "the line sent")
        said = [line for line in log.lines if ": " in line]
        assert said[-1].endswith(": good luck"), said
