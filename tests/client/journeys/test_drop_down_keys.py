"""Journey: an open drop-down's footer speaks the player's language.

A French player opening a list (the language, in Settings; the bots' level in a room)
read "échap Dismiss menu" under it: Textual's own words for its list's key, shown as
they were. They are translated as every key of ours is.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.settings import SettingsScreen

from .seen import focused, footer, on_screen, until

#: What the footer says under an open list, by language.
CLOSE_THE_LIST = {"en": "Close the list", "fr": "Fermer la liste"}


@pytest.mark.parametrize("lang", ["fr", "en"])
async def test_an_open_drop_downs_key_is_said_in_the_players_language(
    make_app: Callable[..., SkyjoApp], lang: str
) -> None:
    app = make_app(lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, HomeScreen)
        await pilot.press("o")
        await on_screen(pilot, SettingsScreen)
        await pilot.press("tab")  # from the name to the language's list
        await until(pilot, lambda: focused(app) == "Select#language", "the language's list")
        await pilot.press("enter")  # opens it
        await until(pilot, lambda: focused(app) == "SelectOverlay", "the list open")
        keys = await footer(pilot)
        assert keys.has(CLOSE_THE_LIST[lang]), keys
        assert not keys.has("Dismiss menu"), keys
        await pilot.press("escape")  # closes the list, not Settings
        await until(pilot, lambda: focused(app) == "Select#language", "the list closed")
        assert isinstance(app.screen, SettingsScreen)
