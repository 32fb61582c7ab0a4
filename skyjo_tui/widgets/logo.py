"""The title: the letters of SKYJO on cards of the deck's five colours."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widget import Widget

from .card_art import value_colours

#: One value per colour band of the deck, for the letters' cards.
_LETTERS = (("S", -2), ("K", 0), ("Y", 3), ("J", 7), ("O", 12))


class Logo(Widget):
    DEFAULT_CSS = """
    Logo { width: auto; height: 3; }
    """

    def get_content_width(self, container: object, viewport: object) -> int:
        return len(_LETTERS) * 6 - 1

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return 3

    def render(self) -> Text:
        rows = [Text(), Text(), Text()]
        for index, (letter, value) in enumerate(_LETTERS):
            bg, fg = value_colours(value)
            edge = Style(color="#202020", bgcolor=bg)
            body = Style(color=fg, bgcolor=bg, bold=True)
            gap = " " if index else ""
            rows[0].append(gap).append("┌───┐", edge)
            rows[1].append(gap).append("│", edge).append(f" {letter} ", body).append("│", edge)
            rows[2].append(gap).append("└───┘", edge)
        return Text("\n").join(rows)
