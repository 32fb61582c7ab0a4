"""The room at 80 columns, as its host opens it from the New table dialog: the rules line says
every rule (on a second line when they don't fit one)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from server.app import SkyjoServer
from server.netclient import ServerConnection
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.create_table import CreateTableScreen
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.room import RoomScreen
from skyjo_tui.widgets.text import Select

from .journeys.seen import drawn_words, on_screen, screen_text, until

#: Every variant away from its default, a turn timer and no hints: the longest rules line.
CHOSEN = {
    "variant-starter": "closer-starts",
    "variant-clear-columns": "off",
    "variant-closer-penalty": "off",
    "hints": False,
}
RULES = {
    "en": "Game to 100 points · closer starts · columns stay · no penalty · 15 s per turn"
    " · no hints",
    "fr": "Partie en 100 points · le fermeur commence · colonnes gardées · sans pénalité"
    " · 15 s par tour · sans conseils",
}
HOST, GUEST = "Alexandrine-Marie123", "Bartholomew-Jones-X"  # 20 and 19 of the 20 allowed


@asynccontextmanager
async def in_a_full_room(pilot: Pilot[Any], server: SkyjoServer) -> AsyncIterator[RoomScreen]:
    """The host's room, opened from the New table dialog with ``CHOSEN`` and a 15 s timer;
    a guest of a long name sits down."""
    await on_screen(pilot, LobbyScreen)
    await pilot.press("n")
    dialog = await on_screen(pilot, CreateTableScreen)
    for name, value in CHOSEN.items():
        dialog.query_one(f"#{name}", Select).value = value
    dialog.query_one("#timer", Input).value = "15"
    await pilot.press("ctrl+s")
    room = await on_screen(pilot, RoomScreen)
    guest = await ServerConnection.open("127.0.0.1", server.port)
    try:
        await guest.hello(name=GUEST)
        await guest.request({"type": "join_table", "code": room.table["code"]})
        await until(pilot, lambda: GUEST[:10] in screen_text(pilot.app), "the guest seated")
        await pilot.pause()
        yield room
    finally:
        await guest.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_rooms_rules_are_read_whole_at_80_columns(
    make_app: Callable[..., SkyjoApp], server: SkyjoServer, lang: str
) -> None:
    app = make_app(tcp_connector("127.0.0.1", server.port), name=HOST, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot, in_a_full_room(pilot, server) as room:
        rules = room.query_one("#room-rules")
        assert drawn_words(app, rules) == RULES[lang], screen_text(app)
