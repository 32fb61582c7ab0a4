"""Journey: Tab through each form of the home screen's way (a new game, Settings, joining a
server): every press lands on a field or a button, which shows it has the keyboard. The
scrolling form around them is no stop of its own, where a press seemed to do nothing."""

from __future__ import annotations

from collections.abc import Callable

from textual.widgets import Button, Input, Select

from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.join import JoinScreen
from skyjo_tui.screens.settings import SettingsScreen
from skyjo_tui.screens.setup import SetupScreen

from .seen import on_screen

FIELDS = (Input, Select, Button)


async def test_every_tab_stop_of_a_form_is_a_field_or_a_button(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, HomeScreen)
        for key, screen in (("n", SetupScreen), ("o", SettingsScreen), ("j", JoinScreen)):
            await pilot.press(key)
            await on_screen(pilot, screen)
            stops = []
            for _ in range(16):  # more than any form's fields: round it, and back to the first
                await pilot.press("tab")
                stops.append(app.focused)
            others = [widget for widget in stops if not isinstance(widget, FIELDS)]
            assert not others, f"{screen.__name__}: Tab stops on {others}"
            await pilot.press("escape")
            await on_screen(pilot, HomeScreen)
