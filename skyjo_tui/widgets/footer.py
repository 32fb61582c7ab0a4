"""Textual's footer, sure to show its screen's keys from the start."""

from __future__ import annotations

from textual.widgets import Footer


class KeyFooter(Footer):
    """Textual's ``Footer`` shows nothing until a "bindings changed" signal,
    and then rebuilds itself after the *current* screen's next refresh. A
    screen may send its first signal before the footer listens (children mount
    in their own time), or be pushed while another screen is current, leaving
    the footer blank. This one builds itself as soon as it is mounted.

    The command palette's key (Ctrl+P) is shown where there is room for it, on
    the home screen's footer (``show_command_palette=True``); Help lists it always.
    """

    def __init__(self, *, show_command_palette: bool = False) -> None:
        super().__init__(show_command_palette=show_command_palette)

    def on_mount(self) -> None:
        self._bindings_ready = True
        self.call_later(self.recompose)
