"""The colours a person sees, read from what Textual drew: text against its own background.

The compositor's lines go through the app's own line filters (ANSI colours to the
theme's, dim to a blend), as the driver would write them; each cell with a glyph
is measured by WCAG's contrast ratio of its foreground to its background.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual.app import App
from textual.color import Color
from textual.strip import Strip

from skyjo_tui.widgets.card_art import value_colours


@dataclass(frozen=True)
class Cell:
    text: str
    ratio: float
    foreground: str
    background: str
    row: int


def contrast(a: Color, b: Color) -> float:
    """WCAG 2 contrast ratio, 1 (none) to 21 (black on white)."""
    la, lb = _luminance(a), _luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def _luminance(color: Color) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(color.r) + 0.7152 * channel(color.g) + 0.0722 * channel(color.b)


def _theme_colours(app: App[object]) -> tuple[Color, Color]:
    """The theme's (foreground, background): what a cell with no colour of its own shows."""
    background = Color.parse(app.current_theme.background or "#000000")
    return Color.parse(app.current_theme.foreground or "#ffffff"), background


def _drawn_strips(app: App[object]) -> list[Strip]:
    """The screen's lines as the driver writes them (through the app's line filters)."""
    _, background = _theme_colours(app)
    strips = []
    for strip in app.screen._compositor.render_strips():  # noqa: SLF001
        for line_filter in app.get_line_filters():
            strip = strip.apply_filter(line_filter, background)
        strips.append(strip)
    return strips


def drawn_cells(app: App[object]) -> list[Cell]:
    """Every run of visible text on screen now, with its contrast."""
    foreground, background = _theme_colours(app)
    cells: list[Cell] = []
    for row, strip in enumerate(_drawn_strips(app)):
        for segment in strip:
            cells.extend(_cell(segment, row, foreground, background))
    return cells


def background_at(app: App[object], x: int, y: int) -> Color:
    """The colour behind the cell at column ``x`` of row ``y``, as drawn."""
    foreground, background = _theme_colours(app)
    strip = _drawn_strips(app)[y].crop(x, x + 1)
    style = next((segment.style for segment in strip if segment.style), None)
    return background if style is None else _colours(style, foreground, background)[1]


def _cell(segment: Segment, row: int, foreground: Color, background: Color) -> list[Cell]:
    text, style = segment.text, segment.style
    if not text.strip() or style is None or segment.control:
        return []
    fg, bg = _colours(style, foreground, background)
    return [Cell(text.strip(), contrast(fg, bg), fg.hex, bg.hex, row)]


def _colours(style: Style, foreground: Color, background: Color) -> tuple[Color, Color]:
    """A cell's (text, background) colours as seen; the theme's where it has none."""
    fg = Color.from_rich_color(style.color) if style.color and style.color.triplet else foreground
    bg = (
        Color.from_rich_color(style.bgcolor)
        if style.bgcolor and style.bgcolor.triplet
        else background
    )
    return (bg, fg) if style.reverse else (fg, bg)


#: WCAG's AA level for text.  A card keeps the deck's colours in every theme: its value,
#: bold and alone, is faint on purpose when the card is not a choice now (dimmed toward the
#: card's colour), and must stay legible then too.
READABLE: float = 4.5
READABLE_FAINT_CARD: float = 2.5
DECK_COLOURS = frozenset(Color.parse(value_colours(v)[0]).hex for v in range(-2, 13))


def unreadable(app: App[object], rows: range | None = None) -> list[Cell]:
    """The text on screen (in ``rows``, else all) below its contrast (box lines and dots are
    left out: they draw edges, they are not read)."""
    return [
        cell
        for cell in drawn_cells(app)
        if (rows is None or cell.row in rows)
        and cell.ratio < (READABLE_FAINT_CARD if cell.background in DECK_COLOURS else READABLE)
        and _is_read(cell.text)
    ]


def _is_read(text: str) -> bool:
    return any(ch.isalnum() for ch in text)
