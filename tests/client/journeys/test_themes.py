"""Journeys in each theme: every text readable (measured on what Textual drew), the cards in
the deck's colours, and the keyboard whole after a theme is chosen in Settings.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest
from textual.command import CommandPalette
from textual.pilot import Pilot
from textual.widgets import Select

from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.help import HelpScreen
from skyjo_tui.screens.join import JoinScreen
from skyjo_tui.screens.keys import KeysScreen
from skyjo_tui.screens.settings import SettingsScreen
from skyjo_tui.screens.setup import SetupScreen
from skyjo_tui.screens.stats import StatsScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.theme import THEMES
from skyjo_tui.widgets.card_art import value_colours

from ..contrast import drawn_cells, unreadable
from .seen import focused, footer, on_screen, prompt_line, screen_text, until
from .test_palette import back_home


def with_theme(tmp_path: Path, theme: str) -> None:
    data = tmp_path / "client"
    data.mkdir(parents=True, exist_ok=True)
    (data / "client.json").write_text(json.dumps({"theme": theme}), "utf-8")


async def readable(pilot: Pilot[Any], where: str, rows: range | None = None) -> None:
    await pilot.pause(0.05)  # let the last frame settle (no condition to wait for: it is drawn)
    bad = unreadable(pilot.app, rows)
    assert not bad, f"{pilot.app.theme}, {where}: hard to read: {bad[:5]}"


@pytest.mark.parametrize("theme", THEMES)
async def test_every_text_is_readable(
    theme: str, make_app: Callable[..., SkyjoApp], tmp_path: Path
) -> None:
    with_theme(tmp_path, theme)
    app = make_app(environ={"USER": "zoé"})
    async with app.run_test(size=(80, 24)) as pilot:
        await back_home(pilot)
        assert app.theme == theme  # from client.json
        await readable(pilot, "home")
        await pilot.press("ctrl+p")
        await until(
            pilot,
            lambda: CommandPalette.is_open(cast(Any, app)) and "Settings" in screen_text(app),
            "the palette",
        )
        palette = app.screen.query_one(
            "#--container"
        ).region  # what lies under it is faded, on purpose
        await readable(pilot, "the palette", range(palette.y, palette.bottom))
        await pilot.press("escape")
        await pilot.press("o")
        await on_screen(pilot, SettingsScreen)
        await readable(pilot, "settings")  # the name focused: a field in the theme's accent
        await pilot.press("tab")
        await readable(pilot, "settings, a list focused")
        await pilot.press("shift+tab", "shift+tab")  # round to the last button
        await readable(pilot, "settings, a button focused")
        await pilot.press("ctrl+b")
        await on_screen(pilot, KeysScreen)
        await readable(pilot, "keys")
        await pilot.press("escape", "escape")
        await back_home(pilot)
        await pilot.press("n")
        await on_screen(pilot, SetupScreen)
        await readable(pilot, "new game")  # Start focused, in the accent
        await pilot.press("enter")
        await on_screen(pilot, TableScreen)
        await until(pilot, lambda: "Turn up" in prompt_line(app), "the first prompt")
        await pilot.press("enter")
        await until(pilot, lambda: "You turned up" in screen_text(app), "the move in the log")
        await pilot.press("c", *"hello", "enter")  # a chat line: a name in its own colour
        await until(pilot, lambda: "Zoé: hello" in screen_text(app), "the chat line")
        await readable(pilot, "the table")
        # The cards keep the deck's colours, whatever the theme.
        card_grounds = {cell.background for cell in drawn_cells(cast(Any, app))}
        assert {value_colours(v)[0].upper() for v in (-2, 0, 1, 5, 9)} & card_grounds, card_grounds


async def test_theme_in_settings_then_every_home_key_works(
    make_app: Callable[..., SkyjoApp], tmp_path: Path
) -> None:
    """An earlier defect: Settings, then Home, and no key worked."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await back_home(pilot)
        await pilot.press("o")
        settings = await on_screen(pilot, SettingsScreen)
        await pilot.press(*["tab"] * 4)  # name, language, pace, highlight: the theme's choice
        assert focused(app) == "Select#theme"
        await pilot.press("enter")
        await until(
            pilot, lambda: settings.query_one("#theme", Select).expanded, "the themes listed"
        )
        await pilot.press("down", "enter")
        await until(
            pilot,
            lambda: settings.query_one("#theme", Select).value == THEMES[1],
            "the light theme chosen",
        )
        assert app.theme == THEMES[0]  # chosen, not saved yet
        await pilot.press("ctrl+s")
        await back_home(pilot)
        assert app.theme == "skyjo-light"
        for key, screen in (
            ("n", SetupScreen),
            ("j", JoinScreen),
            ("s", StatsScreen),
            ("o", SettingsScreen),
            ("question_mark", HelpScreen),
        ):
            await pilot.press(key)
            await on_screen(pilot, screen)
            assert (await footer(pilot)).shown
            if (
                screen is StatsScreen
            ):  # read once shown (see the report: closing it sooner can fail)
                await until(pilot, lambda: "Loading" not in screen_text(app), "the statistics")
            await pilot.press("escape")
            await back_home(pilot)
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running, "the app quit")
    assert (
        json.loads((tmp_path / "client" / "client.json").read_text("utf-8"))["theme"]
        == "skyjo-light"
    )


async def test_an_unknown_theme_in_client_json_gives_the_default(
    make_app: Callable[..., SkyjoApp], tmp_path: Path
) -> None:
    with_theme(tmp_path, "no-such-theme")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await back_home(pilot)
        assert app.theme == THEMES[0]
