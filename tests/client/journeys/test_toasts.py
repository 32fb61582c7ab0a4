"""Journey: a toast covers nothing the player needs, and nothing is left beside it.

Textual stands its toasts on the footer, at the right. At the table that is over the
prompt's right half: "Settings saved.", saved from the table, hid what to do now for as
long as it stood. And every toast left the screen's last columns uncovered (Textual keeps
a scroll bar's width free beside them). Now a toast at the table stands on the prompt,
and every toast goes to the last column.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.widgets._toast import Toast

from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.settings import SettingsScreen
from skyjo_tui.screens.table import TableScreen

from .seen import a_local_game, on_screen, prompt_line, prompt_shown, until

SAVED = "Settings saved."


def toasts(app: App[Any]) -> list[Toast]:
    """The toasts the player sees now (laid out on the current screen)."""
    return [toast for toast in app.screen.query(Toast) if toast.region]


async def saved_from_settings(pilot: Any) -> None:
    """``o``, then Ctrl+S: Settings saved as they were, the screen below them again."""
    below = pilot.app.screen
    await pilot.press("o")
    await on_screen(pilot, SettingsScreen)
    await pilot.press("ctrl+s")
    await until(pilot, lambda: pilot.app.screen is below and toasts(pilot.app), "the toast")


async def test_a_toast_reaches_the_last_column(make_app: Callable[..., SkyjoApp]) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await on_screen(pilot, HomeScreen)
        await saved_from_settings(pilot)
        [toast] = toasts(app)
        assert SAVED in str(toast.render())
        assert toast.region.right == app.size.width, toast.region


async def test_a_toast_at_the_table_leaves_the_prompt_whole(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        table: TableScreen = await a_local_game(pilot)
        prompt = prompt_line(app)
        assert prompt.startswith("Turn up")
        await saved_from_settings(pilot)
        [toast] = toasts(app)
        line = table.board.prompt_line
        assert not toast.region.overlaps(line.region), (toast.region, line.region)
        assert toast.region.bottom == line.region.y  # just above it
        assert toast.region.right == app.size.width
        assert prompt_shown(app) == prompt  # read whole while the toast stands
