"""A yes/no question."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical

from ..widgets.footer import KeyFooter
from ..widgets.form import FormButton
from ..widgets.text import Button, Label
from .base import SkyjoModal


class ConfirmScreen(SkyjoModal[bool]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "keys.yes", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "keys.no", id="confirm.no"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question)
            with Horizontal(classes="buttons"):
                yield FormButton(self.tr("confirm.yes"), variant="error", id="yes", compact=True)
                yield FormButton(self.tr("confirm.no"), id="no", compact=True)
        yield KeyFooter()  # this dialog's keys, not the screen's below

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
