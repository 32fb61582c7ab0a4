"""While logging in to a server; on failure, the reason and a way back."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Horizontal, Middle
from textual.widgets import LoadingIndicator

from ..widgets.form import FormButton
from ..widgets.text import Button, Static
from .base import SkyjoScreen


class ConnectingScreen(SkyjoScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "retry", "keys.retry", id="connecting.retry"),
        Binding("escape", "back", "keys.back", id="connecting.back"),
    ]

    def __init__(self, label: str, retry: Callable[[], object] | None = None) -> None:
        super().__init__()
        self.label = label
        self._retry = retry
        self._failed = False

    def compose(self) -> ComposeResult:
        with Middle():
            with Center():
                yield Static(self._connecting_text(), id="connecting-text")
            yield LoadingIndicator(id="connecting-spinner")
            with Center():
                with Horizontal(classes="buttons", id="connecting-buttons"):
                    retry = FormButton(
                        self.tr("connect.retry"), variant="primary", id="retry", compact=True
                    )
                    # Hidden from the start, not on mount: an app told to stop while this
                    # screen mounts has no children left to query by then.
                    retry.display = False
                    yield retry
                    yield FormButton(self.tr("connect.back"), id="back", compact=True)

    def _connecting_text(self) -> str:
        if self.label:
            return self.tr("connect.connecting_to", where=self.label)
        return self.tr("connect.connecting")

    def out_of_reach(self) -> None:
        """The server cannot be reached yet (a door host's lobby starting or restarting):
        the app tries again by itself, the spinner on."""
        self.query_one("#connecting-text", Static).update(self.tr("connect.out_of_reach"))

    def failed(self, reason: str) -> None:
        self._failed = True
        self.query_one("#connecting-spinner").display = False
        self.query_one("#connecting-text", Static).update(self.tr("connect.failed", reason=reason))
        retry = self.query_one("#retry", Button)
        retry.display = self._retry is not None
        (retry if self._retry is not None else self.query_one("#back", Button)).focus()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self._failed and self._retry is not None if action == "retry" else True

    @on(Button.Pressed, "#retry")
    def action_retry(self) -> None:
        if self._retry is not None and self._failed:
            self.app.pop_screen()
            self._retry()

    @on(Button.Pressed, "#back")
    def action_back(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.app.exit()
