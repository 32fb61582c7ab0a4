"""Journey: Settings changed, then Esc: the question, and each answer does what it says.

Before, Esc went straight back to Home and the changes were gone without a word.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input

from skyjo_tui import preferences
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.settings import SettingsScreen
from skyjo_tui.screens.unsaved import UnsavedChangesScreen

from .seen import focused, footer, notes, on_screen, screen_text, until

HOME_KEYS = ("New game", "Join server", "Stats", "Settings", "Help", "Quit")
QUESTION = "Save your changes to the settings?"


async def back_home(pilot: Pilot[Any]) -> None:
    """Home, with every one of its keys shown and the menu holding the keyboard."""
    await on_screen(pilot, HomeScreen)
    keys = await footer(pilot)
    assert all(keys.has(key) for key in HOME_KEYS), keys
    assert focused(pilot.app) == "OptionList#menu"


async def settings_with_a_new_name(pilot: Pilot[Any], name: str) -> SettingsScreen:
    """From Home: Settings, the name box emptied (Ctrl+A, Ctrl+K) and ``name`` typed."""
    await pilot.press("o")
    settings = await on_screen(pilot, SettingsScreen)
    assert focused(pilot.app) == "Input#name"
    await pilot.press("ctrl+a", "ctrl+k", *name)
    return settings


async def asked(pilot: Pilot[Any]) -> None:
    """The question is on screen, with its three answers in the footer."""
    await on_screen(pilot, UnsavedChangesScreen)
    assert QUESTION in screen_text(pilot.app)
    keys = await footer(pilot)
    assert keys.has("Save") and keys.has("Discard") and keys.has("Keep editing"), keys
    assert focused(pilot.app) == "FormButton#save"


def name_box(settings: SettingsScreen) -> str:
    return settings.query_one("#name", Input).value


async def walk_settings_esc_asks(pilot: Pilot[Any], data_dir: Any) -> None:
    app = pilot.app
    assert isinstance(app, SkyjoApp)
    await back_home(pilot)

    # No change: Esc just goes back.
    await pilot.press("o")
    await on_screen(pilot, SettingsScreen)
    await pilot.press("escape")
    await back_home(pilot)

    # A change, Esc: asked. Keep editing (Esc again) leaves the form as it was.
    settings = await settings_with_a_new_name(pilot, "Zoé")
    await pilot.press("escape")
    await asked(pilot)
    await pilot.press("escape")
    await on_screen(pilot, SettingsScreen)
    assert name_box(settings) == "Zoé"
    assert focused(app) == "Input#name"  # the keyboard where it was: typing goes on
    await pilot.press("!")
    assert name_box(settings) == "Zoé!"

    # Discard: Home, and nothing was saved.
    await pilot.press("escape")
    await asked(pilot)
    await pilot.press("d")
    await back_home(pilot)
    assert app.prefs.name == "" and preferences.load(data_dir).name == ""
    assert "Settings saved." not in notes(app)
    await pilot.press("o")
    settings = await on_screen(pilot, SettingsScreen)
    assert name_box(settings) == ""
    await pilot.press("escape")
    await back_home(pilot)

    # Save: Home, said and kept.
    await settings_with_a_new_name(pilot, "Zoé")
    await pilot.press("escape")
    await asked(pilot)
    await pilot.press("s")
    await back_home(pilot)
    await until(pilot, lambda: "Settings saved." in notes(app), "the word that Settings are saved")
    assert app.prefs.name == "Zoé" and preferences.load(data_dir).name == "Zoé"

    # The Back button asks the same, and Enter on the focused answer (Save) saves.
    await settings_with_a_new_name(pilot, "Ana")
    for _ in range(12):  # Tab through the form to the Back button
        if focused(app) == "FormButton#back":
            break
        await pilot.press("tab")
    assert focused(app) == "FormButton#back"
    await pilot.press("enter")
    await asked(pilot)
    await pilot.press("enter")
    await back_home(pilot)
    assert preferences.load(data_dir).name == "Ana"


async def test_settings_esc_asks_before_dropping_changes(
    make_app: Callable[..., SkyjoApp], tmp_path: Any
) -> None:
    data_dir = tmp_path / "client"
    app = make_app(environ={}, data_dir=data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await walk_settings_esc_asks(pilot, data_dir)
