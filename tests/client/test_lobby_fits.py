"""The lobby's list of tables fits 80 columns whatever the tables' names: a long name gives way
("…"), never the status or the rules; a wide terminal shows it whole. The room's header says
the table's rules in words a person reads."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from server.app import SkyjoServer
from server.lobby.tables import TABLE_NAME_MAX
from server.netclient import ServerConnection
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.i18n import LANGUAGES
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.room import RoomScreen
from skyjo_tui.widgets.table_list import TableList

from .journeys.seen import column_text, drawn_in, on_screen, screen_text, until
from .test_network import label_text

#: As long as the server allows, and markup-like: shown literally, never as markup.
LONG = "[bold red]x[/] [link=http://e.vil]click[/link] me!"[:TABLE_NAME_MAX]
HEADERS = {
    "de": ("Tisch", "Plätze", "Stand", "Regeln"),
    "en": ("Table", "Seats", "Status", "Rules"),
    "es": ("Mesa", "Asientos", "Estado", "Reglas"),
    "fr": ("Table", "Places", "État", "Règles"),
    "it": ("Tavolo", "Posti", "Stato", "Regole"),
    "nl": ("Tafel", "Plaatsen", "Status", "Regels"),
}
SHOWN = {
    "de": ("wartet", "bis 30 · ⏱45s · ohne Tipps"),
    "en": ("waiting", "to 30 · ⏱45s · no hints"),
    "es": ("esperando", "a 30 · ⏱45s · sin pistas"),
    "fr": ("en attente", "en 30 · ⏱45s · sans conseils"),
    "it": ("in attesa", "a 30 · ⏱45s · senza consigli"),
    "nl": ("wacht", "tot 30 · ⏱45s · geen tips"),
}
ROOM_RULES = {
    "de": "Partie bis 30 Punkte · 45 s pro Zug · ohne Tipps",
    "en": "Game to 30 points · 45 s per turn · no hints",
    "es": "Partida a 30 puntos · 45 s por turno · sin pistas",
    "fr": "Partie en 30 points · 45 s par tour · sans conseils",
    "it": "Partita a 30 punti · 45 s a turno · senza consigli",
    "nl": "Spel tot 30 punten · 45 s per beurt · geen tips",
}


async def a_long_named_table(server: SkyjoServer) -> ServerConnection:
    host = await ServerConnection.open("127.0.0.1", server.port)
    await host.hello(name="Host")
    await host.request(
        {
            "type": "create_table",
            "name": LONG,
            "seats": 3,
            "settings": {"end-score": 30},
            "turn_timer": 45,
            "hints": False,
        }
    )
    return host


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_a_long_table_name_leaves_every_column_of_the_lobby_on_screen(
    make_app: Callable[..., SkyjoApp],
    make_server: Callable[..., Awaitable[SkyjoServer]],
    lang: str,
) -> None:
    assert len(LONG) == TABLE_NAME_MAX
    server = await make_server()
    host = await a_long_named_table(server)
    try:
        app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice", lang=lang)
        async with app.run_test(size=(80, 24)) as pilot:
            lobby = await on_screen(pilot, LobbyScreen)
            tables = lobby.query_one("#tables", TableList)
            headers = HEADERS[lang]
            status, rules = SHOWN[lang]
            await until(pilot, lambda: status in screen_text(app), "the table listed")
            await pilot.pause()
            text = screen_text(app)
            assert all(header in text.splitlines()[1] for header in headers), text
            assert column_text(app, tables, headers, headers[2]) == status, text
            assert column_text(app, tables, headers, headers[3]) == rules, text
            name = column_text(app, tables, headers, headers[0])
            assert name.endswith("…") and LONG.startswith(name[:-1].rstrip()), text
            assert tables.virtual_size.width <= tables.size.width, text
            # The table selected: its name whole, under the list.
            assert drawn_in(app, lobby.query_one("#selected-table")) == LONG, text

            await pilot.resize_terminal(160, 40)
            await until(
                pilot,
                lambda: column_text(app, tables, headers, headers[0]) == LONG,
                "the name whole on a wide terminal",
            )
            assert column_text(app, tables, headers, headers[3]) == rules
            assert not lobby.query_one("#selected-table").display

            await pilot.press("enter")  # join it: the room's header, whole
            room = await on_screen(pilot, RoomScreen)
            await pilot.resize_terminal(80, 24)
            await until(pilot, lambda: LONG in screen_text(app), "the room's title")
            assert label_text(room, "#room-rules") == ROOM_RULES[lang]
            assert ROOM_RULES[lang] in screen_text(app)
    finally:
        await host.close()
