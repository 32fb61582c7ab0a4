"""The question when someone leaves a form they changed: save, discard, or keep editing."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical

from ..host import Unsaved
from ..widgets.footer import KeyFooter
from ..widgets.form import FormButton
from ..widgets.text import Button, Label
from .base import SkyjoModal


class UnsavedChangesScreen(SkyjoModal[Unsaved]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "answer('save')", "keys.save", id="unsaved.save"),
        Binding("d", "answer('discard')", "keys.discard_changes", id="unsaved.discard"),
        # Esc is the way back to where you were, as everywhere: nothing is lost by it.
        Binding("escape", "answer('keep-editing')", "keys.keep_editing", id="unsaved.keep"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        tr = self.tr
        with Vertical(classes="dialog"):
            yield Label(self.question)
            with Horizontal(classes="buttons"):
                yield FormButton(tr("unsaved.save"), variant="primary", id="save", compact=True)
                yield FormButton(tr("unsaved.discard"), variant="error", id="discard", compact=True)
                yield FormButton(tr("unsaved.keep_editing"), id="keep-editing", compact=True)
        yield KeyFooter()  # this dialog's keys, not the form's below

    def on_mount(self) -> None:
        self.query_one("#save", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(Unsaved(event.button.id))

    def action_answer(self, answer: str) -> None:
        self.dismiss(Unsaved(answer))
