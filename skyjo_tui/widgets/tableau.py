"""One player's tableau: a name line and 4 columns x 3 rows of cards.

One widget draws the twelve cards (rather than twelve widgets) so an
eight-player table stays light; a click is mapped back to the card under it.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import ClassVar, Final, cast

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

    # What is shown repaints only the bands of lines it changes (``_repaint_changed``):
    # a cursor move redraws one row of cards, not the whole tableau.
    tableau: reactive[TableauView | None] = reactive(None, repaint=False)
    line: reactive[SeatLine | None] = reactive(None, repaint=False)
    card_size: reactive[CardSize] = reactive(CARD_SIZES[0], layout=True)
    cursor: reactive[int | None] = reactive(None, repaint=False)
    targets: reactive[frozenset[int] | None] = reactive(None, repaint=False)
    """The cards a choice would play; None when not choosing (nothing is muted)."""
    highlight: reactive[frozenset[int]] = reactive(frozenset(), repaint=False)
    """The cards the last move changed."""
    hint: reactive[frozenset[int]] = reactive(frozenset(), repaint=False)
    """The cards the coach's hint is about."""
    revealed: reactive[frozenset[int]] = reactive(frozenset(), repaint=False)
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
        self._painted: tuple[Hashable, tuple[Hashable, ...]] | None = None
        """What was last asked to be painted: (the frame's key, each band's key)."""
        self._bands: list[tuple[Hashable, list[Strip]]] = []
        """Each band's lines as last drawn, with the key they were drawn for."""
        self._frame: _Frame | None = None
        """The styles and geometry of the render in progress (``render_lines``)."""
        self._styles: tuple[Style, Style] | None = None
        """The widget's style and the current player's, until the styles change."""

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
        if y < 1 or x < 1 or not card.height:  # a name line alone (``layout.SUMMARY``)
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

    # -- what changed ----------------------------------------------------------

    def _frame_key(self) -> Hashable:
        """What every line depends on: a change repaints the whole tableau."""
        current = self.line is not None and self.line.current
        return (self.card_size, self.size.width, self._block(), current)

    def _band_keys(self) -> tuple[Hashable, ...]:
        """What each band shows: the name line, then each row of cards."""
        looks = self._looks()
        rows = (
            tuple(looks[column * ROWS + row] for column in range(COLUMNS)) for row in range(ROWS)
        )
        return (self.line, *rows)

    def _band_region(self, band: int) -> Region:
        if band == 0:
            return Region(0, 0, self.size.width, 1)
        height = self.card_size.height
        return Region(0, 1 + (band - 1) * height, self.size.width, height)

    def _repaint_changed(self) -> None:
        """Repaint the bands of lines whose cards or name line changed, or all of them."""
        frame, bands = self._frame_key(), self._band_keys()
        painted, self._painted = self._painted, (frame, bands)
        if painted is None or painted[0] != frame:
            self.refresh()
            return
        changed = [
            self._band_region(n)
            for n, (a, b) in enumerate(zip(painted[1], bands, strict=True))
            if a != b
        ]
        if changed:
            self.refresh(*changed)

    def show(
        self,
        tableau: TableauView,
        line: SeatLine,
        *,
        cursor: int | None = None,
        targets: frozenset[int] | None = None,
        highlight: frozenset[int] = frozenset(),
        hint: frozenset[int] = frozenset(),
        revealed: frozenset[int] = frozenset(),
    ) -> None:
        """Show all of it at once: what changed is worked out, and repainted, once."""
        shown = (
            self.tableau,
            self.line,
            self.cursor,
            self.targets,
            self.highlight,
            self.hint,
            self.revealed,
        )
        if shown == (tableau, line, cursor, targets, highlight, hint, revealed):
            return
        self.set_reactive(TableauWidget.tableau, tableau)
        self.set_reactive(TableauWidget.line, line)
        self.set_reactive(TableauWidget.cursor, cursor)
        self.set_reactive(TableauWidget.targets, targets)
        self.set_reactive(TableauWidget.highlight, highlight)
        self.set_reactive(TableauWidget.hint, hint)
        self.set_reactive(TableauWidget.revealed, revealed)
        self._repaint_changed()

    def on_resize(self) -> None:
        # Textual repaints the whole widget at a new size: what it shows is painted.
        self._painted = (self._frame_key(), self._band_keys())

    watch_tableau = watch_line = watch_cursor = _repaint_changed
    watch_targets = watch_highlight = watch_hint = watch_revealed = _repaint_changed

    # -- drawing ---------------------------------------------------------------

    def render_lines(self, crop: Region) -> list[Strip]:
        # The styles are looked up once per render, not once per line: the widget's
        # style walks every ancestor's styles (about a sixth of a key press's CPU time
        # when it was looked up for each of ten lines).
        self._frame = self._frame_styles()
        try:
            return super().render_lines(crop)
        finally:
            self._frame = None

    def render_line(self, y: int) -> Strip:
        """The line API: each band of lines is built once per change of what it shows
        (Textual asks only for the lines repainted)."""
        frame = self._frame if self._frame is not None else self._frame_styles()
        if y >= tableau_height(self.card_size):
            return Strip.blank(self.size.width, frame.base)
        if y == 0:
            return self._band_lines(0, frame)[0]
        row, within = divmod(y - 1, self.card_size.height)
        return self._band_lines(row + 1, frame)[within]

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles = None

    def _frame_styles(self) -> _Frame:
        # The widget's style walks every ancestor's styles, and Textual forgets the
        # component's at every repaint: both are kept until a restyle (about a twentieth
        # of a key's CPU time otherwise). Textual restyles a node's descendants with it.
        if self._styles is None:
            self._styles = (self.rich_style, self.get_component_rich_style("tableau--current"))
        base, current_style = self._styles
        current = self.line is not None and self.line.current
        ground = current_style if current else base
        left, width = self._block()
        return _Frame(base, ground, left, width, max(self.size.width, left + width))

    def _shown_bands(self) -> tuple[Hashable, ...]:
        """What each band shows now (``_repaint_changed`` keeps it as things change)."""
        if self._painted is None:
            self._painted = (self._frame_key(), self._band_keys())
        return self._painted[1]

    def _band_lines(self, band: int, frame: _Frame) -> list[Strip]:
        shows = self._shown_bands()[band]
        key = (frame, self.card_size, shows)
        while len(self._bands) <= band:
            self._bands.append((None, []))
        drawn_for, lines = self._bands[band]
        if drawn_for != key:
            lines = self._draw_band(band, shows, frame)
            self._bands[band] = (key, lines)
        return lines

    def _draw_band(self, band: int, shows: Hashable, frame: _Frame) -> list[Strip]:
        # A line API widget paints its own background: the widget's, or the
        # current player's a little lighter under their cards.
        base, ground, left, width = frame.base, frame.ground, frame.left, frame.width
        margin = [Segment(" " * left, base)] if left else []
        pad = Segment(" ", ground)
        if band == 0:
            # The name line starts one column left of the cards: its first column
            # holds the turn marker.
            name = Segment.apply_style(text_segments(self._name_line(width - 1)), style=ground)
            lines = [[*margin, *name, pad]]
        else:
            cards = tableau_width(self.card_size) - 2
            rest = Segment(" " * (width - 1 - cards), ground)
            looks = cast(tuple[CardLook | None, ...], shows)
            lines = [[*margin, pad, *segments, rest] for segments in self._card_lines(looks)]
        return [
            Strip(line, left + width).extend_cell_length(frame.total, base).apply_style(base)
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

    def _card_lines(self, looks: tuple[CardLook | None, ...]) -> list[list[Segment]]:
        """The lines of one row of cards, drawn as ``looks`` say, left to right."""
        card = self.card_size
        gap = Segment(" " * card.gap, PLAIN) if card.gap else None
        nothing = ((Segment(" " * card.width, PLAIN),),) * card.height
        drawn = [nothing if look is None else card_segments(look, card) for look in looks]
        lines: list[list[Segment]] = []
        for line_no in range(card.height):
            line: list[Segment] = []
            for column, card_lines in enumerate(drawn):
                if column and gap is not None:
                    line.append(gap)
                line.extend(card_lines[line_no])
            lines.append(line)
        return lines

    def _looks(self) -> list[CardLook | None]:
        """How each card is drawn, by position (None: no tableau, a blank).

        Worked out for every change of what is shown (each key at the table): each
        reactive is read once here, not once a card."""
        tableau = self.tableau
        if tableau is None:
            return [None] * (ROWS * COLUMNS)
        cursor, targets = self.cursor, self.targets
        highlight, hint, revealed = self.highlight, self.hint, self.revealed
        removed = tableau.removed_columns
        return [
            CardLook(Face.GONE)
            if pos // ROWS in removed
            else CardLook.of(
                value,
                cursor=pos == cursor,
                highlight=pos in highlight,
                hint=pos in hint,
                muted=(targets is not None and pos not in targets) or pos in revealed,
            )
            for pos, value in enumerate(tableau.cards)
        ]


@dataclass(frozen=True, slots=True)
class _Frame:
    """The styles and geometry every line of one render shares."""

    base: Style  # the widget's own style
    ground: Style  # under the cards: lighter for the current player
    left: int  # the name line's and cards' offset in the widget
    width: int  # their width
    total: int  # the width of a line
