"""Journey: the lobby says who is here and where, and follows someone sitting down."""

from __future__ import annotations

from collections.abc import Callable

from server.app import SkyjoServer
from server.netclient import ServerConnection
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.lobby import LobbyScreen

from .seen import on_screen, screen_lines, screen_text, until


def who_is_here(app: SkyjoApp) -> str:
    """The lobby's who-is-here line as drawn (its rows joined, the chat beside it left out)."""
    region = app.screen.query_one("#who-here").region
    rows = screen_lines(app)[region.y : region.bottom]
    return " ".join(" ".join(row[region.x : region.right].split()) for row in rows).strip()


async def test_the_lobby_shows_who_is_here_and_follows_bob_sitting_down(
    make_app: Callable[..., SkyjoApp], make_server: Callable
) -> None:
    server: SkyjoServer = await make_server()
    bob = await ServerConnection.open("127.0.0.1", server.port)
    try:
        await bob.hello(name="Bob")
        app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice")
        async with app.run_test(size=(80, 24)) as pilot:
            await on_screen(pilot, LobbyScreen)
            await until(
                pilot,
                lambda: who_is_here(app) == "Here (2): Alice (in the lobby) · Bob (in the lobby)",
                "both of us in the lobby",
            )
            await bob.request({"type": "create_table", "name": "[b]Friday[/b]", "seats": 2})
            await until(
                pilot,
                lambda: "Bob (at [b]Friday[/b])" in who_is_here(app),
                "Bob seated at his table",
            )
            assert who_is_here(app) == "Here (2): Alice (in the lobby) · Bob (at [b]Friday[/b])"
            await bob.close()
            await until(
                pilot, lambda: who_is_here(app) == "Here (1): Alice (in the lobby)", "Bob gone"
            )
            assert "Bob" not in screen_text(app)
    finally:
        await bob.close()
