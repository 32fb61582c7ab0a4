"""Drawing one card, at any of the layout's sizes, as lines of Rich text.

Colours follow the physical deck (-2 and -1 dark blue, 0 light blue, 1-4
green, 5-8 yellow, 9-12 red) and the value is always printed, so the table
reads the same in monochrome. The states that matter when colour is gone are
drawn with shapes too: the cursor has a heavy border (``[12]`` on one line),
the last move a double border (``*12*``), the coach's hint a dashed border with
round corners (``>12<``; under the cursor, heavy and dashed, ``<12>`` on one line), and
face-down cards a hatched back.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Final

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from ..layout import CardSize

#: (background, text) per value, from the physical deck.  Each is one of the
#: 256 colours (a 256-colour terminal shows it exactly) whose nearest of the 16
#: basic colours is the one it stands for: blue, bright cyan, green, bright
#: yellow, red; the back's is grey, unlike any face.
_DARK_BLUE: Final = ("#0000af", "#ffffff")
_LIGHT_BLUE: Final = ("#87d7ff", "#000000")
_GREEN: Final = ("#00af00", "#000000")
_YELLOW: Final = ("#ffd75f", "#000000")
_RED: Final = ("#d70000", "#ffffff")
_BACK: Final = ("#5f5f87", "#8787af")
_BORDER: Final = "#1c1c1c"
_CURSOR: Final = "#ffffff"
_HIGHLIGHT: Final = "#ff5fff"
#: The coach's hint: bright cyan (the 16 colours' nearest too), far from the last move's
#: pink and the cursor's white.
_HINT: Final = "#5fffff"
_EMPTY: Final = "#585858"
_FRAME: Final = "#000000"
#: The style of unstyled cells (never None: see ``text_segments``).
PLAIN: Final = Style.null()


def value_colours(value: int) -> tuple[str, str]:
    if value < 0:
        return _DARK_BLUE
    if value == 0:
        return _LIGHT_BLUE
    if value <= 4:
        return _GREEN
    if value <= 8:
        return _YELLOW
    return _RED


class Face(str, Enum):
    UP = "up"
    DOWN = "down"
    GONE = "gone"  # a removed column, or no card on this pile


@dataclass(frozen=True, slots=True)
class CardLook:
    """Everything that decides how one card is drawn."""

    face: Face
    value: int = 0
    cursor: bool = False
    highlight: bool = False  # the last move changed it
    hint: bool = False  # the coach's hint is about it
    muted: bool = False  # not a choice in the current mode

    @classmethod
    def of(cls, value: int | None, **flags: bool) -> CardLook:
        return cls(Face.DOWN, **flags) if value is None else cls(Face.UP, value, **flags)


_LIGHT_BOX: Final = "┌─┐│└┘"
_HEAVY_BOX: Final = "┏━┓┃┗┛"
_DOUBLE_BOX: Final = "╔═╗║╚╝"
_DASHED_BOX: Final = "╭┄╮┆╰╯"
_HEAVY_DASHED_BOX: Final = "┏┅┓┇┗┛"  # the cursor on the hint's card


def draw_card(look: CardLook, size: CardSize, caption: str = "") -> list[Text]:
    """``size.height`` lines of exactly ``size.width`` cells.

    ``caption`` (a pile's count) is written in the bottom edge of a boxed
    card, where it cannot be taken for the card's value.
    """
    if size.boxed:
        return _boxed(look, size, caption)
    return [_inline(look, size.width)]


# Only splits styled text into segments (never prints): shared, stateless.
_SEGMENTER: Final = Console(
    file=io.StringIO(), width=1000, color_system="truecolor", legacy_windows=False
)


def text_segments(text: Text) -> list[Segment]:
    """One line of text as the segments a Textual ``Strip`` is made of.

    Every segment gets a style, if only ``PLAIN``: Textual's monochrome filter
    (NO_COLOR) fails on a segment without one.
    """
    base = _SEGMENTER.get_style(text.style) if text.style else None  # render() leaves it out
    segments = Segment.apply_style(text.render(_SEGMENTER, end=""), style=base)
    return [Segment(s.text, s.style or PLAIN) for s in segments if s.text]


@lru_cache(maxsize=4096)
def card_segments(look: CardLook, size: CardSize) -> tuple[tuple[Segment, ...], ...]:
    """``draw_card`` as segments, computed once per look and size (a table has few)."""
    return tuple(tuple(text_segments(line)) for line in draw_card(look, size))


def blank(size: CardSize) -> list[Text]:
    return [Text(" " * size.width) for _ in range(size.height)]


def _colours(look: CardLook) -> tuple[str, str]:
    return value_colours(look.value) if look.face is Face.UP else _BACK


def _label(look: CardLook) -> str:
    if look.face is Face.UP:
        return f"{look.value:>2}"
    return "░░" if look.face is Face.DOWN else "··"


def _inline(look: CardLook, width: int) -> Text:
    """One line: ``' 12 '``, ``'[12]'`` under the cursor, ``'>12<'`` the hint's (``'<12>'``
    under the cursor), ``'*12*'`` just played."""
    if look.face is Face.GONE:
        return Text(f" {'··':^{width - 2}} ", style=Style(color=_EMPTY))
    bg, fg = _colours(look)
    left, right = _inline_edges(look)
    body = Style(color=fg, bgcolor=bg, bold=look.face is Face.UP, dim=look.muted)
    edge = _edge_style(look, bg)
    text = Text()
    text.append(left, edge)
    text.append(f"{_label(look):^{width - 2}}", body)
    text.append(right, edge)
    return text


def _inline_edges(look: CardLook) -> tuple[str, str]:
    # The cursor first, then the hint (what to do now), then the last move. The cursor on
    # the hint's card keeps both: the hint's angles turned out, round it as brackets are.
    if look.cursor:
        return ("<", ">") if look.hint else ("[", "]")
    if look.hint:
        return ">", "<"
    return ("*", "*") if look.highlight else (" ", " ")


def _box(look: CardLook) -> str:
    if look.cursor:
        return _HEAVY_DASHED_BOX if look.hint else _HEAVY_BOX
    if look.hint:
        return _DASHED_BOX
    return _DOUBLE_BOX if look.highlight else _LIGHT_BOX


def _edge_style(look: CardLook, bg: str) -> Style:
    # The cursor, the hint and the last move are framed on black: they stand out
    # the same way on every card colour, light or dark, and in every theme.
    if look.cursor and not look.hint:
        return Style(color=_CURSOR, bgcolor=_FRAME, bold=True)
    if look.hint:
        return Style(color=_HINT, bgcolor=_FRAME, bold=True)
    if look.highlight:
        return Style(color=_HIGHLIGHT, bgcolor=_FRAME, bold=True)
    return Style(color=_BORDER, bgcolor=bg, dim=look.muted)


def _boxed(look: CardLook, size: CardSize, caption: str = "") -> list[Text]:
    width, height = size.width, size.height
    if look.face is Face.GONE:
        middle = Text(f"{'··':^{width}}", style=Style(color=_EMPTY))
        return [Text(" " * width) if row != height // 2 else middle for row in range(height)]
    bg, fg = _colours(look)
    box = _box(look)
    edge = _edge_style(look, bg)
    inner = width - 2
    lines = [Text(box[0] + box[1] * inner + box[2], edge)]
    for row in range(1, height - 1):
        lines.append(
            _boxed_row(look, row, height, inner, box[3], edge, Style(color=fg, bgcolor=bg))
        )
    if len(caption) + 2 <= inner:
        caption = f" {caption} " if caption else ""
    elif len(caption) > inner:
        caption = ""
    lines.append(Text(box[4] + f"{caption:{box[1]}^{inner}}" + box[5], edge))
    return lines


def _boxed_row(
    look: CardLook, row: int, height: int, inner: int, side: str, edge: Style, body: Style
) -> Text:
    label = _label(look)
    if look.face is Face.DOWN:
        content = "░" * inner
    elif row == height // 2:
        content = f"{label:^{inner}}"
    elif height >= 5 and row == 1:
        content = f"{label.strip():<{inner}}"  # the corner index of a real card
    elif height >= 5 and row == height - 2:
        content = f"{label.strip():>{inner}}"
    else:
        content = " " * inner
    text = Text(side, edge)
    text.append(content, body + Style(bold=row == height // 2, dim=look.muted))
    text.append(side, edge)
    return text
