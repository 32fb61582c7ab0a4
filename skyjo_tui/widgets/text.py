"""Textual's text widgets, each showing a ``str`` as it is: never as markup.

Textual reads markup in a plain string given to ``Label``, ``Static``,
``Button``, ``Select`` or a ``DataTable`` cell: ``[b]`` is bold, ``[/x]`` a
``MarkupError``, ``[link=...]`` a hyperlink, ``[@click=...]`` an action. Most
words this client shows carry text from other people (names, table names,
chat), often inside a sentence of ours ("{who}'s turn"). So the client never
uses markup at all: every ``str`` it shows is literal text, and styled words
are ``Content`` or Rich ``Text`` built from (text, style) pieces. These
widgets (and ``SkyjoApp.notify``) are the one way words reach the screen;
``tests/client/test_no_markup.py`` checks that no module uses Textual's
own text widgets or parses markup.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any, TypeVar

from rich.console import RenderableType
from rich.text import Text
from textual import widgets
from textual.content import Content, ContentText
from textual.coordinate import Coordinate
from textual.visual import VisualType
from textual.widgets.data_table import CellType, ColumnKey, RowKey

SelectType = TypeVar("SelectType", bound=Hashable)


def literal(text: ContentText) -> Content:
    """``text`` as Content: a ``str`` as it is (never markup); Content and Text keep their styles."""
    return Content(text) if isinstance(text, str) else Content.from_text(text)


def literal_cell(value: Any) -> Any:
    """A ``DataTable`` cell or label: a ``str`` becomes Rich ``Text``, which the table shows as it is."""
    return Text(value, end="") if isinstance(value, str) else value


class Static(widgets.Static):
    """``Static`` without markup: ``update("[/x]")`` shows ``[/x]``."""

    def __init__(self, content: VisualType = "", **options: Any) -> None:
        super().__init__(content, markup=False, **options)


class Label(widgets.Label):
    """``Label`` without markup."""

    def __init__(self, content: VisualType = "", **options: Any) -> None:
        super().__init__(content, markup=False, **options)


class Button(widgets.Button):
    """``Button`` whose label, given or set later, is literal text."""

    def __init__(self, label: ContentText | None = None, *args: Any, **options: Any) -> None:
        super().__init__(None if label is None else literal(label), *args, **options)

    def validate_label(self, label: ContentText) -> Content:
        return literal(label)


class Select(widgets.Select[SelectType]):
    """``Select`` whose options' words are literal text."""

    def __init__(
        self, options: Iterable[tuple[RenderableType, SelectType]], **settings: Any
    ) -> None:
        super().__init__(_literal_options(options), **settings)

    def set_options(self, options: Iterable[tuple[RenderableType, SelectType]]) -> None:
        super().set_options(_literal_options(options))


def _literal_options(
    options: Iterable[tuple[RenderableType, SelectType]],
) -> list[tuple[RenderableType, SelectType]]:
    return [(literal_cell(prompt), value) for prompt, value in options]


class TextTable(widgets.DataTable[CellType]):
    """``DataTable`` whose ``str`` cells and column labels are literal text (Rich ``Text``).

    It also draws its lines again when new rows widen its columns: Textual's
    table measures new rows when idle and keeps every line it drew before at
    the same "update count", so a header drawn between the rows' arrival and
    their measuring (another widget on its screen line changed) stayed at the
    old widths, out of line with the rows, when the table's height did not
    change (the lobby's list: the same number of tables, longer names).
    """

    _measured_widths: tuple[int, ...] = ()
    """The columns' widths the lines were last drawn at."""

    def watch_virtual_size(self) -> None:
        # Set by the table when it has measured new rows (and on every layout).
        widths = tuple(column.get_render_width(self) for column in self.columns.values())
        if widths != self._measured_widths:
            self._measured_widths = widths
            self.notify_style_update()  # Textual's table forgets every line drawn, then redraws

    def add_column(
        self,
        label: Any,
        *,
        width: int | None = None,
        key: str | None = None,
        default: CellType | None = None,
    ) -> ColumnKey:
        return super().add_column(literal_cell(label), width=width, key=key, default=default)

    def add_row(
        self, *cells: CellType, height: int | None = 1, key: str | None = None, label: Any = None
    ) -> RowKey:
        return super().add_row(
            *(literal_cell(cell) for cell in cells),
            height=height,
            key=key,
            label=literal_cell(label),
        )

    def update_cell(
        self,
        row_key: RowKey | str,
        column_key: ColumnKey | str,
        value: CellType,
        *,
        update_width: bool = False,
    ) -> None:
        super().update_cell(row_key, column_key, literal_cell(value), update_width=update_width)

    def update_cell_at(
        self, coordinate: Coordinate, value: CellType, *, update_width: bool = False
    ) -> None:
        super().update_cell_at(coordinate, literal_cell(value), update_width=update_width)
