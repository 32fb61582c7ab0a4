"""Journey: Alice's app is gone when the game ends; she comes back (her saved token) to the
finished table's game over, which offers the review as it did to those who stayed."""

from __future__ import annotations

from collections.abc import Callable

from server.app import SkyjoServer
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.game_over import GameOverScreen
from skyjo_tui.screens.review import ReviewScreen

from ..players import KeyboardPlayer, play_to_game_over
from ..test_network import hosting
from .seen import a_hosted_game, footer_keys, on_screen, until


async def test_back_after_the_end_the_game_over_offers_the_review(
    make_app: Callable[..., SkyjoApp], make_server: Callable
) -> None:
    server: SkyjoServer = await make_server()
    async with hosting(server.port, "Bob", end_score=10) as bob:
        address = f"127.0.0.1:{server.port}"  # the key of Alice's saved token
        app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice", server_label=address)
        async with app.run_test(size=(80, 24)) as pilot:
            await a_hosted_game(pilot, bob)
            await play_to_game_over(pilot, app, KeyboardPlayer(pilot))
            await until(pilot, lambda: footer_keys(app).has("Review"), "Review, staying")
        # The same data directory: the app logs in again with Alice's token.
        again = make_app(
            tcp_connector("127.0.0.1", server.port), name="Alice", server_label=address
        )
        async with again.run_test(size=(80, 24)) as pilot:
            await on_screen(pilot, GameOverScreen)
            await until(pilot, lambda: footer_keys(again).has("Review"), "Review, back")
            await pilot.press("v")
            await on_screen(pilot, ReviewScreen)
