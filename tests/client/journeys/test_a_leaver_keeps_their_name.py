"""Journeys: who played a game keeps their name on it, whoever leaves the table and whenever.

A person leaves at every phase (the room, mid-game, between rounds, the game over, after a
rematch); those who stay, and those who come back, read each board, the game over and the
log with the names of who played them, never the next person's, nor "#3". Someone who sits
down at a finished table takes a seat for the rematch, not the game over of the one who
left it. Through the real server socket and the real app.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

import pytest
from textual.pilot import Pilot

from server.app import SkyjoServer
from server.netclient import ServerConnection
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.navigator import find_screen
from skyjo_tui.screens.game_over import GameOverScreen
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.room import RoomScreen
from skyjo_tui.screens.round_summary import RoundSummaryScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.line_log import LineLog
from skyjo_tui.widgets.results import ResultsTable
from skyjo_tui.widgets.tableau import TableauWidget

from ..players import KeyboardPlayer, my_move, play_to_game_over, rows
from ..test_network import Opponent, hosting
from .seen import a_hosted_game, drawn_in, on_screen, prompt_line, screen_text, until


def numbered(text: str) -> bool:
    """Whether ``text`` names someone by a seat number ("#3"): what the app says of a
    player it has no name for."""
    return re.search(r"#\d", text) is not None


def board_words(app: SkyjoApp, seat: int) -> str:
    """What is drawn on the board of ``seat``: its name line, then its cards."""
    table = find_screen(app, TableScreen)
    assert table is not None, "no table screen"
    for board in table.query(TableauWidget):
        if board.seat == seat:
            return drawn_in(app, board)
    raise AssertionError(f"no board for seat {seat}")


def names_on_boards(app: SkyjoApp, names: Mapping[int, str]) -> bool:
    """Each seat's board is named for whoever played it (and for nobody else)."""
    return all(
        board_words(app, seat).lstrip("»").startswith(name)
        and not any(other in board_words(app, seat) for other in names.values() if other != name)
        for seat, name in names.items()
    )


def log_lines(app: SkyjoApp) -> list[str]:
    table = find_screen(app, TableScreen)
    assert table is not None, "no table screen"
    return table.query_one("#log", LineLog).lines


def assert_the_game_over_names(app: SkyjoApp, you: str, names: Mapping[int, str]) -> None:
    """The game over on screen names each player as they played (we are "You"), its winners
    the view's."""
    over = app.screen
    assert isinstance(over, GameOverScreen), type(over).__name__
    results = drawn_in(app, over.query_one(ResultsTable))
    title = str(over.query_one("#winners").render())
    others = [name for name in names.values() if name != you]
    assert all(name in results for name in others) and "You" in results, results
    assert you not in results and not numbered(results), results
    winners = {names[seat] for seat in over.summary.winners}
    assert you not in title and not numbered(title), title
    assert all((name in title) == (name in winners) for name in others), (title, winners)
    assert ("You" in title) == (you in winners), (title, winners)


def assert_the_log_names(app: SkyjoApp, you: str, others: list[str]) -> None:
    """The log credits the others' moves to them, ours to "You": never our own name."""
    lines = log_lines(app)
    assert not any(you in line or numbered(line) for line in lines), lines
    for name in others:
        assert any(line.startswith(f"{name} turned up") for line in lines), (name, lines)


def seat_is(app: SkyjoApp, seat: int, name: str | None) -> bool:
    seats = (app.heard.table or {}).get("seats") or []
    taken = seats[seat] if seat < len(seats) else None
    return (taken is None and name is None) or (taken is not None and taken["name"] == name)


