"""The lobby's keys fit 80 columns in English and in French, on any page of tables: a
person sees Help and Quit whatever the list holds."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from functools import partial

import pytest

from server.app import SkyjoServer
from server.netclient import ServerConnection
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.widgets.footer import KeyFooter

from .conftest import TEST_LIMITS
from .journeys.seen import footer, on_screen, until
from .players import rows

PAGE, TABLES = 2, 5  # three pages: the middle one has both ways


def moved(app: SkyjoApp, offset: int) -> bool:
    return app.heard.lobby_tables.offset != offset


@pytest.mark.parametrize(
    ("lang", "join", "help_", "quit_"),
    [("en", "Join", "Help", "Quit"), ("fr", "Rejoindre", "Aide", "Quitter")],
)
async def test_the_lobby_keys_fit_80_columns_on_every_page(
    make_app: Callable[..., SkyjoApp],
    make_server: Callable[..., Awaitable[SkyjoServer]],
    lang: str,
    join: str,
    help_: str,
    quit_: str,
) -> None:
    limits = replace(TEST_LIMITS, tables_page=PAGE, tables_per_address=TABLES + 1)
    server = await make_server(limits=limits)
    for number in range(TABLES):
        host = await ServerConnection.open("127.0.0.1", server.port)
        await host.hello(name=f"Host {number}")
        await host.request({"type": "create_table", "name": f"Table {number}", "seats": 2})
        await host.close()
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice", lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: rows(app, LobbyScreen, "#tables") == PAGE, "a page")
        for step, ways in (
            (None, ("]",)),
            ("right_square_bracket", ("[", "]")),
            ("right_square_bracket", ("[",)),
        ):
            if step is not None:
                shown = app.heard.lobby_tables.offset
                await pilot.press(step)
                await until(pilot, partial(moved, app, shown), "the next page")
            await on_screen(pilot, LobbyScreen)  # which fails on any key cut
            keys = await footer(pilot)
            assert keys.descriptions[0] == join and keys.descriptions[-2:] == [help_, quit_]
            # Both ways, as one "[ ] Pages", the way there is no page to dimmed.
            assert [k for k, _ in keys.shown if k in "[]"] == ["[", "]"], keys
            enabled = {
                spot.key.display
                for spot in app.screen.query_one(KeyFooter).drawn or ()
                if spot.key.enabled
            }
            assert {"[", "]"} & enabled == set(ways)
