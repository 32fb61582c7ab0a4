"""While logging in takes its time, the app says "Connecting to ..."; then the lobby
takes the Connecting screen's place."""

from __future__ import annotations

from collections.abc import Callable

from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.connecting import ConnectingScreen
from skyjo_tui.screens.lobby import LobbyScreen

from .journeys.seen import screen_text
from .players import wait_for
from .relay import Relay


async def test_a_slow_server_shows_connecting_until_it_answers(
    make_app: Callable[..., SkyjoApp], relay: Relay
) -> None:
    relay.hold()  # the server's welcome waits in the relay
    app = make_app(tcp_connector("127.0.0.1", relay.port), name="Alice", server_label="test")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, ConnectingScreen) and "Connecting" in screen_text(app),
        )
        relay.release()
        await wait_for(
            pilot, lambda: isinstance(app.screen, LobbyScreen) and "Lobby" in screen_text(app)
        )
        assert len(app.screen_stack) == 2  # the lobby took the Connecting screen's place
