"""Journey: a first local game, then Settings (a new name), then another game.

What the person sees at each step: the screen, the footer's keys, where the
keyboard is, the prompt line and the names the table and its log use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Select

from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.confirm import ConfirmScreen
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.settings import SettingsScreen
from skyjo_tui.screens.setup import SetupScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.line_log import LineLog

from .seen import (
    focused,
    footer,
    footer_keys,
    notes,
    on_screen,
    play_the_round,
    prompt_line,
    screen_text,
    until,
)

HOME_KEYS = ("New game", "Join server", "Stats", "Settings", "Help", "Quit")


def log_text(table: TableScreen) -> str:
    return "\n".join(table.query_one("#log", LineLog).lines)


async def walk_settings_then_play(pilot: Pilot[Any]) -> None:
    app = pilot.app
    assert isinstance(app, SkyjoApp)
    await on_screen(pilot, HomeScreen)
    keys = await footer(pilot)
    assert all(keys.has(key) for key in HOME_KEYS), keys
    assert focused(app) == "OptionList#menu"

    # A first game, left at once.
    await pilot.press("n")
    await on_screen(pilot, SetupScreen)
    assert focused(app) == "FormButton#start"
    await pilot.press("enter")
    await on_screen(pilot, TableScreen)
    await until(pilot, lambda: "Turn up" in prompt_line(app), "the first prompt")
    assert "Player" in screen_text(app)
    await pilot.press("q")
    await on_screen(pilot, ConfirmScreen)
    await pilot.press("y")
    await on_screen(pilot, HomeScreen)

    # Settings: the name box has the keyboard; a new name; saved.
    await pilot.press("o")
    await on_screen(pilot, SettingsScreen)
    assert focused(app) == "Input#name"
    # The name box is empty, and says the name the game just used: it is the one kept so.
    name_line = next(line for line in screen_text(app).splitlines() if "Your name" in line)
    assert name_line.split("Your name")[1].split() == ["Player"], name_line
    assert (await footer(pilot)).has("Save") and (await footer(pilot)).has("Back")
    await pilot.press(
        "ctrl+a", *"Zoé"
    )  # ctrl+a: the start of the line; the old name goes with ctrl+k
    await pilot.press("ctrl+k")
    await pilot.press("ctrl+s")
    await on_screen(pilot, HomeScreen)
    # The keyboard still works: every home key is shown, the menu has the focus.
    keys = await footer(pilot)
    assert all(keys.has(key) for key in HOME_KEYS), keys
    assert focused(app) == "OptionList#menu"
    await until(pilot, lambda: "Settings saved." in notes(app), "the word that Settings are saved")

    # The second game: you are Zoé at the table, and "You" in its log.
    await pilot.press("n")
    await on_screen(pilot, SetupScreen)
    await pilot.press("enter")
    table = await on_screen(pilot, TableScreen)
    await until(pilot, lambda: "Turn up" in prompt_line(app), "the first prompt")
    assert "Zoé" in screen_text(app) and "Player" not in screen_text(app)
    assert (await footer(pilot)).has("Choose") and (await footer(pilot)).has("Leave"), await footer(
        pilot
    )
    await play_the_round(pilot)
    log = log_text(table)  # your moves are told to you as yours: "You", never a name
    assert "You turned up" in log and "Zoé" not in log and "Player" not in log


async def test_settings_then_play(make_app: Callable[..., SkyjoApp]) -> None:
    app = make_app(environ={})  # no USER: the first game's seat is "Player"
    async with app.run_test(size=(80, 24)) as pilot:
        await walk_settings_then_play(pilot)


async def walk_settings_in_french_keep_the_keyboard(pilot: Pilot[Any]) -> None:
    app = pilot.app
    assert isinstance(app, SkyjoApp)
    await on_screen(pilot, HomeScreen)
    await pilot.press("o")
    settings = await on_screen(pilot, SettingsScreen)
    settings.query_one("#language", Select).value = "fr"
    await pilot.press("ctrl+s")
    await until(
        pilot,
        lambda: isinstance(app.screen, HomeScreen) and footer_keys(app).has("Réglages"),
        "the home screen's keys in French",
    )
    assert focused(app) == "OptionList#menu"
    assert "Réglages enregistrés." in notes(app), notes(app)  # said in the language chosen
    await pilot.press("n")
    await on_screen(pilot, SetupScreen)
    assert (await footer(pilot)).has("Retour"), await footer(pilot)


async def test_settings_in_french_keep_the_keyboard(make_app: Callable[..., SkyjoApp]) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await walk_settings_in_french_keep_the_keyboard(pilot)
