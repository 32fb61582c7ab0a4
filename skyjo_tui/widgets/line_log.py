"""Lines of text, newest at the bottom: the moves in words, and chats.

Lines are kept as text and wrapped when drawn, so they always fit the
current width, even after the terminal or the layout changes. The mouse
wheel (or the screen's keys, through ``scroll_rows``) reads back through
older lines; while it is back, new lines do not move what is read, and the
bottom row says that newer lines are below (a click there goes back down).
"""

from __future__ import annotations

import re
from collections import deque
from typing import ClassVar, NamedTuple

from rich.console import Console
from rich.text import Lines, Text
from textual import events
from textual.reactive import reactive
from textual.widget import Widget

MAX_LINES = 200

#: Spaces a row of the narrow log may not break at: before the punctuation French sets
#: apart ("la partie !", "prêt ; l'hôte"), or a row would begin with a lone "!", and
#: between a word and the number after it, which belongs to it ("un -2.", "manche 3").
#: Not after a comma: a list of numbers ("révélez 1, 10, 4, ...") breaks between them,
#: or it would be one long word that rich cuts anywhere, even inside a "10".
_UNBREAKABLE_SPACE = re.compile(r" (?=[!?;:»])|(?<=[^\W\d_]) (?=-?\d)")
#: What such a space is while the line is wrapped: one cell wide, and not a space to rich.
_GLUE = "\ue000"


def wrap(line: Text, console: Console, width: int) -> Lines:
    """``line``'s rows at ``width``, as rich wraps it but never breaking before "!", "?",
    ";", ":" or "»" set apart by a space, nor before a number (the text keeps its length,
    so its styles stay in place)."""
    if not _UNBREAKABLE_SPACE.search(line.plain):
        return line.wrap(console, width)
    glued = line.copy()
    glued.plain = _UNBREAKABLE_SPACE.sub(_GLUE, line.plain)
    rows = glued.wrap(console, width)
    for row in rows:
        row.plain = row.plain.replace(_GLUE, " ")
    return rows


class ChatLine(NamedTuple):
    """Someone's words: their name is drawn in the theme's colour for names, when drawn."""

    name: str
    text: str

    @property
    def plain(self) -> str:
        return f"{self.name}: {self.text}"


class LineLog(Widget):
    DEFAULT_CSS = """
    LineLog { height: 1fr; }
    LineLog > .line-log--name { color: $text-secondary; text-style: bold; }
    LineLog > .line-log--newer { color: $text-muted; background: $boost; text-style: italic; }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"line-log--name", "line-log--newer"}

    back: reactive[int] = reactive(0)
    """How many rows the reading is above the newest (0: the newest row at the bottom)."""

    def __init__(self, *, newer_below: str = "▼", id: str | None = None) -> None:
        super().__init__(id=id)
        self.newer_below = newer_below
        """The bottom row while reading back (the screen gives it in the player's words)."""
        self._lines: deque[Text | ChatLine] = deque(maxlen=MAX_LINES)

    def write(self, line: str | Text) -> None:
        self._add(line if isinstance(line, Text) else Text(line))

    def write_chat(self, name: str, text: str) -> None:
        self._add(ChatLine(name, text))

    def _add(self, line: Text | ChatLine) -> None:
        if self.back:  # reading back: what is read stays where it is
            before = len(self._rows())
            self._lines.append(line)
            self.back += len(self._rows()) - before
        else:
            self._lines.append(line)
        self.refresh()

    def scroll_rows(self, rows: int) -> None:
        """Read ``rows`` rows further back (below 0: towards the newest)."""
        self.back += rows

    def scroll_pages(self, pages: int) -> None:
        """Read back (or down) by ``pages`` of what the log shows."""
        self.scroll_rows(pages * max(1, self.content_size.height - 1))

    def validate_back(self, back: int) -> int:
        height = self.content_size.height
        if height <= 1:
            return 0
        # Reading back, the bottom row is the note that newer lines are below.
        return max(0, min(back, len(self._rows()) - (height - 1)))

    def watch_back(self) -> None:
        self.refresh()

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self.scroll_rows(1)

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self.scroll_rows(-1)

    def on_click(self, event: events.Click) -> None:
        if self.back and event.y == self.content_size.height - 1:
            self.back = 0  # the note "newer below": back to the newest

    def _rows(self) -> list[Text]:
        width = self.content_size.width
        if width <= 0:
            return []
        return [
            row for line in self._lines for row in wrap(self._styled(line), self.app.console, width)
        ]

    def _styled(self, line: Text | ChatLine) -> Text:
        if isinstance(line, Text):
            return line
        return Text.assemble(
            (f"{line.name}: ", self.get_component_rich_style("line-log--name")), line.text
        )

    def clear(self) -> None:
        self._lines.clear()
        self.back = 0
        self.refresh()

    @property
    def lines(self) -> list[str]:
        return [line.plain for line in self._lines]

    def render(self) -> Text:
        width, height = self.content_size
        if width <= 0 or height <= 0:
            return Text()
        if self.back:
            rows = self._rows()
            end = len(rows) - self.back
            note = Text(self.newer_below, self.get_component_rich_style("line-log--newer"))
            note.truncate(width, overflow="ellipsis")
            return Text("\n").join([*rows[max(0, end - (height - 1)) : end], note])
        shown: list[Text] = []
        for line in reversed(self._lines):  # wrap from the newest until the space is full
            wrapped = wrap(self._styled(line), self.app.console, width)
            shown[:0] = list(wrapped)
            if len(shown) >= height:
                break
        return Text("\n").join(shown[-height:])
