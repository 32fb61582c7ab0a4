"""Journeys at a server's tables, over a real socket: host a table and play a round
with Bob, and watch Dan's table to its end (leaving it asks first, no seat to give a bot);
Bob's rematch told at the game over."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from server.app import SkyjoServer
from server.netclient import ServerConnection
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.confirm import ConfirmScreen
from skyjo_tui.screens.create_table import CreateTableScreen
from skyjo_tui.screens.game_over import GameOverScreen
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.review import ReviewScreen
from skyjo_tui.screens.room import RoomScreen
from skyjo_tui.screens.round_summary import RoundSummaryScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.chat import ChatPanel

from ..test_network import Opponent, hosting
from .seen import (
    a_hosted_game,
    focused,
    footer,
    footer_keys,
    in_text_box,
    on_screen,
    play_the_round,
    prompt_line,
    screen_lines,
    screen_text,
    until,
)


async def walk_host_wait_chat_start_play_a_round_and_leave(pilot: Pilot[Any], port: int) -> None:
    app = pilot.app
    assert isinstance(app, SkyjoApp)
    conn = await ServerConnection.open("127.0.0.1", port)
    bob = Opponent(conn)
    try:
        await conn.hello(name="Bob")
        await on_screen(pilot, LobbyScreen)
        await pilot.press("n")
        await on_screen(pilot, CreateTableScreen)
        await pilot.press("ctrl+s")
        room: RoomScreen = await on_screen(pilot, RoomScreen)
        assert "Start" in (await footer(pilot)).descriptions  # we are the host

        # Wait for Bob; he joins by the code the room shows, and says hello.
        code = room.table["code"]
        assert code in screen_text(app)
        bob.start()
        await conn.request({"type": "join_table", "code": code})
        await until(pilot, lambda: "Bob" in screen_text(app), "Bob in the room")
        await conn.request({"type": "chat", "text": "hi Alice", "scope": "table"})
        await conn.request({"type": "ready", "ready": True})
        chat = room.query_one(ChatPanel)
        await until(pilot, lambda: "Bob: hi Alice" in chat.text, "Bob's line")
        await pilot.press("c", *"hi Bob", "enter", "escape")
        await until(
            pilot, lambda: "Alice: hi Bob" in chat.text and not in_text_box(app), "our answer sent"
        )
        assert app.screen is room and focused(app) == "FittedTable#seats"

        # Start once Bob is ready, and play the whole round.
        await until(
            pilot,
            lambda: all(s is None or s["ready"] or s["host"] for s in room.table["seats"]),
            "Bob ready",
        )
        await pilot.press("s")
        table: TableScreen = await on_screen(pilot, TableScreen)
        await until(pilot, lambda: "Turn up" in prompt_line(app), "the first prompt")
        summary = await play_the_round(pilot)
        assert "You" in screen_text(app) and "Bob" in screen_text(app)  # you are "You" to yourself
        if isinstance(summary, RoundSummaryScreen):
            assert (await footer(pilot)).has("Next round") and (await footer(pilot)).has(
                "See the table"
            )
            await pilot.press("escape")  # back to the table: the round is over
            await until(pilot, lambda: app.screen is table, "the table under the summary")
            await pilot.press("q")  # leave, which asks first
            await on_screen(pilot, ConfirmScreen)
            assert "Leave this game?" in screen_text(app)
            await pilot.press("y")
        else:
            await pilot.press("l")
        await on_screen(pilot, LobbyScreen)
        assert app.heard.table is None
    finally:
        await bob.stop()


async def test_host_wait_chat_start_play_a_round_and_leave(
    make_app: Callable[..., SkyjoApp], make_server: Callable
) -> None:
    server: SkyjoServer = await make_server()
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice")
    async with app.run_test(size=(80, 24)) as pilot:
        await walk_host_wait_chat_start_play_a_round_and_leave(pilot, server.port)


async def walk_watch_a_table_to_its_end(pilot: Pilot[Any], port: int) -> None:
    app = pilot.app
    assert isinstance(app, SkyjoApp)
    conn = await ServerConnection.open("127.0.0.1", port)
    dan = Opponent(conn)
    try:
        await conn.hello(name="Dan")
        await conn.request(
            {
                "type": "create_table",
                "name": "Dan's table",
                "seats": 2,
                "settings": {"end-score": 10},
            }
        )
        await conn.request({"type": "add_bot", "level": "greedy"})
        lobby = await on_screen(pilot, LobbyScreen)
        await until(pilot, lambda: "Dan's table  " in screen_text(app), "Dan's table listed")
        assert (await footer(pilot)).has("Watch")
        await pilot.press("w")
        await on_screen(pilot, (RoomScreen, TableScreen))
        assert lobby is not None
        await conn.request({"type": "start_game"})
        await on_screen(pilot, TableScreen)
        await until(
            pilot, lambda: prompt_line(app) == "You are watching this table.", "watching, said"
        )
        assert not (await footer(pilot)).has("Draw") and (await footer(pilot)).has("Leave")
        await pilot.press("d")  # a move key: a watcher is told why nothing happens
        await until(pilot, lambda: "you cannot play here" in prompt_line(app), "why d does nothing")
        await pilot.press("q")  # leaving asks first, and promises no bot for a seat we lack
        await on_screen(pilot, ConfirmScreen)
        assert "Leave this table?" in screen_text(app) and "A bot will" not in screen_text(app)
        await pilot.press("n")  # we stay
        await on_screen(pilot, TableScreen)
        dan.start()  # only now does Dan play (his pushes waited for him)
        for _ in range(3000):  # Dan and his bot play on; Carol only watches
            if isinstance(app.screen, GameOverScreen):
                break
            if isinstance(app.screen, RoundSummaryScreen):
                await pilot.press("escape")  # a watcher has nothing to be ready for
            await pilot.pause(0.02)
        await on_screen(pilot, GameOverScreen, timeout=60)
        assert "Dan" in screen_text(app) and (await footer(pilot)).has("Leave")
        assert not (await footer(pilot)).has("Rematch")  # a watcher has no seat to play again in
        # A watcher reviews the game too: the winner's moves first.
        over = app.screen
        assert isinstance(over, GameOverScreen)
        # Once the game is stored (the table says under which id), the key comes.
        await until(pilot, lambda: footer_keys(app).has("Review"), "Review, once stored")
        winner = next(p.name for p in over.summary.players if p.winner)
        await pilot.press("v")
        await on_screen(pilot, ReviewScreen)
        await until(
            pilot, lambda: f"Review of {winner}'s moves" in screen_text(app), "the winner's review"
        )
        await pilot.press("escape")
        await on_screen(pilot, GameOverScreen)
        await pilot.press("l")
        await on_screen(pilot, LobbyScreen)
    finally:
        await dan.stop()


async def test_watch_a_table_to_its_end(
    make_app: Callable[..., SkyjoApp], make_server: Callable
) -> None:
    server: SkyjoServer = await make_server()
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Carol")
    async with app.run_test(size=(80, 24)) as pilot:
        await walk_watch_a_table_to_its_end(pilot, server.port)


async def test_the_others_rematch_is_told_at_the_game_over(
    make_app: Callable[..., SkyjoApp], make_server: Callable
) -> None:
    """Bob asks for a rematch first: Alice, at the game over, is told so (the log under it),
    and her r starts the new game."""
    server: SkyjoServer = await make_server()
    async with hosting(server.port, "Bob") as bob:
        app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice")
        async with app.run_test(size=(80, 24)) as pilot:
            await a_hosted_game(pilot, bob)
            while not isinstance(await play_the_round(pilot), GameOverScreen):
                await pilot.press("enter")  # the next round
            assert "Bob asks for a rematch" not in screen_text(app)
            await bob.conn.request({"type": "rematch"})
            await until(
                pilot, lambda: "Bob asks for a rematch." in screen_text(app), "Bob's rematch, told"
            )
            assert (await footer(pilot)).has("Rematch")
            await pilot.press("r")
            await on_screen(pilot, TableScreen)
            await until(pilot, lambda: "Turn up" in prompt_line(app), "the new game's first prompt")


def countdown(app: SkyjoApp) -> int:
    """The seconds the round summary says the next round starts in (600 if it says none)."""
    said = re.search(r"The next round starts in (\d+) s", screen_text(app))
    return int(said.group(1)) if said else 600


async def test_the_next_rounds_countdown_is_told_at_the_round_end(
    make_app: Callable[..., SkyjoApp], make_server: Callable
) -> None:
    """Bob is ready at once; Alice's round summary says when the server starts the next
    round without her (the table's countdown comes just after the round's last move)."""
    server: SkyjoServer = await make_server()
    async with hosting(server.port, "Bob", end_score=1000) as bob:
        app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice")
        async with app.run_test(size=(80, 24)) as pilot:
            await a_hosted_game(pilot, bob)
            summary = await play_the_round(pilot)
            assert isinstance(summary, RoundSummaryScreen)
            await until(
                pilot,
                lambda: "The next round starts in 600 s" in screen_text(app),
                "the countdown, told",
            )
            # It counts down while the summary is read, and under the score sheet.
            await until(pilot, lambda: countdown(app) < 599, "the countdown, ticking")
            await pilot.press("g")
            seen = countdown(app)
            await until(pilot, lambda: countdown(app) < seen, "the countdown under the sheet")
            # Closed, the table says how to open it again; opened again, it counts on from
            # where it was (not from the whole wait again: the round would come early).
            closing = countdown(app)
            await pilot.press("escape")
            await on_screen(pilot, TableScreen)
            said = "The round is over: s shows its scores and when the next one starts."
            await until(pilot, lambda: said in prompt_line(app), "the way back, told")
            assert (await footer(pilot)).has("Scores")
            await pilot.press("s")
            await on_screen(pilot, RoundSummaryScreen)
            await until(pilot, lambda: countdown(app) < 600, "the countdown, told again")
            assert countdown(app) <= closing
            await pilot.press("enter")  # ready: Bob was, so the next round starts
            await on_screen(pilot, TableScreen)
            await until(pilot, lambda: "Round 2" in screen_text(app), "the next round")


async def test_the_countdown_wraps_on_a_phone_held_upright(
    make_app: Callable[..., SkyjoApp], make_server: Callable
) -> None:
    """A Pixel 7 upright gives the app 60 columns: the round summary's countdown is read to its end
    (wrapped), not cut at the dialog's edge."""
    server: SkyjoServer = await make_server()
    async with hosting(server.port, "Bob", end_score=1000) as bob:
        app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice")
        async with app.run_test(size=(60, 51)) as pilot:
            await a_hosted_game(pilot, bob)
            await play_the_round(pilot)
            await until(pilot, lambda: countdown(app) < 600, "the countdown, told")
            words = " ".join(" ".join(screen_lines(app)).replace("│", " ").split())
            assert "or as soon as everyone is ready." in words, screen_text(app)


async def test_a_rematch_asked_shows_on_its_button(
    make_app: Callable[..., SkyjoApp], make_server: Callable
) -> None:
    """Alice taps Rematch before Bob: the button no longer looks ready to press (it stayed
    highlighted, as if the tap had done nothing) while the others are waited for."""
    server: SkyjoServer = await make_server()
    async with hosting(server.port, "Bob") as bob:
        touch = {"SKYJO_IN_PAGE": "1", "SKYJO_TOUCH": "1"}
        app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice", environ=touch)
        async with app.run_test(size=(60, 49)) as pilot:
            await a_hosted_game(pilot, bob)
            while not isinstance(over := await play_the_round(pilot), GameOverScreen):
                await pilot.press("enter")  # the next round
            rematch = over.query_one("#rematch")
            assert not rematch.disabled
            await pilot.click(rematch)
            await until(
                pilot, lambda: "Waiting for the others" in screen_text(app), "the rematch, asked"
            )
            assert rematch.disabled