async def test_a_leaver_at_the_game_over_keeps_their_name_for_the_one_who_stays(
    make_app: Callable[..., SkyjoApp], make_server: Callable
) -> None:
    """Bob and Alice play to the game over; Bob leaves. Alice reads Bob over his cards, in
    the game over and in the log: at once, back after closing the app, once Carol sits
    down in the seat Bob emptied, and after the rematch with Carol."""
    server: SkyjoServer = await make_server()
    address = f"127.0.0.1:{server.port}"
    names = {0: "Bob", 1: "Alice"}
    async with hosting(server.port, "Bob", end_score=10) as bob:
        app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice", server_label=address)
        async with app.run_test(size=(80, 24)) as pilot:
            await a_hosted_game(pilot, bob)
            await play_to_game_over(pilot, app, KeyboardPlayer(pilot))
            await bob.conn.request({"type": "leave_table"})
            await until(pilot, lambda: seat_is(app, 0, None), "Bob's seat empty")
            await pilot.press("escape")
            await on_screen(pilot, TableScreen)
            await until(pilot, lambda: names_on_boards(app, names), "Bob and Alice's boards")
            await pilot.press("s")
            await on_screen(pilot, GameOverScreen)
            assert_the_game_over_names(app, "Alice", names)
            assert_the_log_names(app, "Alice", ["Bob"])

    # Alice's app closed; she comes back (her saved token) to the finished table.
    again = make_app(tcp_connector("127.0.0.1", server.port), name="Alice", server_label=address)
    async with again.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, GameOverScreen)
        assert_the_game_over_names(again, "Alice", names)
        assert_the_log_names(again, "Alice", ["Bob"])

        carol_conn = await ServerConnection.open("127.0.0.1", server.port)
        carol = Opponent(carol_conn)
        try:
            await carol_conn.hello(name="Carol")
            carol.start()
            assert again.heard.table is not None
            await carol_conn.request(
                {"type": "join_table", "table_id": again.heard.table["table_id"]}
            )
            await until(pilot, lambda: seat_is(again, 0, "Carol"), "Carol in Bob's seat")
            await pilot.press("escape")
            await on_screen(pilot, TableScreen)
            await until(pilot, lambda: names_on_boards(again, names), "Bob's board still his")

            # The rematch: Carol plays the first seat now, and the boards say so.
            await pilot.press("s")
            await on_screen(pilot, GameOverScreen)
            await pilot.press("r")
            await carol_conn.request({"type": "rematch"})
            await until(
                pilot, lambda: "Turn up" in prompt_line(again), "the rematch's first prompt"
            )
            rematch = {0: "Carol", 1: "Alice"}
            await until(pilot, lambda: names_on_boards(again, rematch), "Carol's board")
            # The first game's lines, above the rematch's, still name Bob's moves his.
            assert_the_log_names(again, "Alice", ["Bob"])
        finally:
            await carol.stop()


@contextlib.asynccontextmanager
async def three_seats(port: int, end_score: int) -> AsyncIterator[tuple[Opponent, Opponent]]:
    """Bob, host of a table of three with Dan seated and ready, both playing it (each his
    first legal move); the last seat is for the one who joins from the lobby."""
    bob, dan = [Opponent(await ServerConnection.open("127.0.0.1", port)) for _ in range(2)]
    try:
        await bob.conn.hello(name="Bob")
        await dan.conn.hello(name="Dan")
        created = await bob.conn.request(
            {
                "type": "create_table",
                "name": "Bob",
                "seats": 3,
                "settings": {"end-score": end_score},
            }
        )
        await dan.conn.request({"type": "join_table", "table_id": created["table"]["table_id"]})
        await dan.conn.request({"type": "ready"})
        bob.start()
        dan.start()
        yield bob, dan
    finally:
        await dan.stop()
        await bob.stop()


async def sit_and_play(pilot: Pilot[Any], bob: Opponent) -> None:
    """From the lobby: Enter on Bob's table, ready; Bob starts; the first prompt."""
    app = pilot.app
    await until(pilot, lambda: rows(app, LobbyScreen, "#tables") == 1, "Bob's table")
    await until(pilot, lambda: "2/3" in screen_text(app), "a seat free (Enter sits down)")
    await pilot.press("enter")
    await on_screen(pilot, RoomScreen)
    await pilot.press("r")
    await until(
        pilot,
        lambda: sum(bool(s and s["ready"]) for s in bob.table.get("seats", [])) == 2,
        "Dan and Alice ready, as Bob sees it",
    )
    await bob.conn.request({"type": "start_game"})
    await on_screen(pilot, TableScreen)
    await until(pilot, lambda: "Turn up" in prompt_line(app), "the first prompt")


async def to_the_round_summary(pilot: Pilot[Any]) -> None:
    """Play our moves until the first round's summary is up."""
    app, player = pilot.app, KeyboardPlayer(pilot)

    async def one_step() -> bool:
        table = my_move(app)
        if table is not None:
            await player.play(table)
        return isinstance(app.screen, RoundSummaryScreen)

    for _ in range(3000):
        if await one_step():
            return
        assert not isinstance(app.screen, GameOverScreen), "the game ended in one round"
        await pilot.pause(0.01)
    raise AssertionError("no round summary")


PHASES = ["room", "mid-game", "between rounds", "game over", "after a rematch"]


