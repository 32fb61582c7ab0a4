"""Choosing where to sit: watch a waiting table, select an empty seat, sit down there."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.room import RoomScreen
from skyjo_tui.widgets.text import TextTable

from ..server.support import Client, table_with
from .journeys.seen import focused, footer, footer_keys, notes, on_screen, until
from .players import rows, wait_for


def seat_names(room: RoomScreen) -> list[str | None]:
    return [None if s is None else s["name"] for s in room.table.get("seats") or []]


async def test_a_watcher_sits_down_in_the_empty_seat_they_select(
    make_app: Callable[..., SkyjoApp], make_server: Callable[..., Any]
) -> None:
    server = await make_server()
    alice = await Client.connect(server, "Alice")
    await table_with(alice, seats=3)  # Alice at seat 1 of 3
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Bob")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: rows(app, LobbyScreen, "#tables") == 1)
            await pilot.press("w")  # watch the table first: its seats, who sits where
            room: RoomScreen = await on_screen(pilot, RoomScreen)
            keys = await footer(pilot)
            assert keys.has("Sit here") and not keys.has("Ready"), keys
            seats = room.query_one("#seats", TextTable)
            assert seats.cursor_row == 0  # Alice's seat: not free
            await pilot.press("j")
            said = "Select an empty seat first: ↑ and ↓ go through the seats."
            await until(pilot, lambda: said in notes(app), "the note, saying how")
            assert focused(app) == "FittedTable#seats"  # the arrows it names work at once
            assert seat_names(room) == ["Alice", None, None] and room.my_seat is None
            await pilot.press("down", "down", "j")  # the third seat
            await until(pilot, lambda: room.my_seat == 2, "seated in the third seat")
            assert seat_names(room) == ["Alice", None, "Bob"]
            await until(pilot, lambda: footer_keys(app).has("Ready"), "the seated player's keys")
            assert not (await footer(pilot)).has("Sit here")
            await alice.until(
                lambda: (
                    [s and s["name"] for s in alice.last_table["seats"]] == ["Alice", None, "Bob"]
                )
            )
    finally:
        await alice.close()


async def test_on_a_touch_screen_the_note_says_to_tap_a_seat(
    make_app: Callable[..., SkyjoApp], make_server: Callable[..., Any]
) -> None:
    """A phone has no arrows: Sit here on a taken seat says to tap a free one."""
    server = await make_server()
    alice = await Client.connect(server, "Alice")
    await table_with(alice, seats=3)
    touch = {"SKYJO_IN_PAGE": "1", "SKYJO_TOUCH": "1"}
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Bob", environ=touch)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: rows(app, LobbyScreen, "#tables") == 1)
            await pilot.press("w")
            await on_screen(pilot, RoomScreen)
            await pilot.press("j")  # the footer's Sit here, on Alice's seat
            await until(pilot, lambda: "Tap an empty seat first." in notes(app), "the note")
            assert not [note for note in notes(app) if "↑" in note], notes(app)
    finally:
        await alice.close()
