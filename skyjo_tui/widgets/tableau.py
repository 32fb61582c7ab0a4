"""One player's tableau: a name line and 4 columns x 3 rows of cards.

One widget draws the twelve cards (rather than twelve widgets) so an
eight-player table stays light; a click is mapped back to the card under it.
"""

from __future__ import annotations

from typing import ClassVar, Final

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from server.engine import TableauView

from ..layout import CARD_SIZES, COLUMNS, ROWS, CardSize, tableau_height, tableau_width
from ..seat_line import CLOSER_MARK, SeatLine, fit_name_line
from .card_art import PLAIN, CardLook, Face, card_segments, text_segments

#: Columns a name line may take beyond the cards' width, when the cell has them.
NAME_EXTRA: Final = 10


class TableauWidget(Widget):
    """Draws a ``TableauView``; posts ``CardChosen`` on a click.

    As wide as its cards, or (``wide``) as wide as its place, for an
    opponent in a cell of the table: the name line then takes a little more
    room than the cards, and the whole is centred in the cell.
    """

    DEFAULT_CSS = """
    TableauWidget {
        width: auto;
        height: auto;
    }
    TableauWidget.wide { width: 100%; }
    TableauWidget > .tableau--current { background: $boost; }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"tableau--current"}

    tableau: reactive[TableauView | None] = reactive(None, layout=False)
    line: reactive[SeatLine | None] = reactive(None)
    card_size: reactive[CardSize] = reactive(CARD_SIZES[0], layout=True)
    cursor: reactive[int | None] = reactive(None)
    targets: reactive[frozenset[int] | None] = reactive(None)
    """The cards a choice would play; None when not choosing (nothing is muted)."""
    highlight: reactive[frozenset[int]] = reactive(frozenset())
    revealed: reactive[frozenset[int]] = reactive(frozenset())
    """Face-down cards shown anyway (a finished game's replay): drawn dimmed."""

    class CardChosen(Message):
        def __init__(self, seat: int, pos: int) -> None:
            super().__init__()
            self.seat, self.pos = seat, pos

    class CardHovered(Message):
        def __init__(self, seat: int, pos: int) -> None:
            super().__init__()
            self.seat, self.pos = seat, pos

    def __init__(
        self, seat: int, *, wide: bool = False, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.seat = seat
        self.set_class(wide, "wide")
        self._key: tuple[object, ...] | None = None
        self._cache: list[Strip] = []
        self._rendering: list[Strip] | None = None
        """The lines of the render in progress (``render_lines``)."""

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return tableau_width(self.card_size)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return tableau_height(self.card_size)

    def _block(self) -> tuple[int, int]:
        """(left offset, width) of the name line and cards within the widget.

        As wide as the cards when the name line says everything in that
        width, else a little wider when the widget has the room.
        """
        cards = tableau_width(self.card_size)
        if self.line is not None and self.line.room_for_everything() <= cards - 2:
            width = cards
        else:
            width = max(cards, min(self.size.width, cards + NAME_EXTRA))
        return max(0, (self.size.width - width) // 2), width

    # -- mouse -----------------------------------------------------------------

    def pos_at(self, x: int, y: int) -> int | None:
        """The position of the card at content offset (x, y), if any."""
        card = self.card_size
        x -= self._block()[0]
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

    def render_lines(self, crop: Region) -> list[Strip]:
        # What is shown is looked up once per render, not once per line: the
        # key includes the widget's style, which walks every ancestor's styles
        # (about a sixth of a key press's CPU time, ten lines a frame).
        self._rendering = self._lines()
        try:
            return super().render_lines(crop)
        finally:
            self._rendering = None

    def render_line(self, y: int) -> Strip:
        """The line API: lines are built once per change of what is shown."""
        lines = self._rendering if self._rendering is not None else self._lines()
        return lines[y] if y < len(lines) else Strip.blank(self.size.width, self.rich_style)

    def _lines(self) -> list[Strip]:
        key = (
            self.tableau,
            self.line,
            self.card_size,
            self.cursor,
            self.targets,
            self.highlight,
            self.revealed,
            self.size.width,
            self.rich_style,
        )
        if key != self._key:
            self._key = key
            self._cache = self._draw_lines()
        return self._cache

    def _draw_lines(self) -> list[Strip]:
        # A line API widget paints its own background: the widget's, or the
        # current player's a little lighter under their cards.
        base = self.rich_style
        left, width = self._block()
        current = self.line is not None and self.line.current
        ground = self.get_component_rich_style("tableau--current") if current else base
        margin = [Segment(" " * left, base)] if left else []
        pad = Segment(" ", ground)
        # The name line starts one column left of the cards: its first column
        # holds the turn marker.
        name = Segment.apply_style(text_segments(self._name_line(width - 1)), style=ground)
        cards = tableau_width(self.card_size) - 2
        lines = [[*margin, *name, pad]]
        for segments in self._card_lines():
            lines.append([*margin, pad, *segments, Segment(" " * (width - 1 - cards), ground)])
        total = max(self.size.width, left + width)
        return [
            Strip(line, left + width).extend_cell_length(total, base).apply_style(base)
            for line in lines
        ]

    def _name_line(self, width: int) -> Text:
        """``»Alice ✓ away   5 pts · total 23``: the words give way first, then the name.

        ``width`` counts the turn marker (a space when it is not their turn).
        """
        line = self.line
        if line is None:
            return Text(" " * width)
        marker = "»" if line.current else " "
        closer = CLOSER_MARK if line.closer else ""
        tag = f" {line.tag}" if line.tag else ""
        name, tag, right = fit_name_line(line, width - len(marker), closer, tag)
        text = Text(marker + name, Style(bold=line.you or line.current, reverse=line.current))
        text.append(tag, Style(dim=True, italic=True))
        text.pad_right(max(0, width - text.cell_len - len(right)))
        text.append(right, Style(bold=line.current))
        text.truncate(width)
        return text

    def _card_lines(self) -> list[list[Segment]]:
        card, tableau = self.card_size, self.tableau
        gap = Segment(" " * card.gap, PLAIN) if card.gap else None
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
            return tuple((Segment(" " * card.width, PLAIN),) for _ in range(card.height))
        if pos // ROWS in tableau.removed_columns:
            return card_segments(CardLook(Face.GONE), card)
        targets = self.targets
        look = CardLook.of(
            tableau.cards[pos],
            cursor=pos == self.cursor,
            highlight=pos in self.highlight,
            muted=(targets is not None and pos not in targets) or pos in self.revealed,
        )
        return card_segments(look, card)
