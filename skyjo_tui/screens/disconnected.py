"""The server ended our connection and the app will not try again by itself (the admin
disconnected us, we connected from somewhere else, we are banned...): said plainly, with
the two things left to do, connect again or quit (quit alone where connecting again cannot
bring this player back: see ``session.NO_RECONNECT_CODES``). Nothing under it works meanwhile: a
lobby or a table without a connection only answers "not connected" to every key."""

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

RECONNECT, QUIT, HOME = "reconnect", "quit", "home"


class DisconnectedScreen(SkyjoModal[str]):
    """Dismissed with ``RECONNECT`` (offered unless ``reconnect`` is false), or with
    ``QUIT`` (the app was started for this server) or ``HOME`` (it goes back to its first
    screen)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "answer('reconnect')", "keys.reconnect", id="disconnected.reconnect"),
        Binding("q", "answer('quit')", "keys.quit", id="disconnected.quit"),
        Binding("q", "answer('home')", "keys.home", id="disconnected.home"),
    ]

    def __init__(self, why: str, *, home: bool = False, reconnect: bool = True) -> None:
        super().__init__()
        self.why = why
        self.leave = HOME if home else QUIT
        self.reconnect = reconnect

    def compose(self) -> ComposeResult:
        tr = self.tr
        with Vertical(classes="dialog"):
            yield Label(self.why, id="disconnected-why")
            if self.reconnect:
                yield Label(tr(f"disconnected.question_{self.leave}"))
            with Horizontal(classes="buttons"):
                if self.reconnect:
                    yield FormButton(
                        tr("disconnected.reconnect"), variant="primary", id=RECONNECT, compact=True
                    )
                yield FormButton(tr(f"disconnected.{self.leave}"), id=self.leave, compact=True)
        yield KeyFooter()  # this dialog's keys, not the screen's below

    def on_mount(self) -> None:
        self.query_one(f"#{RECONNECT if self.reconnect else self.leave}", Button).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "answer" and parameters and parameters[0] in (QUIT, HOME):
            return parameters[0] == self.leave  # one way out: quit, or home
        if action == "answer" and parameters and parameters[0] == RECONNECT:
            return self.reconnect
        return True

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or self.leave)

    def action_answer(self, answer: str) -> None:
        self.dismiss(answer)
