"""The lobby lists the server's tables a page at a time, kept current by what changed (issue 9, 3)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace

from textual.app import App, ComposeResult
from textual.widgets import DataTable, Label

from server.app import SkyjoServer
from server.netclient import ServerConnection
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.text import TextTable

from .conftest import TEST_LIMITS
from .journeys.seen import footer_keys, on_screen, until
from .players import rows, wait_for

PAGE, TABLES = 5, 7


def seats_shown(app: SkyjoApp, table_id: str) -> str:
    tables = app.screen.query_one("#tables", DataTable)
    return str(tables.get_row(table_id)[1])


async def test_the_lobby_shows_a_page_of_tables_and_follows_their_changes(
    make_app: Callable[..., SkyjoApp], make_server: Callable[..., Awaitable[SkyjoServer]]
) -> None:
    limits = replace(TEST_LIMITS, tables_page=PAGE, tables_per_address=TABLES + 2)
    server = await make_server(limits=limits)
    ids = []
    for number in range(TABLES):  # hosts who dropped: their tables stay listed for the grace
        host = await ServerConnection.open("127.0.0.1", server.port)
        await host.hello(name=f"Host {number}")
        reply = await host.request({"type": "create_table", "name": f"Table {number}", "seats": 2})
        ids.append(reply["table"]["table_id"])
        await host.close()
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: rows(app, LobbyScreen, "#tables") == PAGE)
        more = app.screen.query_one("#more-tables", Label)
        assert more.display and f"1 to {PAGE} of {TABLES}" in str(more.render())
        assert seats_shown(app, ids[0]) == "1/2"

        joiner = await ServerConnection.open("127.0.0.1", server.port)
        await joiner.hello(name="Joiner")
        await joiner.request({"type": "join_table", "table_id": ids[0]})
        await wait_for(pilot, lambda: seats_shown(app, ids[0]) == "2/2")
        await joiner.request({"type": "leave_table"})
        await joiner.close()
        assert rows(app, LobbyScreen, "#tables") == PAGE

        assert app.screen.check_action("page", (1,)) and not app.screen.check_action("page", (-1,))
        await pilot.press("right_square_bracket")  # the next page: the last two tables
        await wait_for(pilot, lambda: rows(app, LobbyScreen, "#tables") == TABLES - PAGE)
        assert f"{PAGE + 1} to {TABLES} of {TABLES}" in str(more.render())
        assert seats_shown(app, ids[PAGE]) == "1/2"
        assert app.screen.check_action("page", (1,)) is None  # no page after: dimmed
        await pilot.press("left_square_bracket")
        await wait_for(pilot, lambda: rows(app, LobbyScreen, "#tables") == PAGE)


async def test_the_list_header_lines_up_with_rows_measured_after_it_was_drawn() -> None:
    """A table's header drawn between new rows' arrival and their measuring (another
    widget on the header's screen line changed meanwhile, e.g. the lobby chat's
    border) is drawn again at the columns' new widths, not kept from before."""

    class OneList(App[None]):
        def compose(self) -> ComposeResult:
            yield TextTable()

    app = OneList()
    async with app.run_test(size=(80, 10)) as pilot:
        table = app.query_one(TextTable)
        table.add_columns("Table", "Seats")
        table.add_row("Short", "1/4")
        await pilot.pause()
        table.clear()  # the same number of rows, longer names: the table keeps its height
        table.add_row("A table with a long name", "1/4")
        table.render_line(0)  # the screen draws the header's line before the table measures
        await pilot.pause()
        header, row = table.render_line(0).text, table.render_line(1).text
        assert header.index("Seats") == row.index("1/4"), (header, row)


async def test_enter_joins_a_table_with_a_seat_and_watches_a_game_going_on(
    make_app: Callable[..., SkyjoApp], make_server: Callable[..., Awaitable[SkyjoServer]]
) -> None:
    """Dan's game is on with a seat still empty (2/3): the footer offers no "Join" there,
    and Enter watches it; on Erin's waiting table Enter is "Join"."""
    server = await make_server()
    dan = await ServerConnection.open("127.0.0.1", server.port)
    erin = await ServerConnection.open("127.0.0.1", server.port)
    try:
        await dan.hello(name="Dan")
        await dan.request({"type": "create_table", "name": "Dan's game", "seats": 3})
        await dan.request({"type": "add_bot", "level": "random"})
        await dan.request({"type": "start_game"})
        await erin.hello(name="Erin")
        await erin.request({"type": "create_table", "name": "Erin's table", "seats": 2})
        app = make_app(tcp_connector("127.0.0.1", server.port), name="Carol")
        async with app.run_test(size=(100, 30)) as pilot:
            await on_screen(pilot, LobbyScreen)
            await until(pilot, lambda: rows(app, LobbyScreen, "#tables") == 2, "both tables")
            tables = app.screen.query_one("#tables", DataTable)
            for name, joins in (("Erin's table", True), ("Dan's game", False)):
                row = next(r for r in range(2) if str(tables.get_row_at(r)[0]) == name)
                tables.move_cursor(row=row)

                def offers_join(joins: bool = joins) -> bool:
                    return footer_keys(app).has("Join") is joins

                await until(pilot, offers_join, f"the footer at {name}")
                assert footer_keys(app).has("Watch")
            await pilot.press("enter")  # on Dan's game: watch it
            table = await on_screen(pilot, TableScreen)
            await until(pilot, lambda: table.view is not None, "the game, watched")
            assert table.view is not None and table.view.seat is None
    finally:
        await dan.close()
        await erin.close()
