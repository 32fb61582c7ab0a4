"""At the table a key repaints only what it changed, and the terminal still shows the whole
board as the app drew it.

The real client runs in a real ``SessionHost`` against a real lobby, on a terminal
emulated by pyte (the bytes an SSH or browser player would get). A cursor move
used to repaint the player's whole tableau, ten lines at 80x24 (a quarter of a
key's CPU time); it now repaints the row of cards the cursor left and the one it
reached.
"""

from __future__ import annotations

from server.termhost.keyturns import quiet
from skyjo_tui.layout import ROWS
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.tableau import TableauWidget

from .conftest import HostedClients
from .pyteterm import rows_in, until, until_alike

RIGHT, LEFT, UP, DOWN = b"\x1b[C", b"\x1b[D", b"\x1b[A", b"\x1b[B"
TO_THE_TABLE = (
    (b"n", "New table"),
    (b"\x13", "You are the host"),  # ctrl+s: the default rules
    (b"b", "bot"),
    (b"s", "Turn up a card"),
)


def card_rows(own: TableauWidget, pos: int) -> set[int]:
    """The screen rows of the row of cards ``pos`` is in."""
    height = own.card_size.height
    top = own.region.y + 1 + (pos % ROWS) * height
    return set(range(top, top + height))


async def test_a_cursor_move_repaints_only_its_rows_of_cards(hosted: HostedClients) -> None:
    session, transport = await hosted.lobby("ann")
    for key, then in TO_THE_TABLE:
        session.feed(key)
        await until(lambda: then in transport.text, then)  # noqa: B023
    app = session.app
    assert app is not None
    table = app.screen
    assert isinstance(table, TableScreen)
    # The bot turns up its two cards at once: after that, only our keys change the screen.
    assert table.view is not None
    opponent = next(w for w in table.query(TableauWidget) if w.seat != table.view.seat)

    def bot_flipped() -> bool:
        shown = opponent.tableau
        return shown is not None and sum(c is not None for c in shown.cards) == 2

    await until(bot_flipped, "the bot's flips")
    await until_alike(session, transport)
    own = table.query_one("#own", TableauWidget)
    # A first key, not counted: on a busy machine the table's first layouts may still be
    # settling around the first key (two loaded clean-clone runs saw the whole tableau
    # drawn again in the first key's frame, never in a later one).
    before = table.cursor
    session.feed(DOWN)
    await until(lambda: table.cursor != before, "the cursor moved")
    await until(lambda: quiet(app), "the app done with the key")
    await until_alike(session, transport)
    whole = set(range(own.region.y, own.region.bottom))
    for key in [RIGHT, DOWN, LEFT, UP, UP, RIGHT, DOWN, LEFT] * 2:  # a loop within the cards
        before, since = table.cursor, len(transport.writes)
        session.feed(key)
        await until(lambda: table.cursor != before, "the cursor moved")  # noqa: B023
        await until_alike(session, transport)
        assert isinstance(before, int) and isinstance(table.cursor, int)
        moved = card_rows(own, before) | card_rows(own, table.cursor)
        # The key's frame (one write: this terminal has no synchronized updates) is the
        # first to draw the cursor's rows. Other frames may come meanwhile on a busy
        # machine (the footer drawn again as a screen's bindings settle, a restyle) and
        # are not the key's.
        frames = [rows_in(w) & whole for w in transport.writes[since:]]
        written = next((rows for rows in frames if rows & moved), set())
        assert written, "the key's frame wrote nothing"
        assert written <= moved, (
            f"cursor {before} -> {table.cursor}: rows {sorted(written)} written, "
            f"of the tableau's {sorted(whole)}; only {sorted(moved)} changed"
        )
