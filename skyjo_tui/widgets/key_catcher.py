"""A widget that takes the next key pressed, whatever it is, for the Keys screen."""

from __future__ import annotations

from textual import events
from textual.message import Message

from .text import Label


class KeyCatcher(Label):
    """Focused while the player is choosing a new key: the key goes nowhere else.

    Escape gives up (``Caught(None)``). Keys that Textual handles before any
    widget (the app's priority keys: Ctrl+Q, Ctrl+P) never reach it.
    """

    can_focus = True

    class Caught(Message):
        def __init__(self, key: str | None) -> None:
            super().__init__()
            self.key = key

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        self.post_message(self.Caught(None if event.key == "escape" else event.key))
