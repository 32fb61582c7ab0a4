"""Journey: a table's host removes a player. The host's room log says who was removed;
the removed player's lobby says plainly, and lastingly, that the host removed them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot
from textual.widget import Widget

from server.app import SkyjoServer
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.create_table import CreateTableScreen
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.room import RoomScreen
from skyjo_tui.widgets.chat import ChatPanel
from skyjo_tui.widgets.text import TextTable

from ...server.support import Client
from ..test_network import hosting
from .seen import into_the_hosts_room, notes, on_screen, screen_lines, screen_text, until


async def a_new_table(pilot: Pilot[Any]) -> RoomScreen:
    """From the lobby, a new table with the form's defaults: its room."""
    await on_screen(pilot, LobbyScreen)
    await pilot.press("n")
    await on_screen(pilot, CreateTableScreen)
    await pilot.press("ctrl+s")
    return await on_screen(pilot, RoomScreen)


def drawn_in(app: SkyjoApp, widget: Widget) -> str:
    """The words drawn in ``widget``'s box, its wrapped lines joined."""
    box = widget.region
    lines = screen_lines(app)[box.y : box.bottom]
    return " ".join(" ".join(line[box.x : box.right].strip("│ ") for line in lines).split())


async def test_the_hosts_room_says_who_was_removed(
    make_app: Callable[..., SkyjoApp], make_server: Callable
) -> None:
    server: SkyjoServer = await make_server()
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice")
    bob = await Client.connect(server, "Bob")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            room = await a_new_table(pilot)
            await bob.request("join_table", code=room.table["code"])
            await until(pilot, lambda: "Bob" in screen_text(app), "Bob seated")
            seats = room.query_one("#seats", TextTable)
            seats.focus()
            bob_row = next(
                row for row in range(seats.row_count) if "Bob" in str(seats.get_row_at(row)[1])
            )
            seats.move_cursor(row=bob_row)
            await pilot.press("K")
            chat = room.query_one(ChatPanel)
            removed = "You removed Bob from the table."
            await until(pilot, lambda: removed in chat.text, "the room's log")
            assert removed in drawn_in(app, chat), screen_text(app)
            await until(pilot, lambda: "Bob" not in str(seats.get_row_at(bob_row)[1]), "seat")
            assert any(p.get("reason") == "kicked" for p in bob.pushes if p["type"] == "left_table")
    finally:
        await bob.close()


async def test_the_removed_player_is_told_the_host_removed_them(
    make_app: Callable[..., SkyjoApp], make_server: Callable
) -> None:
    server: SkyjoServer = await make_server()
    async with hosting(server.port, "Alice") as alice:
        app = make_app(tcp_connector("127.0.0.1", server.port), name="Bob")
        async with app.run_test(size=(80, 24)) as pilot:
            room: RoomScreen = await into_the_hosts_room(pilot)
            seat = room.my_seat
            assert seat is not None
            await alice.conn.request({"type": "kick", "seat": seat})
            await on_screen(pilot, LobbyScreen)
            told = "The host removed you from the table."
            await until(pilot, lambda: told in notes(app), "the notification")
            app.clear_notifications()  # gone with the toast: the lobby still says it
            await until(pilot, lambda: told not in notes(app), "the toast gone")
            await until(pilot, lambda: told in screen_text(app), "the lobby's line")
            # Sitting down again, then back: old news, no longer said.
            await a_new_table(pilot)
            await pilot.press("l", "y")  # leave, yes
            await on_screen(pilot, LobbyScreen)
            await until(pilot, lambda: told not in screen_text(app), "the line gone")
