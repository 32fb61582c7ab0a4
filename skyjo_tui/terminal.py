"""The terminal's window title, set with the xterm escape sequences (Textual has none).

The title is pushed on the terminal's title stack the first time it is set and
popped when the app ends, so the player's shell gets its own title back. Only
our own words go in it, and no control character ever does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

PUSH_TITLE: Final = "\x1b[22;2t"  # xterm: keep the window title on the stack
POP_TITLE: Final = "\x1b[23;2t"


def title_sequence(title: str) -> str:
    """OSC 2 (the window title), ended by BEL as every terminal understands it."""
    printable = "".join(ch for ch in title if ch.isprintable())
    return f"\x1b]2;{printable}\x07"


class TerminalTitle:
    """What the terminal's title is (``shown``), written through ``write``."""

    def __init__(self, write: Callable[[str], None]) -> None:
        self._write = write
        self._pushed = False
        self.shown: str | None = None  # None: never set, the terminal's own title

    def show(self, title: str) -> None:
        if title == self.shown or (self.shown is None and not title):
            return
        if not self._pushed:
            self._write(PUSH_TITLE)
            self._pushed = True
        self._write(title_sequence(title))
        self.shown = title

    def restore(self) -> None:
        """The terminal's own title back (the app ends)."""
        if self._pushed:
            self._write(POP_TITLE)
            self._pushed = False
            self.shown = None
