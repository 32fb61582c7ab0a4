"""A table's link, and its QR code where there is room: a friend's phone joins from it.

Shown in the browser door's page (the app knows the page's address there,
``webpage``): the link opens the page straight at the table.  The QR code is
drawn in text (``qr``) only when the widget has the cells for it whole.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widget import Widget

from ..qr import INK, qr_lines
from ..webpage import table_link


class TableLink(Widget, can_focus=False):
    DEFAULT_CSS = """
    TableLink { height: 1fr; width: 100%; padding: 1 1 0 1; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.link: str | None = None
        self._qr: list[str] = []
        self.display = False  # until a link is known

    def show(self, page: str | None, code: str | None) -> None:
        """The link of the table ``code`` on the page at ``page`` (nothing without both)."""
        link = table_link(page, code) if page and code else None
        if link != self.link:
            self.link = link
            self._qr = qr_lines(link) if link else []
            self.display = link is not None
            self.refresh(layout=True)

    @property
    def qr_shown(self) -> bool:
        """Whether the QR code has room (its lines whole, under the link's line)."""
        width, height = self.content_size
        return bool(self._qr) and height >= len(self._qr) + 1 and width >= len(self._qr[0])

    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis", end="")
        if self.link is None:
            return text
        text.append(self.link, style=Style(underline=True))
        if self.qr_shown:
            for line in self._qr:
                text.append("\n")
                text.append(line, style=INK)
        return text
