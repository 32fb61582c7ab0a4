"""Journey: Tab through each form (a new game, Settings, joining a server, a server's new
table): every press lands on a field or a button, which shows it has the keyboard: its row
is the one marked "▶", and it changes colour clearly. The scrolling form around them is no
stop of its own, where a press seemed to do nothing."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.color import Color
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Button, Input, Select

from server.app import SkyjoServer
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.confirm import ConfirmScreen
from skyjo_tui.screens.create_table import CreateTableScreen
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.join import JoinScreen
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.settings import SettingsScreen
from skyjo_tui.screens.setup import SetupScreen
from skyjo_tui.screens.unsaved import UnsavedChangesScreen
from skyjo_tui.widgets.form import Form

from ..contrast import background_at, contrast
from .seen import a_local_game, focused, on_screen, screen_lines, screen_name, until

FIELDS = (Input, Select, Button)
MARK = "▶"
#: WCAG 2.2's "focus appearance": the focused look against the unfocused one, 3:1 at least.
FOCUS_CONTRAST = 3.0


async def test_every_tab_stop_of_a_form_is_a_field_or_a_button_and_marked(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, HomeScreen)
        for key, screen in (("n", SetupScreen), ("o", SettingsScreen), ("j", JoinScreen)):
            await pilot.press(key)
            await on_screen(pilot, screen)
            await tab_around_the_form(pilot)
            await pilot.press("escape")
            await on_screen(pilot, HomeScreen)


async def test_every_tab_stop_of_the_new_table_dialog_is_marked(
    make_app: Callable[..., SkyjoApp], server: SkyjoServer
) -> None:
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, LobbyScreen)
        await pilot.press("n")
        await on_screen(pilot, CreateTableScreen)
        name = app.screen.query_one("#table-name").region.y  # where typing goes at first
        await until(pilot, marks_only(app, name), "the name marked")
        await tab_around_the_form(pilot)


async def tab_around_the_form(pilot: Pilot[Any]) -> None:
    """Tab round the form and back by Shift+Tab. At every stop one row is marked "▶", the
    focused field's or button's, and its colour stands out from how it looks unfocused: a
    grey one step lighter was all there was, and people pressed Enter on Start unknowing."""
    app, where = pilot.app, screen_name(pilot.app)
    looks: dict[Widget, dict[bool, Color]] = defaultdict(dict)
    for key in ("tab",) * 12 + ("shift+tab",) * 12:  # more stops than a form has, both ways
        await pilot.press(key)
        widget = app.focused
        assert isinstance(widget, FIELDS), f"{where}: Tab stops on {widget}"
        await until(
            pilot,
            marks_only(app, widget.region.y),
            f"{where}: {focused(app)} marked",
        )
        for field in fields_shown(app):
            looks[field][field is widget] = background_at(app, field.region.x, field.region.y)
    assert all(len(seen) == 2 for seen in looks.values()), f"{where}: a field Tab misses"
    faint = {
        f"{field.id}": round(contrast(seen[True], seen[False]), 2)
        for field, seen in looks.items()
        if contrast(seen[True], seen[False]) < FOCUS_CONTRAST
    }
    assert not faint, f"{where}: focused looks like unfocused: {faint}"


def marked_rows(app: App[Any]) -> list[int]:
    return [row for row, line in enumerate(screen_lines(app)) if MARK in line]


def marks_only(app: App[Any], row: int) -> Callable[[], bool]:
    """Whether ``row`` is the one row of the screen marked "▶"."""
    return lambda: marked_rows(app) == [row]


def fields_shown(app: App[Any]) -> list[Widget]:
    return [
        field for field in app.screen.query_one(Form).query("Select, Input, Button") if field.region
    ]


async def test_a_dialogs_focused_button_is_marked_too(make_app: Callable[..., SkyjoApp]) -> None:
    """Leaving a table asks first, leaving Settings with changes too: the button Enter would
    press is the one marked "▶" and filled, as in the forms (a primary button filled blue,
    or a dangerous one red, looked focused when it was not)."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await a_local_game(pilot)
        await pilot.press("q")
        await on_screen(pilot, ConfirmScreen)
        await tab_around_the_buttons(pilot, ("no", "yes"))
        await pilot.press("escape")
        assert await on_screen(pilot, type(table)) is table

        await pilot.press("o")
        settings = await on_screen(pilot, SettingsScreen)
        settings.query_one("#pace", Select).value = "slow"
        await pilot.press("escape")
        await on_screen(pilot, UnsavedChangesScreen)
        await tab_around_the_buttons(pilot, ("save", "discard", "keep-editing"))


def focus_on(app: App[Any], widget_id: str) -> Callable[[], bool]:
    return lambda: app.focused is not None and app.focused.id == widget_id


async def tab_around_the_buttons(pilot: Pilot[Any], ids: tuple[str, ...]) -> None:
    """From the dialog's first focused button, Tab goes through ``ids`` in turn: each is the
    one marked, and looks unlike itself unfocused."""
    app = pilot.app
    looks: dict[str, dict[bool, Color]] = defaultdict(dict)
    for step in range(len(ids) + 1):
        want = ids[step % len(ids)]
        await until(pilot, focus_on(app, want), want)
        focused_button = app.focused
        assert focused_button is not None
        await until(pilot, marks_only(app, focused_button.region.y), f"{want} marked")
        for button in app.screen.query(Button):
            looks[str(button.id)][button is focused_button] = background_at(
                app, button.region.x, button.region.y
            )
        await pilot.press("tab")
    faint = {
        name: round(contrast(seen[True], seen[False]), 2)
        for name, seen in looks.items()
        if contrast(seen[True], seen[False]) < FOCUS_CONTRAST
    }
    assert not faint and set(looks) == set(ids), (faint, looks)
