"""The room at 80 columns, as its host opens it from the New table dialog: the rules line says
every rule (on a second line when they don't fit one), and the seats' table fits beside the
chat, a long name cut with "…", its last column whole and apart from the chat's frame."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Button, Input

from server.app import SkyjoServer
from server.netclient import ServerConnection
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.i18n import LANGUAGES
from skyjo_tui.screens.create_table import CreateTableScreen
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.room import RoomScreen
from skyjo_tui.widgets.chat import ChatPanel
from skyjo_tui.widgets.text import Select

from .journeys.seen import drawn_words, on_screen, screen_lines, screen_text, until

#: Every variant away from its default, a turn timer and no hints: the longest rules line.
CHOSEN = {
    "variant-starter": "closer-starts",
    "variant-clear-columns": "off",
    "variant-closer-penalty": "off",
    "hints": False,
}
RULES = {
    "de": "Partie bis 100 Punkte · Beender beginnt · Spalten bleiben · ohne Strafe"
    " · 15 s pro Zug · ohne Tipps",
    "es": "Partida a 100 puntos · empieza quien cerró · columnas se quedan · sin castigo"
    " · 15 s por turno · sin pistas",
    "it": "Partita a 100 punti · inizia chi ha chiuso · colonne restano · senza penalità"
    " · 15 s a turno · senza consigli",
    "nl": "Spel tot 100 punten · afsluiter begint · kolommen blijven · geen straf"
    " · 15 s per beurt · geen tips",
    "en": "Game to 100 points · closer starts · columns stay · no penalty · 15 s per turn"
    " · no hints",
    "fr": "Partie en 100 points · le fermeur commence · colonnes gardées · sans pénalité"
    " · 15 s par tour · sans conseils",
}
LAST_HEADER = {
    "de": "Wertung",
    "en": "Rating",
    "es": "Nivel",
    "fr": "Cote",
    "it": "Livello",
    "nl": "Rating",
}
HOST, GUEST = "Alexandrine-Marie123", "Bartholomew-Jones-X"  # 20 and 19 of the 20 allowed


@asynccontextmanager
async def a_full_room_at_80_columns(
    make_app: Callable[..., SkyjoApp],
    server: SkyjoServer,
    lang: str,
    size: tuple[int, int] = (80, 24),
    **options: Any,
) -> AsyncIterator[tuple[SkyjoApp, RoomScreen]]:
    """The host's app at 80x24 (or ``size``) in ``lang``, in the room it opened from the New
    table dialog (``CHOSEN`` and a 15 s timer), where a guest of a long name sits down."""
    app = make_app(tcp_connector("127.0.0.1", server.port), name=HOST, lang=lang, **options)
    guest = await ServerConnection.open("127.0.0.1", server.port)
    try:
        await guest.hello(name=GUEST)
        async with app.run_test(size=size) as pilot:
            yield app, await in_a_full_room(pilot, guest)
    finally:
        await guest.close()


async def in_a_full_room(pilot: Pilot[Any], guest: ServerConnection) -> RoomScreen:
    await on_screen(pilot, LobbyScreen)
    await pilot.press("n")
    dialog = await on_screen(pilot, CreateTableScreen)
    for name, value in CHOSEN.items():
        dialog.query_one(f"#{name}", Select).value = value
    dialog.query_one("#timer", Input).value = "15"
    await pilot.press("ctrl+s")
    room = await on_screen(pilot, RoomScreen)
    await guest.request({"type": "join_table", "code": room.table["code"]})
    await until(pilot, lambda: GUEST[:10] in screen_text(pilot.app), "the guest seated")
    await pilot.pause()
    return room


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_rooms_rules_are_read_whole_at_80_columns(
    make_app: Callable[..., SkyjoApp], server: SkyjoServer, lang: str
) -> None:
    async with a_full_room_at_80_columns(make_app, server, lang) as (app, room):
        rules = room.query_one("#room-rules")
        assert drawn_words(app, rules) == RULES[lang], screen_text(app)


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_seats_fit_beside_the_chat_at_80_columns(
    make_app: Callable[..., SkyjoApp], server: SkyjoServer, lang: str
) -> None:
    async with a_full_room_at_80_columns(make_app, server, lang) as (app, room):
        seats, chat = room.query_one("#seats"), room.query_one(ChatPanel)
        header = screen_lines(app)[seats.region.y][: chat.region.x]
        assert header.rstrip().endswith(LAST_HEADER[lang]), screen_text(app)
        assert header.endswith(" "), f"the header runs into the chat's frame: {header!r}"
        names = drawn_words(app, seats)
        assert f"{HOST[:8]}" in names and "…" in names, screen_text(app)


@pytest.mark.parametrize("size", [(60, 49), (61, 41)])
async def test_on_a_phone_upright_the_chat_is_under_the_seats_and_the_rules_whole(
    make_app: Callable[..., SkyjoApp], server: SkyjoServer, size: tuple[int, int]
) -> None:
    """Beside the seats, the chat took half of a phone's width: the seats' table and the rules
    line were cut. Upright, the chat is under them, everything read across the screen."""
    touch = {"SKYJO_IN_PAGE": "1", "SKYJO_TOUCH": "1"}
    async with a_full_room_at_80_columns(make_app, server, "en", size, environ=touch) as (
        app,
        room,
    ):
        seats, chat = room.query_one("#seats"), room.query_one(ChatPanel)
        assert chat.region.y >= seats.region.bottom and chat.region.width == size[0]
        assert drawn_words(app, room.query_one("#room-rules")) == RULES["en"], screen_text(app)
        header = screen_lines(app)[seats.region.y]
        assert header.rstrip().endswith(LAST_HEADER["en"]), screen_text(app)


async def test_on_a_phone_upright_the_lobbys_chat_is_under_the_tables(
    make_app: Callable[..., SkyjoApp], server: SkyjoServer
) -> None:
    touch = {"SKYJO_IN_PAGE": "1", "SKYJO_TOUCH": "1"}
    app = make_app(tcp_connector("127.0.0.1", server.port), name=HOST, environ=touch)
    async with app.run_test(size=(60, 49)) as pilot:
        lobby = await on_screen(pilot, LobbyScreen)
        await pilot.pause()
        tables, chat = lobby.query_one("#lobby-tables"), lobby.query_one(ChatPanel)
        assert chat.region.y >= tables.region.bottom and chat.region.width == 60
        assert tables.region.width == 60
        await pilot.resize_terminal(100, 30)  # the phone on its side: the chat beside
        await until(pilot, lambda: chat.region.x >= tables.region.right, "the chat beside")
        await pilot.resize_terminal(60, 49)  # upright again
        await until(pilot, lambda: chat.region.y >= tables.region.bottom, "the chat under")


@pytest.mark.parametrize("size", [(60, 49), (97, 18), (84, 18), (80, 24)])
async def test_the_new_table_form_on_a_phone_asks_no_typing_and_shows_its_buttons(
    make_app: Callable[..., SkyjoApp], server: SkyjoServer, size: tuple[int, int]
) -> None:
    """On a touch screen the form opens with no text field focused (the phone's keyboard
    came up over it, though its defaults need no typing), no empty error bar under its
    fields, and Create and Cancel in view on a phone on its side (they were below its fold)."""
    touch = {"SKYJO_IN_PAGE": "1", "SKYJO_TOUCH": "1"}
    app = make_app(tcp_connector("127.0.0.1", server.port), name=HOST, environ=touch)
    async with app.run_test(size=size) as pilot:
        await on_screen(pilot, LobbyScreen)
        await pilot.press("n")
        dialog = await on_screen(pilot, CreateTableScreen)
        await pilot.pause()
        assert not isinstance(app.focused, Input), app.focused
        assert not dialog.query_one("#create-error").display
        visible = dialog.query_one(".dialog").content_region
        for button in dialog.query(Button).results(Button):
            assert visible.contains_region(button.region), (button, screen_text(app))
