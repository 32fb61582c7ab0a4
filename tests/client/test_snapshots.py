"""How the screens look (pytest-textual-snapshot): real positions, no clock, no blinking.

The table is fed the ``game`` pushes a server would send for seeded games
between the engine's bots; the lobby comes from a real server.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from textual.pilot import Pilot

from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.round_summary import RoundSummaryScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.chat import ChatPanel

from .conftest import ThreadedServer
from .players import rows, wait_for
from .scenes import game_pushes, moves, round_over, table_map

SnapCompare = Callable[..., bool]


def show_table(
    players: int, seed: int, until: Any, *, server_bot_names: bool = False
) -> Callable[[Pilot[Any]], Awaitable[None]]:
    async def run_before(pilot: Pilot[Any]) -> None:
        screen = TableScreen(table_map(players, server_bot_names=server_bot_names))
        await pilot.app.push_screen(screen)
        for push in game_pushes(players, seed, until):
            screen.feed_game(push)
        await pilot.pause()

    return run_before


def test_table_two_players_80x24(
    snap_compare: SnapCompare, make_app: Callable[..., SkyjoApp]
) -> None:
    assert snap_compare(make_app(), run_before=show_table(2, 5, moves(17)), terminal_size=(80, 24))


def test_table_three_bots_80x24(
    snap_compare: SnapCompare, make_app: Callable[..., SkyjoApp]
) -> None:
    """The bots as the server names them: whole short names, the points in words."""
    run_before = show_table(4, 7, moves(30), server_bot_names=True)
    assert snap_compare(make_app(), run_before=run_before, terminal_size=(80, 24))


def test_table_eight_players_80x24(
    snap_compare: SnapCompare, make_app: Callable[..., SkyjoApp]
) -> None:
    assert snap_compare(make_app(), run_before=show_table(8, 3, moves(40)), terminal_size=(80, 24))


def test_table_four_players_large(
    snap_compare: SnapCompare, make_app: Callable[..., SkyjoApp]
) -> None:
    assert snap_compare(make_app(), run_before=show_table(4, 7, moves(30)), terminal_size=(160, 50))


def test_table_phone_upright_60x45(
    snap_compare: SnapCompare, make_app: Callable[..., SkyjoApp]
) -> None:
    """A phone held upright: the opponents above, the log, your cards and the piles below."""
    assert snap_compare(make_app(), run_before=show_table(4, 7, moves(30)), terminal_size=(60, 45))


def test_round_summary(snap_compare: SnapCompare, make_app: Callable[..., SkyjoApp]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await show_table(3, 11, round_over)(pilot)
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, RoundSummaryScreen))

    assert snap_compare(make_app(), run_before=run_before, terminal_size=(80, 24))


def test_terminal_too_small(snap_compare: SnapCompare, make_app: Callable[..., SkyjoApp]) -> None:
    assert snap_compare(make_app(), terminal_size=(50, 14))


def test_lobby(
    snap_compare: SnapCompare, make_app: Callable[..., SkyjoApp], server_in_thread: ThreadedServer
) -> None:
    server = server_in_thread

    async def open_tables() -> None:
        for name, seats, settings in (
            ("Ann", 4, {}),
            ("Ben", 2, {"end-score": 50, "closer-penalty": "off"}),
            ("Cat", 8, {"starter": "closer-starts", "clear-columns": "off"}),
        ):
            conn = await server.client(name)
            await conn.request(
                {
                    "type": "create_table",
                    "name": f"{name}'s table",
                    "seats": seats,
                    "settings": settings,
                }
            )

    async def chat() -> None:
        dora = await server.client("Dora")
        await dora.request({"type": "chat", "text": "Anyone for a quick game?", "scope": "lobby"})

    server.run(open_tables())
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Eve")

    async def run_before(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: rows(app, LobbyScreen, "#tables") == 3)
        await server.run_from_other_loop(chat())
        await wait_for(pilot, lambda: "quick game" in app.screen.query_one(ChatPanel).text)
        # Who is here, once the server's push has told of Dora too.
        await wait_for(pilot, lambda: "Dora" in str(app.screen.query_one("#who-here").render()))

    assert snap_compare(app, run_before=run_before, terminal_size=(80, 24))
