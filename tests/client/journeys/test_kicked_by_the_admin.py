"""Journey: the server's admin disconnects Alice (``skyjo-server admin kick``, through the
real admin socket) in the middle of her game. Her screen says plainly that she was
disconnected, and offers the two things left to do: reconnect (back in her seat, the game
as it is) or quit. Nothing under it pretends to work: no lobby where every key says
"not connected", no leave that never reaches the server."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable

import pytest
from textual.pilot import Pilot

from server.app import SkyjoServer
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.i18n import LANGUAGES
from skyjo_tui.link import Link
from skyjo_tui.screens.disconnected import DisconnectedScreen
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.table import TableScreen

from ..players import ready_at_the_listed_table
from ..test_admin_notices import admin
from ..test_network import hosting
from .seen import drawn_in, footer, on_screen, screen_lines, screen_text, until


@contextlib.asynccontextmanager
async def kicked_mid_game(
    make_app: Callable[..., SkyjoApp], server: SkyjoServer
) -> AsyncIterator[tuple[SkyjoApp, Pilot[None], DisconnectedScreen]]:
    """Alice at Bob's table, the game on; the admin kicks her: her app, and the dialog on it."""
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice")
    async with hosting(server.port, "Bob") as bob, app.run_test(size=(80, 24)) as pilot:
        await ready_at_the_listed_table(pilot, "Alice")
        await bob.conn.request({"type": "start_game"})
        await on_screen(pilot, TableScreen)
        await admin(server, "kick", name="alice")
        yield app, pilot, await on_screen(pilot, DisconnectedScreen)


async def test_kicked_by_the_admin_the_screen_says_so_and_reconnect_brings_the_seat_back(
    make_app: Callable[..., SkyjoApp], admin_server: SkyjoServer
) -> None:
    async with kicked_mid_game(make_app, admin_server) as (app, pilot, dialog):
        said = drawn_in(app, dialog.query_one(".dialog"))
        assert "The server's admin disconnected you. Connect again, or quit?" in said, said
        assert "leaves the table" not in screen_text(app)  # nothing says a leave would work
        keys = await footer(pilot)
        assert keys.has("Reconnect") and keys.has("Quit"), keys
        assert app.session is not None and app.session.link is Link.OFFLINE

        await pilot.press("r")  # reconnect: back in her seat, the game as it is
        table = await on_screen(pilot, TableScreen)
        await until(
            pilot, lambda: app.session is not None and app.session.link is Link.ONLINE, "online"
        )
        await until(pilot, lambda: table.view is not None and table.view.seat is not None, "seated")


async def test_kicked_by_the_admin_quit_quits(
    make_app: Callable[..., SkyjoApp], admin_server: SkyjoServer
) -> None:
    async with kicked_mid_game(make_app, admin_server) as (app, pilot, _):
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running, "the app quit")


@pytest.mark.parametrize("home", [False, True], ids=["quit", "home"])
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_dialog_shows_both_ways_out_side_by_side_in_every_language(
    make_app: Callable[..., SkyjoApp], lang: str, home: bool
) -> None:
    """Reconnect and the way out (Quit, or Home) share the line under the question, and the
    footer cuts neither key. The Home button once took the home screen's layout (its id,
    "home"), and stood alone a screen's height below."""
    app = make_app(lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, HomeScreen)
        app.push_screen(DisconnectedScreen(app.tr("error.code.kicked"), home=home))
        dialog = await on_screen(pilot, DisconnectedScreen)
        reconnect = app.tr("disconnected.reconnect")
        (buttons,) = [line for line in screen_lines(app) if f"▶ {reconnect}" in line]
        assert app.tr(f"disconnected.{dialog.leave}") in buttons, screen_text(app)
        keys = await footer(pilot)
        assert not keys.cut, keys
