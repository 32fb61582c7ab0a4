"""One player's tableau: a name line and 4 columns x 3 rows of cards.

One widget draws the twelve cards (rather than twelve widgets) so an
eight-player table stays light; a click is mapped back to the card under it.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from server.engine import TableauView

from ..layout import CARD_SIZES, COLUMNS, ROWS, CardSize, tableau_height, tableau_width
from .card_art import CardLook, Face, card_segments, text_segments


@dataclass(frozen=True, slots=True)
class SeatLine:
    """What the name line of a tableau shows, already in the player's language."""

    name: str
    visible: int
    total: int
    tag: str = ""  # "bot", "away", ...
    current: bool = False
    closer: bool = False
    you: bool = False


def shorten(name: str, room: int) -> str:
    """``name`` in ``room`` cells; a short last word (a number) survives: "Greedy b…2"."""
    if len(name) <= room:
        return name
    head, _, last = name.rpartition(" ")
    if head and len(last) <= 3 and room >= len(last) + 3:
        return name[: room - len(last) - 1] + "…" + last
    return name[: max(0, room - 1)] + "…"


class TableauWidget(Widget):
    """Draws a ``TableauView``; posts ``CardChosen`` on a click."""

    DEFAULT_CSS = """
    TableauWidget {
        width: auto;
        height: auto;
    }
    """

    tableau: reactive[TableauView | None] = reactive(None, layout=False)
    line: reactive[SeatLine | None] = reactive(None)
    card_size: reactive[CardSize] = reactive(CARD_SIZES[0], layout=True)
    cursor: reactive[int | None] = reactive(None)
    targets: reactive[frozenset[int] | None] = reactive(None)
    """The cards a choice would play; None when not choosing (nothing is muted)."""
    highlight: reactive[frozenset[int]] = reactive(frozenset())

    class CardChosen(Message):
        def __init__(self, seat: int, pos: int) -> None:
            super().__init__()
            self.seat, self.pos = seat, pos

    class CardHovered(Message):
        def __init__(self, seat: int, pos: int) -> None:
            super().__init__()
            self.seat, self.pos = seat, pos

    def __init__(self, seat: int, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.seat = seat
        self._key: tuple[object, ...] | None = None
        self._cache: list[Strip] = []

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return tableau_width(self.card_size)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return tableau_height(self.card_size)

    # -- mouse -----------------------------------------------------------------

    def pos_at(self, x: int, y: int) -> int | None:
        """The position of the card at content offset (x, y), if any."""
        card = self.card_size
        if y < 1 or x < 1:
            return None
        row = (y - 1) // card.height
        column, within = divmod(x - 1, card.width + card.gap)
        if row >= ROWS or column >= COLUMNS or within >= card.width:
            return None
        return column * ROWS + row

    def _pos_of(self, event: events.MouseEvent) -> int | None:
        offset = event.get_content_offset(self)
        return None if offset is None else self.pos_at(offset.x, offset.y)

    def on_click(self, event: events.Click) -> None:
        pos = self._pos_of(event)
        if pos is not None:
            event.stop()
            self.post_message(self.CardChosen(self.seat, pos))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        pos = self._pos_of(event)
        if pos is not None:
            self.post_message(self.CardHovered(self.seat, pos))

    # -- drawing ---------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        """The line API: lines are built once per change of what is shown."""
        lines = self._lines()
        return lines[y] if y < len(lines) else Strip.blank(self.size.width)

    def _lines(self) -> list[Strip]:
        key = (self.tableau, self.line, self.card_size, self.cursor, self.targets, self.highlight)
        if key != self._key:
            self._key = key
            width = tableau_width(self.card_size)
            pad = Segment(" ")
            name = [pad, *text_segments(self._name_line(width - 2)), pad]
            self._cache = [Strip(name, width)] + [
                Strip([pad, *segments, pad], width) for segments in self._card_lines()
            ]
        return self._cache

    def _name_line(self, width: int) -> Text:
        """``»Alice ✓ bot     5 Σ23``: the name gives way first, then the tag."""
        line = self.line
        if line is None:
            return Text(" " * width)
        marker = "»" if line.current else " "
        right = f" {line.visible} Σ{line.total}"
        closer = " ✓" if line.closer else ""
        tag = f" {line.tag}" if line.tag else ""
        room = width - len(marker) - len(right) - len(closer)
        if len(line.name) + len(tag) > room:
            tag = ""
        name = shorten(line.name, max(1, room - len(tag)))
        text = Text(marker + name + closer, Style(bold=line.you or line.current, reverse=line.current))
        text.append(tag, Style(dim=True, italic=True))
        text.pad_right(max(0, width - text.cell_len - len(right)))
        text.append(right, Style(bold=line.current))
        text.truncate(width)
        return text

    def _card_lines(self) -> list[list[Segment]]:
        card, tableau = self.card_size, self.tableau
        gap = Segment(" " * card.gap) if card.gap else None
        lines: list[list[Segment]] = []
        for row in range(ROWS):
            drawn = [self._draw(column * ROWS + row, tableau, card) for column in range(COLUMNS)]
            for line_no in range(card.height):
                line: list[Segment] = []
                for column, card_lines in enumerate(drawn):
                    if column and gap is not None:
                        line.append(gap)
                    line.extend(card_lines[line_no])
                lines.append(line)
        return lines

    def _draw(
        self, pos: int, tableau: TableauView | None, card: CardSize
    ) -> tuple[tuple[Segment, ...], ...]:
        if tableau is None:
            return tuple((Segment(" " * card.width),) for _ in range(card.height))
        if pos // ROWS in tableau.removed_columns:
            return card_segments(CardLook(Face.GONE), card)
        targets = self.targets
        look = CardLook.of(
            tableau.cards[pos],
            cursor=pos == self.cursor,
            highlight=pos in self.highlight,
            muted=targets is not None and pos not in targets,
        )
        return card_segments(look, card)
