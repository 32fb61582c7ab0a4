"""The line that says what you can do now; for a moment, why a key did nothing.

Its words wrap onto the rows the board gives it beyond its own (those the cards
leave over): a hint is longer than one row at 80 columns. Where it has one row
only, a sentence too long for it ends in "…" (the log has it whole).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from textual.timer import Timer

from .text import Static

if TYPE_CHECKING:
    from textual.screen import Screen

#: Seconds a note ("not your turn yet...") stands in for the prompt.
NOTE_SECONDS: Final = 3.0
#: The id of the box Textual stands a screen's toasts in.
TOAST_RACK: Final = "textual-toastrack"


class PromptLine(Static):
    """``show`` the prompt; ``flash`` a note over it, which goes by itself."""

    DEFAULT_CSS = """
    PromptLine { height: auto; max-height: 1; background: $boost; padding: 0 1; }
    PromptLine.one-row { text-wrap: nowrap; text-overflow: ellipsis; }
    PromptLine.your-move { background: $accent; color: $background; text-style: bold; }
    PromptLine.note { background: $error; color: $background; text-style: bold; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="one-row")
        self._prompt = ""
        self._note = ""
        self._timer: Timer | None = None

    @property
    def text(self) -> str:
        """What the line says now: the note while there is one, else the prompt."""
        return self._note or self._prompt

    def on_mount(self) -> None:
        self.screen.screen_layout_refresh_signal.subscribe(self, self._keep_toasts_above)

    def _keep_toasts_above(self, screen: Screen[object]) -> None:
        """Stand the screen's toasts on this line, not over it: Textual's stand on the
        footer, over the prompt's right half ("Settings saved." hid what to do now)."""
        racks = screen.query(f"#{TOAST_RACK}")
        if not racks or not self.region:
            return
        below = screen.size.height - self.region.y  # this line's rows, and the footer's
        rack = racks.first()
        if rack.styles.margin.bottom != below:
            rack.styles.margin = (0, 0, below, 0)

    def allow_rows(self, rows: int) -> None:
        """Let the words take up to ``rows`` rows (each only when they need it)."""
        self.set_class(rows <= 1, "one-row")
        self.styles.max_height = max(1, rows)

    def show(self, prompt: str, your_move: bool) -> None:
        self.set_class(your_move, "your-move")
        if prompt != self._prompt:
            self._prompt = prompt
            self._refresh_text()

    def flash(self, note: str) -> None:
        """Say ``note`` instead of the prompt for ``NOTE_SECONDS``."""
        if self._timer is not None:
            self._timer.stop()
        self._note = note
        self._timer = self.set_timer(NOTE_SECONDS, self.clear_note)
        self._refresh_text()

    def clear_note(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self._note:
            self._note = ""
            self._refresh_text()

    def _refresh_text(self) -> None:
        self.set_class(bool(self._note), "note")
        self.update(self.text)  # lays the screen out again: only when the words change
