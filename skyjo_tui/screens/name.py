"""A one-line question: the player's name, a table's code, a round number..."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical

from ..widgets.footer import KeyFooter
from ..widgets.form import FormButton
from ..widgets.text import Button, Input, Label
from .base import SkyjoModal

#: Room enough for a code typed with spaces or dashes ("7KQM-3XHD" is nine characters).
RETURN_CODE_MAX_LENGTH = 16


class AnswerInput(Input):
    """A text field that never grows past ``max_length`` but can always be cut down.

    Textual's refuses every edit that leaves its text over the limit, Backspace included:
    a name given longer than the server's limit (``--name``) sat there, and neither
    typing nor Backspace changed it (only a select-all did, Tab all the way round).
    """

    def replace(self, text: str, start: int, end: int) -> None:
        limit, length = self.max_length, len(self.value)
        start, end = sorted((max(0, start), min(length, end)))
        if not limit or length <= limit or length - (end - start) + len(text) > length:
            super().replace(text, start, end)  # within the limit, or refused: Textual's way
            return
        self.max_length = 0  # over the limit already, and this edit does not make it longer
        try:
            super().replace(text, start, end)
        finally:
            self.max_length = limit


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
        max_length: int = 0,
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
            yield AnswerInput(
                self._value, max_length=self._max_length, placeholder=self._placeholder, id="answer"
            )
            yield from self.more_fields()
            with Horizontal(classes="buttons"):
                yield FormButton(self.tr("prompt.ok"), variant="primary", id="ok", compact=True)
                yield FormButton(self.tr("prompt.cancel"), id="cancel", compact=True)
        yield KeyFooter()  # this dialog's keys, not the screen's below

    def more_fields(self) -> ComposeResult:
        """Fields asked besides the answer, under it (none here)."""
        yield from ()

    def answered(self) -> None:
        """Just before the dialog goes with its answer: read the other fields."""

    @on(Input.Submitted, "#answer")
    @on(Button.Pressed, "#ok")
    def _submit(self) -> None:
        text = self.query_one("#answer", Input).value.strip()
        if text:
            self.answered()
            self.dismiss(text)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


class NameScreen(PromptScreen):
    """The player's name; ``max_length`` the server's limit (0 while it is not known: the
    server says it in its welcome, or in refusing a name too long).

    Under it, the return code a guest's table showed them (``server.lobby.guests``): with
    it, the name's player comes back to their seat, which the name alone never gives."""

    def __init__(self, name: str, reason: str = "", max_length: int = 0) -> None:
        super().__init__("", name, reason, max_length=max_length, placeholder="")
        self.return_code: str | None = None
        """The code typed (None: none), once the dialog has its answer."""

    def more_fields(self) -> ComposeResult:
        yield Label(self.tr("name.return_code"), id="return-code-label")
        yield Input(
            placeholder=self.tr("name.return_code.placeholder"),
            max_length=RETURN_CODE_MAX_LENGTH,
            id="return-code",
        )

    def answered(self) -> None:
        self.return_code = self.query_one("#return-code", Input).value.strip() or None

    @on(Input.Submitted, "#return-code")
    def _submit_with_code(self) -> None:
        self._submit()

    def on_mount(self) -> None:
        self.query_one(".title", Label).update(self.tr("name.title"))
        limit = self._max_length
        placeholder = self.tr.filled("name.placeholder", name_max_length=limit) if limit else None
        self.query_one("#answer", Input).placeholder = placeholder or self.tr(
            "name.placeholder.any"
        )
