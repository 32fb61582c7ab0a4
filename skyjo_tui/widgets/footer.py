"""Textual's footer, sure to show its screen's keys from the start."""

from __future__ import annotations

from textual.widgets import Footer


class KeyFooter(Footer):
    """Textual's ``Footer`` waits for a "bindings changed" signal before it
    shows anything; a screen may send its first one before the footer has
    subscribed (children mount in their own time), leaving it blank. This
    one asks for its keys as soon as it is mounted."""

    def on_mount(self) -> None:
        self.bindings_changed(self.screen)
