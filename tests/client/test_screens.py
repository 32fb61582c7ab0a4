"""Screens a player reaches from home: settings (French), help, and colour choices."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.widgets import Markdown, Select

from skyjo_tui import preferences
from skyjo_tui.app import SkyjoApp
from skyjo_tui.preferences import Preferences
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.screens.help import HelpScreen
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.settings import SettingsScreen

from .players import wait_for
from .scenes import game_pushes, table_map


def menu_text(app: SkyjoApp) -> str:
    menu = app.screen.query_one("#menu")
    return " ".join(str(menu.get_option_at_index(i).prompt) for i in range(menu.option_count))


async def test_settings_switch_to_french_and_are_kept(make_app: Callable[..., SkyjoApp]) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen))
        app.screen.query_one("#language", Select).value = "fr"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen) and "Jouer contre des robots" in menu_text(app))
    again = make_app(lang=None)  # no --lang: the saved choice wins over the locale
    async with again.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(again.screen, HomeScreen))
        assert "Jouer contre des robots" in menu_text(again)


async def test_locale_picks_french(make_app: Callable[..., SkyjoApp]) -> None:
    app = make_app(lang=None, environ={"LANG": "fr_FR.UTF-8"})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        assert "Rejoindre un serveur" in menu_text(app)


async def test_help_has_the_rules_and_every_table_key(make_app: Callable[..., SkyjoApp]) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = app.screen.query_one(Markdown).source
        assert "doubled" in text and "dark blue" in text
        for description in ("Draw", "Take", "Discard", "Choose", "Cursor left"):
            assert f"| {description} |" in text
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)


async def deck_colours_drawn(app: SkyjoApp) -> set[str]:
    """Which of the deck's colours (on the home screen's title cards) are on screen."""
    deck = {"#1f3f99", "#74c7ec", "#3fa34d", "#f2c94c", "#d0343a"}
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        await pilot.pause()
        svg = app.export_screenshot().lower()
    return {colour for colour in deck if colour in svg}


async def test_no_color_from_the_players_environment(make_app: Callable[..., SkyjoApp]) -> None:
    assert len(await deck_colours_drawn(make_app())) == 5
    plain = make_app(environ={"NO_COLOR": "1"})
    assert await deck_colours_drawn(plain) == set() and plain.no_color


async def test_keys_remapped_in_the_settings_file_are_used_and_shown(
    make_app: Callable[..., SkyjoApp], tmp_path: Path
) -> None:
    preferences.save(tmp_path / "client", Preferences(keys={"table.draw": "p"}))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = TableScreen(table_map(2))
        await app.push_screen(screen)
        for push in game_pushes(2, 5, lambda game, moves: game.current_player == 0 and game.round.phase.value == "choose"):
            screen.feed_game(push)
        await wait_for(pilot, lambda: screen.choices.draw)
        assert "p draws a card" in str(screen.query_one("#prompt").render())
        await pilot.press("p")  # no server here: the draw is refused plainly
        await wait_for(pilot, lambda: any("not connected" in n.message for n in app._notifications))
