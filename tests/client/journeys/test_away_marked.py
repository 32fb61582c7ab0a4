"""Journey: whoever is away is marked away over their cards, whatever their name's length and
however many tableaux share the screen. Bob's table of four: Alice sits, Maximilian
Alexander (a name of the longest kind) too, with a bot; Carol watches. Maximilian's
connection drops: at 80 columns Alice's screen and Carol's (a watcher's four tableaux in a
row) both say "away" over his cards, his name shortened to make room for it.

And with names of every day, in every layout: at a table of three or four, Nina leaves
mid-game and Eve's connection drops; a watcher (three or four tableaux in a row) and a
player (their opponents in bands) read "left" over Nina's cards and "away" over Eve's,
the scores said in fewer words to make room."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from server.app import SkyjoServer
from server.netclient import ServerConnection
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.tableau import TableauWidget

from ..players import ready_at_the_listed_table
from ..test_network import Opponent
from .seen import on_screen, screen_lines, screen_text, until

LONG = "Maximilian Alexander"  # 20 characters: the longest name a server takes by default
SIZE = (80, 24)


def name_line_of(app: SkyjoApp, seat: int) -> str:
    """The words drawn on the name line over ``seat``'s cards."""
    for widget in app.screen.query(TableauWidget):
        if widget.seat == seat:
            region = widget.region
            return " ".join(screen_lines(app)[region.y][region.x : region.right].split())
    return ""


async def marked_away(pilot: Pilot[Any], seat: int, mark: str = "away") -> None:
    """Until the name line over ``seat``'s cards says "away" (or ``mark``)."""
    app = pilot.app
    assert isinstance(app, SkyjoApp)
    await until(
        pilot, lambda: mark in name_line_of(app, seat).split(), f"seat {seat} marked {mark}"
    )


async def test_a_long_named_player_away_is_marked_away_for_players_and_watchers(
    make_app: Callable[..., SkyjoApp], make_server: Callable[..., Any], tmp_path: Path
) -> None:
    server: SkyjoServer = await make_server()
    connect = tcp_connector("127.0.0.1", server.port)
    bob = Opponent(await ServerConnection.open("127.0.0.1", server.port))
    max_ = await ServerConnection.open("127.0.0.1", server.port)
    alice = make_app(connect, name="Alice", data_dir=tmp_path / "alice")
    carol = make_app(connect, name="Carol", data_dir=tmp_path / "carol")
    try:
        await bob.conn.hello(name="Bob")
        table = await bob.conn.request({"type": "create_table", "name": "Four", "seats": 4})
        bob.start()
        await bob.conn.request({"type": "add_bot", "level": "greedy"})
        async with (
            alice.run_test(size=SIZE) as alice_pilot,
            carol.run_test(size=SIZE) as carol_pilot,
        ):
            await ready_at_the_listed_table(alice_pilot, "Alice")
            await max_.hello(name=LONG)
            await max_.request({"type": "join_table", "table_id": table["table"]["table_id"]})
            await max_.request({"type": "ready"})
            await bob.conn.request({"type": "start_game"})
            await on_screen(carol_pilot, LobbyScreen)
            await until(carol_pilot, lambda: "Four" in screen_text(carol), "the table listed")
            await carol_pilot.press("w")
            for pilot in (alice_pilot, carol_pilot):
                await on_screen(pilot, TableScreen)
            seat = next(
                s["seat"] for s in bob.table["seats"] if s is not None and s["name"] == LONG
            )
            await until(alice_pilot, lambda: "Maximilian" in name_line_of(alice, seat), "his name")
            await until(carol_pilot, lambda: "Maximilian" in name_line_of(carol, seat), "his name")
            assert "away" not in name_line_of(alice, seat) + name_line_of(carol, seat)

            await max_.close()  # his connection drops: a bot plays for him in 60 s
            for app, pilot in ((carol, carol_pilot), (alice, alice_pilot)):
                await marked_away(pilot, seat)
                assert name_line_of(app, seat).startswith("Max"), name_line_of(app, seat)
    finally:
        await max_.close()
        await bob.stop()


@pytest.mark.parametrize("seats", [3, 4])
async def test_who_left_or_is_away_is_marked_in_every_layout(
    make_app: Callable[..., SkyjoApp],
    make_server: Callable[..., Any],
    tmp_path: Path,
    seats: int,
) -> None:
    """Nina's table of ``seats``: Alice, Eve (and Dan) sit, Carol watches.
    Nina leaves mid-game, Eve's connection drops: at 80x24 Carol (``seats`` tableaux in a
    row) and Alice (her opponents in bands) read "left" over Nina's cards, "away" over
    Eve's, each name beside its mark."""
    server: SkyjoServer = await make_server()
    connect = tcp_connector("127.0.0.1", server.port)
    nina = await ServerConnection.open("127.0.0.1", server.port)
    eve = await ServerConnection.open("127.0.0.1", server.port)
    dan = await ServerConnection.open("127.0.0.1", server.port)
    alice = make_app(connect, name="Alice", data_dir=tmp_path / "alice")
    carol = make_app(connect, name="Carol", data_dir=tmp_path / "carol")
    try:
        await nina.hello(name="Nina")
        await eve.hello(name="Eve")
        created = await nina.request({"type": "create_table", "name": "Nina's", "seats": seats})
        table_id = created["table"]["table_id"]
        async with (
            alice.run_test(size=SIZE) as alice_pilot,
            carol.run_test(size=SIZE) as carol_pilot,
        ):
            await ready_at_the_listed_table(alice_pilot, "Alice")
            await eve.request({"type": "join_table", "table_id": table_id})
            await eve.request({"type": "ready"})
            if seats == 4:
                await dan.hello(name="Dan")
                await dan.request({"type": "join_table", "table_id": table_id})
                await dan.request({"type": "ready"})
            await nina.request({"type": "start_game"})
            await on_screen(carol_pilot, LobbyScreen)
            await until(carol_pilot, lambda: "Nina's" in screen_text(carol), "the table listed")
            await carol_pilot.press("w")
            for pilot in (alice_pilot, carol_pilot):
                await on_screen(pilot, TableScreen)
            assert alice.heard.table is not None
            seat_of = {s["name"]: s["seat"] for s in alice.heard.table["seats"] if s is not None}
            await nina.request({"type": "leave_table"})  # a bot plays her seat to the end
            await eve.close()  # a bot plays for her in 60 s
            for app, pilot in ((carol, carol_pilot), (alice, alice_pilot)):
                for name, mark in (("Nina", "left"), ("Eve", "away")):
                    await marked_away(pilot, seat_of[name], mark)
                    line = name_line_of(app, seat_of[name]).lstrip("»")
                    assert line.startswith(f"{name} {mark} "), line
    finally:
        await dan.close()
        await eve.close()
        await nina.close()
