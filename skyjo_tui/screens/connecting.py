"""While logging in to a server; on failure, the reason and a way back."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Horizontal, Middle
from textual.widgets import Button, LoadingIndicator, Static

from .base import SkyjoScreen


class ConnectingScreen(SkyjoScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "keys.back", id="connecting.back"),
    ]

    def __init__(self, label: str) -> None:
        super().__init__()
        self.label = label

    def compose(self) -> ComposeResult:
        with Middle():
            with Center():
                yield Static(self._connecting_text(), id="connecting-text")
            yield LoadingIndicator(id="connecting-spinner")
            with Center():
                with Horizontal(classes="buttons", id="connecting-buttons"):
                    yield Button(self.tr("connect.back"), id="back", compact=True)

    def _connecting_text(self) -> str:
        if self.label:
            return self.tr("connect.connecting_to", where=self.label)
        return self.tr("connect.connecting")

    def failed(self, reason: str) -> None:
        self.query_one("#connecting-spinner").display = False
        self.query_one("#connecting-text", Static).update(self.tr("connect.failed", reason=reason))
        self.query_one("#back", Button).focus()

    @on(Button.Pressed, "#back")
    def action_back(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.app.exit()
