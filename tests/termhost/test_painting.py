"""A hosted player's terminal shows exactly what the app drew, after many partial updates.

The host paints only the lines an update touches (``server/termhost/painting.py``).
A real ``SessionHost`` runs a small app on an in-memory terminal emulated by
pyte; after every key the emulated terminal must read, cell for cell (text and
colours), as the app's whole screen rendered from scratch.  Wrong crops would
leave stale lines, or shift a strip sideways within its line; a widget wrongly
taken as hidden behind another would leave a hole.
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from textual.app import App, ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Footer, Label

from server.termhost import DoorPlayer, HostLimits, SessionHost, SessionInfo, SessionStart

from .pyteterm import PyteTransport, until, until_alike

SIZE = (60, 16)
BOX = len("[0:0] ")


class Cards(Widget):
    """Three lines of four boxes; the cursor's box is drawn reversed (a line API
    widget, which repaints only the boxes that change)."""

    DEFAULT_CSS = "Cards { width: 26; height: 3; background: darkgreen; }"

    def __init__(self) -> None:
        super().__init__(id="cards")
        self.cursor = 0

    def render_line(self, y: int) -> Strip:
        segments = []
        for column in range(4):
            style = Style(reverse=column == self.cursor, color="yellow")
            segments.append((f"[{y}:{column}]", style))
            segments.append((" ", Style()))
        from rich.segment import Segment

        return Strip([Segment(text, style) for text, style in segments]).extend_cell_length(
            self.size.width, self.rich_style
        )


class PaintedApp(App[None]):
    CSS = """
    Screen { layers: base above; }
    #over { layer: above; offset: 16 3; width: 8; height: 1; background: purple; }
    #top { height: 1; background: blue; }
    #left { width: 12; background: maroon; }
    #side { width: 1fr; }
    #log { height: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        ("right", "cursor(1)", "Right"),
        ("left", "cursor(-1)", "Left"),
        ("l", "log", "Log"),
    ]

    def __init__(self, info: SessionInfo) -> None:
        super().__init__()
        self.lines = 0

    def compose(self) -> ComposeResult:
        yield Label("a status line at the top", id="top")
        with Horizontal():
            yield Label("left\ncolumn", id="left")
            with Vertical():
                yield Label("above the cards")
                yield Cards()
                yield Label("below the cards")
            with Vertical(id="side"):
                yield Label("", id="log")
        # On top of part of the cards: what is behind it is painted only where it shows.
        yield Label("on top", id="over")
        yield Footer()

    def action_cursor(self, step: int) -> None:
        cards = self.query_one(Cards)
        before, cards.cursor = cards.cursor, (cards.cursor + step) % 4
        # Only the two boxes that changed: a region inside the widget, between its edges.
        cards.refresh(*(Region(column * BOX, 0, BOX, 3) for column in (before, cards.cursor)))

    def action_log(self) -> None:
        self.lines += 1
        self.query_one("#log", Label).update("\n".join(f"line {n}" for n in range(self.lines)))


async def test_the_terminal_shows_what_the_app_drew_after_every_partial_update() -> None:
    host = SessionHost(PaintedApp, limits=HostLimits(max_sessions=2, idle_timeout=None))
    transport = PyteTransport(SIZE)
    try:
        session = host.open(transport, SessionStart(DoorPlayer("ssh", None), size=SIZE))
        assert session is not None
        await until_alike(session, transport)
        assert "[0:0]" in transport.text
        app = session.app
        assert app is not None
        cursor, lines = 0, 0
        for key in [b"\x1b[C", b"\x1b[C", b"l", b"\x1b[D", b"l", b"l", b"\x1b[C"] * 3:
            session.feed(key)
            if key == b"l":
                lines += 1
            else:
                cursor = (cursor + (1 if key == b"\x1b[C" else -1)) % 4
            # The key has reached the app, then its frame the terminal.
            expected = (cursor, lines)
            await until(
                lambda: (app.query_one(Cards).cursor, app.lines) == expected,  # noqa: B023
                "the app got the key",
            )
            await until_alike(session, transport)
        assert "line 8" in transport.text
    finally:
        await host.close()
