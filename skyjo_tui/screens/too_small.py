"""Shown over any screen while the terminal is smaller than that screen needs."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from .base import SkyjoScreen


class TooSmallScreen(SkyjoScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q,ctrl+c", "app.quit", "keys.quit", id="small.quit"),
    ]

    def __init__(self, width: int, height: int, needed: tuple[int, int]) -> None:
        super().__init__()
        self._shown = (width, height, needed)

    def compose(self) -> ComposeResult:
        yield Static(self._text(), id="too-small")

    def fits(self, width: int, height: int) -> bool:
        return True

    def on_screen_resume(self) -> None:
        """Never covers itself; the app pops it once the screen below fits."""

    def show_size(self, width: int, height: int, needed: tuple[int, int]) -> None:
        self._shown = (width, height, needed)
        for label in self.query("#too-small").results(Static):
            label.update(self._text())

    def _text(self) -> str:
        width, height, (need_width, need_height) = self._shown
        return self.tr(
            "small.message", width=width, height=height, need_width=need_width, need_height=need_height
        )
