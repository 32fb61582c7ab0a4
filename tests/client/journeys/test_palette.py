"""Journey: the command palette (Ctrl+P) offers the screen's own commands, and the themes.

What the person sees at each step: the palette's list, the screen a command
opens, the footer's keys and where the keyboard is once the palette is gone.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.command import CommandPalette
from textual.pilot import Pilot

from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.confirm import ConfirmScreen
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.settings import SettingsScreen
from skyjo_tui.screens.setup import SetupScreen
from skyjo_tui.screens.table import TableScreen

from .seen import focused, footer, on_screen, prompt_line, screen_text, until
from .test_settings_then_play import HOME_KEYS

HOME_COMMANDS = ("New game", "Join server", "Settings", "Stats", "Help")
THEME_COMMANDS = ("Theme: Skyjo (light)",)  # the first; the list scrolls to the others


async def open_palette(pilot: Pilot[Any], *shown: str) -> str:
    app = pilot.app
    await pilot.press("ctrl+p")
    await until(
        pilot,
        lambda: CommandPalette.is_open(app) and all(s in screen_text(app) for s in shown),
        f"the palette listing {shown}",
    )
    return screen_text(app)


async def back_home(pilot: Pilot[Any]) -> None:
    app = pilot.app
    await on_screen(pilot, HomeScreen)
    keys = await footer(pilot)
    assert all(keys.has(key) for key in HOME_KEYS), keys
    assert focused(app) == "OptionList#menu"


async def test_the_palette_offers_what_the_screen_can_do(
    make_app: Callable[..., SkyjoApp], tmp_path: Path
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, HomeScreen)
        assert (await footer(pilot)).has("Commands")  # the footer says where the palette is
        listed = await open_palette(pilot, *HOME_COMMANDS, *THEME_COMMANDS)
        assert "Key: o" in listed and "Leave" not in listed  # no table to leave from home
        assert "Theme: Skyjo (dark)" not in listed  # the theme in use is not offered again
        await pilot.press(*"settings", "enter")
        await on_screen(pilot, SettingsScreen)
        assert focused(app) == "Input#name"
        await pilot.press("escape")
        await back_home(pilot)

        # At the table: leaving is offered, a new game is not.
        await pilot.press("n")
        await on_screen(pilot, SetupScreen)
        await pilot.press("enter")
        await on_screen(pilot, TableScreen)
        await until(pilot, lambda: "Turn up" in prompt_line(app), "the first prompt")
        listed = await open_palette(pilot, "Leave", "Help")
        assert "New game" not in listed and "Join server" not in listed
        await pilot.press(*"leave", "enter")
        await on_screen(pilot, ConfirmScreen)
        await pilot.press("y")
        await back_home(pilot)

        # A theme from the palette: every screen in it at once, kept for the next launch.
        await open_palette(pilot, "Theme: Skyjo (light)")
        await pilot.press(*"skyjo light", "enter")
        await until(pilot, lambda: app.theme == "skyjo-light", "the light theme")
        await back_home(pilot)
    saved = json.loads((tmp_path / "client" / "client.json").read_text("utf-8"))
    assert saved["theme"] == "skyjo-light"
    again = make_app()
    async with again.run_test(size=(80, 24)) as pilot:
        await back_home(pilot)
        assert again.theme == "skyjo-light"


async def test_the_palette_speaks_the_players_language(make_app: Callable[..., SkyjoApp]) -> None:
    app = make_app(lang="fr")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, HomeScreen)
        listed = await open_palette(
            pilot, "Chercher une commande", "Réglages", "Thème : Skyjo (clair)"
        )
        assert "Touche : o" in listed
        await pilot.press("escape")
        await on_screen(pilot, HomeScreen)
        assert focused(app) == "OptionList#menu"
