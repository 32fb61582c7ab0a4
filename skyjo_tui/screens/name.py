"""A one-line question: the player's name, a table's code, a round number..."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Input

from ..widgets.footer import KeyFooter
from ..widgets.text import Button, Label
from .base import SkyjoModal

NAME_MAX = 20


class PromptScreen(SkyjoModal[str | None]):
    """Dismisses with the text typed (stripped, not empty), or None when the player backs out."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "keys.cancel", id="prompt.cancel"),
    ]

    def __init__(
        self,
        title: str,
        value: str = "",
        reason: str = "",
        *,
        max_length: int = NAME_MAX,
        placeholder: str = "",
    ) -> None:
        super().__init__()
        self._title, self._value, self._reason = title, value, reason
        self._max_length, self._placeholder = max_length, placeholder

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self._title, classes="title")
            if self._reason:
                yield Label(self._reason, classes="error")
            yield Input(
                self._value, max_length=self._max_length, placeholder=self._placeholder, id="answer"
            )
            with Horizontal(classes="buttons"):
                yield Button(self.tr("prompt.ok"), variant="primary", id="ok", compact=True)
                yield Button(self.tr("prompt.cancel"), id="cancel", compact=True)
        yield KeyFooter()  # this dialog's keys, not the screen's below

    @on(Input.Submitted, "#answer")
    @on(Button.Pressed, "#ok")
    def _submit(self) -> None:
        text = self.query_one("#answer", Input).value.strip()
        if text:
            self.dismiss(text)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


class NameScreen(PromptScreen):
    def __init__(self, name: str, reason: str = "") -> None:
        super().__init__("", name, reason, placeholder="")

    def on_mount(self) -> None:
        self.query_one(".title", Label).update(self.tr("name.title"))
        self.query_one("#answer", Input).placeholder = self.tr("name.placeholder")
