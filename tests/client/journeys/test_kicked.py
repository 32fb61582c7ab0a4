"""Journey: a table's host removes a player. The server says so to the table: the host's
room log says "You removed Bob", the other guests' "The host removed Bob"; the removed
player's lobby says plainly, and lastingly, that the host removed them. A removal the
server refused is told to nobody."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from server.app import SkyjoServer
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.create_table import CreateTableScreen
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.room import RoomScreen
from skyjo_tui.widgets.chat import ChatPanel
from skyjo_tui.widgets.text import TextTable

from ..relay import Relay
from ..test_network import hosting
from .seen import drawn_in, focused, into_the_hosts_room, notes, on_screen, screen_text, until


async def a_new_table(pilot: Pilot[Any]) -> RoomScreen:
    """From the lobby, a new table with the form's defaults: its room."""
    await on_screen(pilot, LobbyScreen)
    await pilot.press("n")
    await on_screen(pilot, CreateTableScreen)
    await pilot.press("ctrl+s")
    return await on_screen(pilot, RoomScreen)


@dataclass(frozen=True)
class Person:
    """One of the people at the table: their own app, its pilot, and their room."""

    app: SkyjoApp
    pilot: Pilot[None]
    room: RoomScreen

    @property
    def log(self) -> str:
        """The words drawn in their room's log (its chat, and what it tells of who is here)."""
        return drawn_in(self.app, self.room.query_one(ChatPanel))

    def sees_seated(self, name: str) -> bool:
        return any(name in seated(self.room, row) for row in range(seats_of(self.room).row_count))

    def refusals(self) -> list[str]:
        """The errors their app notified (the server refused a request)."""
        return [str(n.message) for n in self.app._notifications if n.severity == "error"]  # noqa: SLF001


def seats_of(room: RoomScreen) -> TextTable:
    return room.query_one("#seats", TextTable)


def seated(room: RoomScreen, row: int) -> str:
    return str(seats_of(room).get_row_at(row)[1])


async def kick(host: Person, name: str) -> None:
    """The host moves to ``name``'s seat, as their room shows it now, and presses K (with
    keys: three apps run here, and a widget told to move could ask the wrong one)."""
    seats = seats_of(host.room)
    assert host.app.focused is seats, focused(host.app)
    row = next(r for r in range(seats.row_count) if name in seated(host.room, r))
    steps = row - seats.cursor_row
    await host.pilot.press(*(["down"] * steps if steps > 0 else ["up"] * -steps))
    assert name in seated(host.room, seats.cursor_row)
    await host.pilot.press("K")


@contextlib.asynccontextmanager
async def three_in_the_room(
    make_app: Callable[..., SkyjoApp], port: int, data: Path
) -> AsyncIterator[tuple[Person, Person, Person]]:
    """Alice's new table, then Bob and Carol sitting at it, each with their own app (and
    data directory) on the server at ``port``."""
    alice, bob, carol = (
        make_app(tcp_connector("127.0.0.1", port), name=name, data_dir=data / name)
        for name in ("Alice", "Bob", "Carol")
    )
    size = (80, 24)
    async with (
        alice.run_test(size=size) as alice_pilot,
        bob.run_test(size=size) as bob_pilot,
        carol.run_test(size=size) as carol_pilot,
    ):
        host = Person(alice, alice_pilot, await a_new_table(alice_pilot))
        guests = [
            Person(app, pilot, await into_the_hosts_room(pilot))
            for app, pilot in ((bob, bob_pilot), (carol, carol_pilot))
        ]
        await until(
            host.pilot,
            lambda: host.sees_seated("Bob") and host.sees_seated("Carol"),
            "Bob and Carol seated, as the host sees it",
        )
        yield host, guests[0], guests[1]


async def test_everyone_at_the_table_is_told_whom_the_host_removed(
    make_app: Callable[..., SkyjoApp], make_server: Callable, tmp_path: Path
) -> None:
    server: SkyjoServer = await make_server()
    async with three_in_the_room(make_app, server.port, tmp_path) as (alice, bob, carol):
        await kick(alice, "Bob")
        await until(
            alice.pilot, lambda: "You removed Bob from the table." in alice.log, "the host's log"
        )
        await until(
            carol.pilot,
            lambda: "The host removed Bob from the table." in carol.log,
            "the other guest's log",
        )
        assert not carol.sees_seated("Bob")
        assert "The host removed" not in alice.log
        assert "You removed" not in carol.log
        await on_screen(bob.pilot, LobbyScreen)
        told = "The host removed you from the table."
        await until(bob.pilot, lambda: told in screen_text(bob.app), "the removed player's lobby")


async def test_a_removal_the_server_refused_is_told_to_nobody(
    make_app: Callable[..., SkyjoApp], make_server: Callable, tmp_path: Path
) -> None:
    server: SkyjoServer = await make_server()
    link = Relay(server.port)  # held: the host's room still shows Bob after he left
    await link.start()
    try:
        async with three_in_the_room(make_app, link.port, tmp_path) as (alice, bob, carol):
            # A guest may not remove anyone.
            assert await carol.app.call({"type": "kick", "seat": bob.room.my_seat}) is None
            # Bob leaves on his own just as the host removes him: the server refuses her
            # removal (his seat is empty by then), though her room still showed him.
            link.hold()
            await bob.pilot.press("l", "y")  # leave, yes
            await on_screen(bob.pilot, LobbyScreen)  # the server has seen him go
            await kick(alice, "Bob")
            link.release()
            await until(alice.pilot, alice.refusals, "the host told of the refusal")
            assert alice.refusals() == ["That player has already left that seat."]
            await until(alice.pilot, lambda: not alice.sees_seated("Bob"), "Bob gone")
            await until(carol.pilot, lambda: not carol.sees_seated("Bob"), "Bob gone")
            for person in (alice, carol):
                assert "removed" not in person.log, screen_text(person.app)
            assert "removed" not in screen_text(bob.app)
    finally:
        await link.stop()


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
