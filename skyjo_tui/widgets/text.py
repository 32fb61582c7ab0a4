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
from textual import events, widgets
from textual.content import Content, ContentText
from textual.coordinate import Coordinate
from textual.message import Message
from textual.visual import VisualType
from textual.widgets.data_table import CellType, ColumnKey, RowKey

from server.printable import one_line

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


class Input(widgets.Input):
    """``Input`` whose text is inert, and which keeps what is pasted into it.

    Its value is shown as it is, so a value from elsewhere (a ``--name``, a settings file,
    a name the server refused) that held a terminal's controls wrote them to the terminal
    (its title, its colours): each is kept as U+FFFD instead, and a line break or tab as a
    space (``server.printable.one_line``), whatever sets the value.

    Textual's kept a paste's first line only, and refused a paste longer than the room
    left whole, silently: here a paste's lines are joined by spaces, and what does not fit
    is cut at ``max_length`` with a bell and ``Input.Cut`` (a chat line says so beside it).
    """

    class Cut(Message):
        """A paste was cut to fit the field: ``left_out`` characters of it were not kept."""

        def __init__(self, field: Input, left_out: int) -> None:
            super().__init__()
            self.field = field
            self.left_out = left_out

        @property
        def control(self) -> Input:
            return self.field

    def validate_value(self, value: str) -> str:
        return one_line(value)

    def _on_paste(self, event: events.Paste) -> None:
        event.stop()
        event.prevent_default()  # not Textual's: its first line only, or nothing at all
        text = " ".join(event.text.splitlines())
        if not text:
            return
        start, end = sorted(self.selection)
        left_out = 0
        if self.max_length:
            room = max(0, self.max_length - (len(self.value) - (end - start)))
            text, left_out = text[:room], max(0, len(text) - room)
        if text:
            self.replace(text, start, end)
        if left_out:
            self.app.bell()
            self.post_message(self.Cut(self, left_out))


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
