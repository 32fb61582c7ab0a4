"""Journey: each form's button that backs out of it and the footer's Escape say the same
word ("Cancel" on a dialog's button read as another way out than "esc Back")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.binding import Binding
from textual.pilot import Pilot
from textual.screen import Screen

from server.app import SkyjoServer
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.i18n import LANGUAGES
from skyjo_tui.screens.create_table import CreateTableScreen
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.join import JoinScreen
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.name import PromptScreen
from skyjo_tui.screens.settings import SettingsScreen
from skyjo_tui.screens.setup import SetupScreen
from skyjo_tui.widgets.text import Button

from .seen import drawn_words, footer, on_screen


async def says_one_word_to_back_out(
    pilot: Pilot[Any], key: str, form: type[Screen[Any]], button: str, back_to: type[Screen[Any]]
) -> None:
    """``key`` opens ``form``: its ``button`` reads as the footer's Escape; Escape leaves it."""
    await pilot.press(key)
    screen = await on_screen(pilot, form)
    esc = pilot.app.get_key_display(Binding("escape", ""))  # "esc", "échap": as the footer names it
    escape = dict((await footer(pilot)).shown)[esc]
    words = drawn_words(pilot.app, screen.query_one(f"#{button}", Button))
    assert words == escape, f"{form.__name__}: the button says {words!r}, the footer {escape!r}"
    await pilot.press("escape")
    await on_screen(pilot, back_to)


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_home_screens_forms(make_app: Callable[..., SkyjoApp], lang: str) -> None:
    app = make_app(lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, HomeScreen)
        for key, form in (("n", SetupScreen), ("o", SettingsScreen), ("j", JoinScreen)):
            await says_one_word_to_back_out(pilot, key, form, "back", HomeScreen)


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_lobbys_dialogs(
    make_app: Callable[..., SkyjoApp], make_server: Callable[..., Any], lang: str
) -> None:
    server: SkyjoServer = await make_server()
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice", lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, LobbyScreen)
        await says_one_word_to_back_out(pilot, "n", CreateTableScreen, "cancel", LobbyScreen)
        await says_one_word_to_back_out(pilot, "k", PromptScreen, "cancel", LobbyScreen)
