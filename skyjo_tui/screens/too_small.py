"""Shown over any screen while the terminal is smaller than that screen needs."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Middle
from textual.widgets import Static

from .base import SkyjoScreen


class TooSmallScreen(SkyjoScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q,ctrl+c", "app.quit", "keys.quit", id="small.quit"),
    ]

    def __init__(self, width: int, height: int, needed: tuple[int, int]) -> None:
        super().__init__()
        self._size = (width, height, needed)

    def compose(self) -> ComposeResult:
        with Middle():
            with Center():
                yield Static(id="too-small")

    def on_mount(self) -> None:
        self.show_size(*self._size)

    def fits(self, width: int, height: int) -> bool:
        return True

    def on_screen_resume(self) -> None:
        """Never covers itself; the app pops it once the screen below fits."""

    def show_size(self, width: int, height: int, needed: tuple[int, int]) -> None:
        self._size = (width, height, needed)
        text = self.tr(
            "small.message", width=width, height=height, need_width=needed[0], need_height=needed[1]
        )
        self.query_one("#too-small", Static).update(text)
