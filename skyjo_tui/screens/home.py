"""The first screen of ``skyjo``: a local game is two key presses away (Enter, Enter)."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Vertical
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ..widgets.footer import KeyFooter
from ..widgets.logo import Logo
from ..widgets.text import Label
from .base import SkyjoScreen

#: Menu entries: option id -> the screen action it runs.
MENU = ("local", "join", "stats", "settings", "help", "quit")


class HomeScreen(SkyjoScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "open('local')", "keys.new_game", id="home.local"),
        Binding("j", "open('join')", "keys.join", id="home.join"),
        Binding("s", "open('stats')", "keys.stats", id="home.stats"),
        Binding("o", "open('settings')", "keys.settings", id="home.settings"),
        Binding("question_mark", "open('help')", "keys.help", id="home.help"),
        Binding("q", "open('quit')", "keys.quit", id="home.quit"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="home"):
            with Center():
                yield Logo()
            yield Label(self.tr("home.tagline"), id="tagline")
            with Center():
                yield OptionList(
                    *(Option(self.tr(f"home.{item}"), id=item) for item in MENU), id="menu"
                )
        yield KeyFooter(show_command_palette=True)  # the one footer with room for Ctrl+P

    def on_mount(self) -> None:
        self.query_one("#menu", OptionList).highlighted = 0

    @on(OptionList.OptionSelected, "#menu")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.action_open(str(event.option.id))

    def action_open(self, item: str) -> None:
        nav = self.skyjo.nav
        if item == "local":
            nav.setup()
        elif item == "join":
            nav.join()
        elif item == "stats":
            nav.stats()
        elif item == "settings":
            nav.settings()
        elif item == "help":
            nav.help()
        elif item == "quit":
            self.app.exit()
