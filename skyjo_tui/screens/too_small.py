"""Shown over any screen while the terminal is smaller than that screen needs."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.geometry import Size
from textual.screen import Screen

from ..widgets.text import Button, Static
from .base import SkyjoScreen, SkyjoScreenMixin

QUIT_KEYS = "q,ctrl+c"
QUIT_KEY = QUIT_KEYS.split(",", 1)[0]  # the one the button names


class TooSmallScreen(SkyjoScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(QUIT_KEYS, "app.quit", "keys.quit", id="small.quit"),
    ]

    def __init__(self, width: int, height: int, needed: tuple[int, int]) -> None:
        super().__init__()
        self._shown = (width, height, needed)

    def compose(self) -> ComposeResult:
        # A way out a finger can take: a phone has no q to press.
        with Vertical(id="too-small"):
            yield Static(self._text(), id="too-small-text")
            quit_key = self.app.get_key_display(Binding(QUIT_KEY, ""))
            quit_button = Button(
                self.tr("keys.quit")
                if self.skyjo.touch
                else self.tr("small.quit", quit_key=quit_key),
                id="too-small-quit",
                compact=True,
            )
            quit_button.can_focus = False  # Enter, pressed as the window shrank, must not quit
            yield quit_button

    @on(Button.Pressed, "#too-small-quit")
    def _quit(self) -> None:
        self.app.exit()

    def fits(self, width: int, height: int) -> bool:
        return True

    def on_screen_resume(self) -> None:
        """Never covers itself; the app pops it once the screen below fits."""

    def show_size(self, width: int, height: int, needed: tuple[int, int]) -> None:
        self._shown = (width, height, needed)
        for label in self.query("#too-small-text").results(Static):
            label.update(self._text())

    def _text(self) -> str:
        width, height, (need_width, need_height) = self._shown
        text = self.tr(
            "small.tap.message" if self.skyjo.touch else "small.message",  # no window to resize
            width=width,
            height=height,
            need_width=need_width,
            need_height=need_height,
        )
        # In the browser door's page: what a phone can do about it.
        return f"{text}\n{self.tr('small.page')}" if self.skyjo.in_page else text


def cover_when_too_small(app: App[Any], size: Size) -> None:
    """Push this screen over one that does not fit ``size``; pop it once it fits."""
    width, height = size
    stack = app.screen_stack
    if not stack:
        return
    top = stack[-1]
    if isinstance(top, TooSmallScreen):
        below = stack[-2] if len(stack) > 1 else None
        if below is None or _fits(below, width, height):
            app.pop_screen()
        else:
            top.show_size(width, height, _needed(below, width, height))
    elif not _fits(top, width, height):
        app.push_screen(TooSmallScreen(width, height, _needed(top, width, height)))


def _fits(screen: Screen[Any], width: int, height: int) -> bool:
    """Ours say what they need; Textual's own (the command palette) fit any size."""
    return not isinstance(screen, SkyjoScreenMixin) or screen.fits(width, height)


def _needed(screen: Screen[Any], width: int, height: int) -> tuple[int, int]:
    return screen.needed_size(width, height) if isinstance(screen, SkyjoScreenMixin) else (80, 24)
