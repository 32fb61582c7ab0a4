"""Lines of text, newest at the bottom: the moves in words, and chats.

Lines are kept as text and wrapped when drawn, so they always fit the
current width, even after the terminal or the layout changes.
"""

from __future__ import annotations

from collections import deque
from typing import ClassVar, NamedTuple

from rich.text import Text
from textual.widget import Widget

MAX_LINES = 200


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
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"line-log--name"}

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._lines: deque[Text | ChatLine] = deque(maxlen=MAX_LINES)

    def write(self, line: str | Text) -> None:
        self._lines.append(line if isinstance(line, Text) else Text(line))
        self.refresh()

    def write_chat(self, name: str, text: str) -> None:
        self._lines.append(ChatLine(name, text))
        self.refresh()

    def _styled(self, line: Text | ChatLine) -> Text:
        if isinstance(line, Text):
            return line
        return Text.assemble(
            (f"{line.name}: ", self.get_component_rich_style("line-log--name")), line.text
        )

    def clear(self) -> None:
        self._lines.clear()
        self.refresh()

    @property
    def lines(self) -> list[str]:
        return [line.plain for line in self._lines]

    def render(self) -> Text:
        width, height = self.content_size
        if width <= 0 or height <= 0:
            return Text()
        shown: list[Text] = []
        for line in reversed(self._lines):  # wrap from the newest until the space is full
            wrapped = self._styled(line).wrap(self.app.console, width)
            shown[:0] = list(wrapped)
            if len(shown) >= height:
                break
        return Text("\n").join(shown[-height:])
