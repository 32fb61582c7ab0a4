"""Ratings where a player sees them: the lobby's title, the room's seats, Statistics."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.widgets import TabbedContent

from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.room import RoomScreen
from skyjo_tui.screens.stats import StatsScreen
from skyjo_tui.widgets.text import TextTable

from ..server.support import Client
from ..server.test_ratings import leave, play_game
from .players import rows, wait_for

MARKUP_NAME = "[b]Ben[/b]"  # another person's name: shown as typed, never as markup


async def test_a_rated_player_sees_ratings_in_the_lobby_the_room_and_statistics(
    make_app: Callable[..., SkyjoApp], make_server: Callable[..., Any]
) -> None:
    server = await make_server()
    ann, ben = await Client.connect(server, "Ann"), await Client.connect(server, MARKUP_NAME)
    await play_game(ann, ben)
    await leave(ann, ben)
    await ann.close()  # Ann comes back in the app, by name: her statistics continue
    await ben.request("create_table", name="Ben's table", seats=3)
    ratings = {e["name"]: e["rating"] for e in (await ben.request("leaderboard"))["entries"]}
    greedy = (await ben.request("leaderboard"))["bots"][0]["rating"]

    app = make_app(tcp_connector("127.0.0.1", server.port), name="Ann")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: rows(app, LobbyScreen, "#tables") == 1)
            title = app.screen.query_one("#lobby-title")
            await wait_for(pilot, lambda: f"Ann (rating {ratings['Ann']})" in str(title.render()))

            await pilot.press("s")
            await wait_for(pilot, lambda: rows(app, StatsScreen, "#leaderboard") == 2)
            stats = app.screen
            mine = str(stats.query_one("#my-stats").render())
            assert f"Rating {ratings['Ann']} after 1 rated game" in mine
            stats.query_one(TabbedContent).active = "board"
            await pilot.pause()
            board = stats.query_one("#leaderboard", TextTable)
            shown = {
                str(board.get_row_at(r)[1]): str(board.get_row_at(r)[2])
                for r in range(board.row_count)
            }
            assert shown == {name: str(rating) for name, rating in ratings.items()}
            first, second = (int(str(board.get_row_at(r)[2])) for r in range(2))
            assert first >= second  # the board's order is the rating's
            assert str(stats.query_one("#bot-ratings").render()) == f"Bots: greedy {greedy}"

            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.press("enter")  # join Ben's table
            await wait_for(pilot, lambda: rows(app, RoomScreen, "#seats") == 3)
            seats = app.screen.query_one("#seats", TextTable)
            await wait_for(pilot, lambda: str(seats.get_row_at(1)[1]) == "Ann")
            by_name = {
                str(seats.get_row_at(r)[1]).removesuffix(" ★"): str(seats.get_row_at(r)[5])
                for r in range(2)
            }
            assert by_name == {MARKUP_NAME: str(ratings[MARKUP_NAME]), "Ann": str(ratings["Ann"])}
    finally:
        await ben.close()
