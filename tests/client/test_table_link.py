"""A table's link in the browser door's page: the room shows it with a QR code (where there is
room), and a page opened from it goes straight to that table once the player has a name."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import segno

from server.app import SkyjoServer
from server.netclient import ServerConnection
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.qr import QUIET_ZONE, modules_of_lines
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.room import RoomScreen
from skyjo_tui.webpage import PAGE_ENV, TABLE_ENV
from skyjo_tui.widgets.chat import ChatPanel
from skyjo_tui.widgets.table_link import TableLink

from .journeys.seen import on_screen, screen_lines, screen_text, until

PAGE = "http://192.0.2.7:8080"


def drawn_qr(app: SkyjoApp, link: str, size: int) -> list[list[bool]]:
    """The modules of the ``size``-module QR code drawn under the link's line."""
    lines = screen_lines(app)
    (row,) = [y for y, line in enumerate(lines) if link in line]
    column = lines[row].index(link)
    drawn = [line[column : column + size].ljust(size) for line in lines[row + 1 :]]
    return modules_of_lines(drawn[: (size + 1) // 2])


async def test_the_room_shows_the_tables_link_with_a_qr_code_that_reads_as_it(
    make_app: Callable[..., SkyjoApp], server: SkyjoServer
) -> None:
    app = make_app(tcp_connector("127.0.0.1", server.port), name="alice", environ={PAGE_ENV: PAGE})
    async with app.run_test(size=(60, 50)) as pilot:  # a phone in portrait
        await on_screen(pilot, LobbyScreen)
        await pilot.press("n")
        await until(pilot, lambda: app.screen.query("#create"), "the New table dialog")
        await pilot.press("ctrl+s")
        room = await on_screen(pilot, RoomScreen)
        link = f"{PAGE}/t/{room.table['code']}"
        await until(pilot, lambda: link in screen_text(app), "the table's link")
        expected = [
            [not dark for dark in row]
            for row in segno.make(link, error="l", micro=False, boost_error=True).matrix_iter(
                scale=1, border=QUIET_ZONE
            )
        ]
        drawn = drawn_qr(app, link, len(expected))
        # The camera reads light and dark modules; an odd last row is paired with light.
        assert drawn[: len(expected)] == expected, screen_text(app)

        await pilot.resize_terminal(80, 24)  # no room for it: the link alone
        await until(pilot, lambda: "█" not in screen_text(app), "the QR code put away")
        assert link in screen_text(app)


async def test_the_room_shows_no_link_outside_the_page(
    make_app: Callable[..., SkyjoApp], server: SkyjoServer
) -> None:
    app = make_app(tcp_connector("127.0.0.1", server.port), name="alice")
    async with app.run_test(size=(60, 50)) as pilot:
        await on_screen(pilot, LobbyScreen)
        await pilot.press("n")
        await until(pilot, lambda: app.screen.query("#create"), "the New table dialog")
        await pilot.press("ctrl+s")
        room = await on_screen(pilot, RoomScreen)
        await pilot.pause()
        assert "/t/" not in screen_text(app) and not room.query_one("#room-link").display


async def test_a_page_opened_from_a_tables_link_sits_at_that_table_or_watches_it(
    make_app: Callable[..., SkyjoApp], server: SkyjoServer
) -> None:
    host = await ServerConnection.open("127.0.0.1", server.port)
    try:
        await host.hello(name="host")
        reply = await host.request(
            {"type": "create_table", "name": "Friday", "seats": 2, "private": True}
        )
        code = reply["table"]["code"]
        environ = {PAGE_ENV: PAGE, TABLE_ENV: code.lower()}  # typed by hand, perhaps
        bob = make_app(tcp_connector("127.0.0.1", server.port), name="bob", environ=environ)
        async with bob.run_test(size=(80, 24)) as pilot:
            room = await on_screen(pilot, RoomScreen)
            assert room.table["code"] == code and room.my_seat == 1
        # The table is full now: the next one from the link watches.
        carol = make_app(tcp_connector("127.0.0.1", server.port), name="carol", environ=environ)
        async with carol.run_test(size=(80, 24)) as pilot:
            room = await on_screen(pilot, RoomScreen)
            assert room.table["code"] == code and room.my_seat is None
    finally:
        await host.close()


@pytest.mark.parametrize("size", [(61, 41), (60, 45), (60, 49)])
async def test_upright_the_qr_code_keeps_its_room_above_the_chat(
    make_app: Callable[..., SkyjoApp], server: SkyjoServer, size: tuple[int, int]
) -> None:
    """On a phone held upright the room's chat is under the seats: a few rows, so that the
    QR code (friends' cameras open the table by it) is still drawn whole above it."""
    touch = {"SKYJO_IN_PAGE": "1", "SKYJO_TOUCH": "1", PAGE_ENV: "http://192.168.178.23:8080"}
    app = make_app(tcp_connector("127.0.0.1", server.port), name="alice", environ=touch)
    async with app.run_test(size=size) as pilot:
        await on_screen(pilot, LobbyScreen)
        await pilot.press("n")
        await until(pilot, lambda: app.screen.query("#create"), "the New table dialog")
        await pilot.press("ctrl+s")
        room = await on_screen(pilot, RoomScreen)
        await until(pilot, lambda: "/t/" in screen_text(app), "the table's link")
        await pilot.pause()
        assert room.query_one(TableLink).qr_shown, screen_text(app)
        chat = room.query_one(ChatPanel)
        assert chat.region.y >= room.query_one("#room-seats").region.bottom