@pytest.mark.parametrize("phase", PHASES)
async def test_someone_leaves_at_every_phase_and_every_board_keeps_its_name(
    make_app: Callable[..., SkyjoApp], make_server: Callable, phase: str
) -> None:
    """Bob, Dan and Alice at a table of three; Dan leaves at ``phase`` (in the room Erin
    sits down and leaves before the start, and Dan leaves at the game over); Alice
    reads every board, the game over and the log with the names of who played them,
    then again once back after closing her app."""
    server: SkyjoServer = await make_server()
    address = f"127.0.0.1:{server.port}"
    names = {0: "Bob", 1: "Dan", 2: "Alice"}
    # A game to 10 points ends with its first round: to leave between rounds, one to 100.
    end_score = 100 if phase == "between rounds" else 10
    async with three_seats(server.port, end_score) as (bob, dan):
        app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice", server_label=address)
        async with app.run_test(size=(100, 30)) as pilot:
            if phase == "room":
                erin = Opponent(await ServerConnection.open("127.0.0.1", server.port))
                try:
                    await erin.conn.hello(name="Erin")
                    table_id = bob.table["table_id"]
                    await erin.conn.request({"type": "join_table", "table_id": table_id})
                    await erin.conn.request({"type": "leave_table"})
                finally:
                    await erin.stop()
            await sit_and_play(pilot, bob)
            if phase == "mid-game":
                await dan.conn.request({"type": "leave_table"})
            elif phase == "between rounds":
                await to_the_round_summary(pilot)
                await dan.conn.request({"type": "leave_table"})
            if phase == "after a rematch":
                await play_to_game_over(pilot, app, KeyboardPlayer(pilot))
                await pilot.press("r")
                await bob.conn.request({"type": "rematch"})
                await dan.conn.request({"type": "rematch"})
                await until(pilot, lambda: "Turn up" in prompt_line(app), "the rematch")
                await dan.conn.request({"type": "leave_table"})
            await play_to_game_over(pilot, app, KeyboardPlayer(pilot))
            if phase in ("room", "game over"):
                await dan.conn.request({"type": "leave_table"})
            await until(pilot, lambda: seat_is(app, 1, None), "Dan's seat empty")
            await pilot.press("escape")
            await on_screen(pilot, TableScreen)
            await until(pilot, lambda: names_on_boards(app, names), "every board named")
            assert not numbered(screen_text(app))
            await pilot.press("s")
            await on_screen(pilot, GameOverScreen)
            assert_the_game_over_names(app, "Alice", names)
            assert_the_log_names(app, "Alice", ["Bob", "Dan"])

        again = make_app(
            tcp_connector("127.0.0.1", server.port), name="Alice", server_label=address
        )
        async with again.run_test(size=(100, 30)) as pilot:
            await on_screen(pilot, GameOverScreen)
            assert_the_game_over_names(again, "Alice", names)
            assert_the_log_names(again, "Alice", ["Bob", "Dan"])


async def test_a_newcomer_at_a_finished_table_sits_for_the_rematch_not_in_the_leavers_result(
    make_app: Callable[..., SkyjoApp], make_server: Callable
) -> None:
    """Bob, Dan and a bot finish a game; Dan leaves ("2/3 finished" in the lobby). Erin's
    Enter on the table seats her for the rematch: the room says the game is over and how to
    ask for a rematch; no game over of Dan's with her as "You"; Bob still reads Dan's name
    on Dan's board. The rematch deals her in."""
    server: SkyjoServer = await make_server()
    bob = Opponent(await ServerConnection.open("127.0.0.1", server.port))
    dan = Opponent(await ServerConnection.open("127.0.0.1", server.port))
    try:
        await bob.conn.hello(name="Bob")
        await dan.conn.hello(name="Dan")
        created = await bob.conn.request(
            {"type": "create_table", "name": "Bob", "seats": 3, "settings": {"end-score": 10}}
        )
        await dan.conn.request({"type": "join_table", "table_id": created["table"]["table_id"]})
        await dan.conn.request({"type": "ready"})
        await bob.conn.request({"type": "add_bot", "level": "greedy"})
        bob.start()
        dan.start()
        await bob.conn.request({"type": "start_game"})
        app = make_app(tcp_connector("127.0.0.1", server.port), name="Erin")
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: bob.table.get("status") == "finished", "the game over")
            await dan.conn.request({"type": "leave_table"})
            await until(pilot, lambda: "2/3" in screen_text(app), "the table listed 2/3")
            await pilot.press("enter")
            room = await on_screen(pilot, RoomScreen)
            await until(pilot, lambda: "The game is over" in screen_text(app), "the room's line")
            await pilot.press("m")  # the room's rematch key: the server hears it from the room
            await until(pilot, lambda: bob.table["rematch"] == [1], "Erin's rematch, as Bob sees")
            # Every push of her arrival came before the answer to her rematch.
            assert isinstance(app.screen, RoomScreen) and room.my_seat == 1
            assert (
                find_screen(app, TableScreen) is None and find_screen(app, GameOverScreen) is None
            )
            assert bob.table["game_seats"][1]["name"] == "Dan"
            await bob.conn.request({"type": "rematch"})
            await on_screen(pilot, TableScreen)
            await until(pilot, lambda: "Turn up" in prompt_line(app), "the rematch's first prompt")
            table = find_screen(app, TableScreen)
            assert table is not None and table.view is not None and table.view.seat == 1
            assert board_words(app, 1).lstrip("»").startswith("Erin")
    finally:
        await dan.stop()
        await bob.stop()
