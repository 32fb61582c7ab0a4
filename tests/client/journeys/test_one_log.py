"""Journey: one log for everyone at a table. Bob's table of three: Alice and Dan sit (Dan
"joined", not "is back"), Erin watches from the room, Bob wishes them luck before the game.
Dan's connection drops during the first flips (he is away, then a bot plays for him), he
comes back, Bob says so in the chat. Carol, who comes to watch only then, reads the same
log as Erin, who watched it all (at a pace), line for line: the chat from before the game
before its moves, Dan away, the bot's flips marked as the bot's, Dan back. Alice, who
closes her app and opens it again, finds the log she left, and what happened while she
was gone: the bot's moves for her, said as such.

And the same once the game is over: Alice, back at the finished table after closing her
app, reads the log she left (the chat from before the game before its moves, whoever sat
down after its end) and then what happens there, as the one who stayed reads it."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from server.app import SkyjoServer
from server.config import Pace
from server.netclient import ServerConnection
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.navigator import find_screen
from skyjo_tui.screens.game_over import GameOverScreen
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.chat import ChatPanel
from skyjo_tui.widgets.line_log import LineLog

from ..players import KeyboardPlayer, play_to_game_over, ready_at_the_listed_table
from ..test_network import Opponent
from .seen import into_the_hosts_room, on_screen, screen_text, until

#: Dan's seat waits this long for him before a bot plays it ("in 1 s").
GRACE = 0.3
SIZE = (100, 40)


def log_of(app: SkyjoApp) -> list[str]:
    """The table's log as the person can read it back, oldest first (under the game over
    too: Esc shows it)."""
    screen = find_screen(app, TableScreen)
    return screen.query_one(LineLog).lines if screen is not None else []


async def watching(pilot: Pilot[Any]) -> None:
    """From the lobby, watch the one table listed (``w``)."""
    await on_screen(pilot, LobbyScreen)
    await until(pilot, lambda: "Bob's table" in screen_text(pilot.app), "Bob's table listed")
    await pilot.press("w")


class Dan:
    """A player on a plain connection who never moves by himself: his seat is played for
    him while he is away."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn: ServerConnection | None = None
        self.token: str | None = None

    async def come(self) -> ServerConnection:
        conn = await ServerConnection.open("127.0.0.1", self.port)
        welcome = await conn.hello(name="Dan", token=self.token)
        self.token, self.conn = welcome.token, conn
        return conn

    async def drop(self) -> None:
        if self.conn is not None:
            await self.conn.close()


@contextlib.asynccontextmanager
async def bobs_table(port: int) -> AsyncIterator[Opponent]:
    """Bob, on a plain connection, hosting a table of three and playing his moves."""
    conn = await ServerConnection.open("127.0.0.1", port)
    bob = Opponent(conn)
    try:
        await conn.hello(name="Bob")
        await conn.request({"type": "create_table", "name": "Bob's table", "seats": 3})
        bob.start()
        yield bob
    finally:
        await bob.stop()


def in_order(log: list[str], starts: list[str]) -> bool:
    """Each of ``starts`` begins a line of ``log``, each after the one before it."""
    at = [next((i for i, line in enumerate(log) if line.startswith(s)), -1) for s in starts]
    return -1 not in at and at == sorted(at)


async def test_a_watcher_and_a_returning_player_read_the_log_of_those_who_stayed(
    make_app: Callable[..., SkyjoApp], make_server: Callable[..., Any], tmp_path: Path
) -> None:
    server: SkyjoServer = await make_server(
        pace=Pace(bot_delay=0.0, grace_period=GRACE, between_rounds=600.0)
    )
    connect = tcp_connector("127.0.0.1", server.port)
    alice = make_app(connect, name="Alice", data_dir=tmp_path / "alice", server_label="t")
    # Erin follows the moves at a pace (each held a moment): what is told meanwhile (Dan
    # away, a chat line) comes after the moves that came before it, as for Carol.
    erin = make_app(connect, name="Erin", data_dir=tmp_path / "erin", pace="fast")
    dan = Dan(server.port)
    async with bobs_table(server.port) as bob, erin.run_test(size=SIZE) as erin_pilot:
        try:
            async with alice.run_test(size=SIZE) as alice_pilot:
                await ready_at_the_listed_table(alice_pilot, "Alice")
                dans = await dan.come()
                await dans.request({"type": "join_table", "table_id": bob.table["table_id"]})
                await dans.request({"type": "ready"})
                # Dan sat down for the first time: he joined, he is not "back".
                room = alice.screen.query_one(ChatPanel)
                await until(alice_pilot, lambda: "Dan joined the table." in room.text, "Dan")
                assert "Dan is back." not in room.text
                await watching(erin_pilot)
                await until(erin_pilot, lambda: "Erin" in str(bob.table), "Erin watching")
                await bob.conn.request({"type": "chat", "text": "good luck"})
                await until(
                    alice_pilot, lambda: "good luck" in screen_text(alice), "the wish heard"
                )
                await bob.conn.request({"type": "start_game"})
                await on_screen(erin_pilot, TableScreen)
                await on_screen(alice_pilot, TableScreen)

                await dan.drop()  # during the first flips: away, then a bot turns up his cards
                await until(
                    erin_pilot,
                    lambda: sum(line.startswith("Dan turned up") for line in log_of(erin)) == 2,
                    "the bot's two flips for Dan",
                )
                await dan.come()
                await until(erin_pilot, lambda: "Dan is back." in log_of(erin), "Dan back")
                await bob.conn.request({"type": "chat", "text": "welcome back"})
                await until(erin_pilot, lambda: "Bob: welcome back" in log_of(erin), "the welcome")
                story = [
                    "Watching: Erin",
                    "Bob: good luck",
                    "Round 1",
                    "Dan is away: a bot plays for them in 1 s.",
                    "The greedy bot played for Dan while they were away:",
                    "Dan turned up",
                    "Dan is back.",
                    "Bob: welcome back",
                ]
                assert in_order(log_of(erin), story), log_of(erin)

                # Carol comes to watch now: Erin's log, line for line (and her own arrival).
                carol = make_app(connect, name="Carol", data_dir=tmp_path / "carol")
                async with carol.run_test(size=SIZE) as carol_pilot:
                    await watching(carol_pilot)
                    await on_screen(carol_pilot, TableScreen)
                    await until(erin_pilot, lambda: "Carol is watching." in log_of(erin), "Carol")
                    await until(
                        carol_pilot, lambda: log_of(carol) == log_of(erin), "Carol's log as Erin's"
                    )
                left = log_of(alice)

            # Alice closed her app, and a bot turned up her cards. Opened again, her log is the
            # one she left, then what happened meanwhile: the bot's moves for her, said as such
            # (not that she was away or back: she knows).
            await until(
                erin_pilot,
                lambda: sum(line.startswith("Alice turned up") for line in log_of(erin)) == 2,
                "the bot's two flips for Alice",
            )
            again = make_app(connect, data_dir=tmp_path / "alice", server_label="t")
            async with again.run_test(size=SIZE) as again_pilot:
                await on_screen(again_pilot, TableScreen)
                await until(erin_pilot, lambda: "Alice is back." in log_of(erin), "Alice back")
                since = [
                    "Carol stopped watching.",
                    "The greedy bot played for you while you were away:",
                    "You turned up",
                ]
                await until(
                    again_pilot,
                    lambda: (
                        log_of(again)[: len(left)] == left
                        and in_order(log_of(again)[len(left) :], since)
                    ),
                    "the log Alice left, and what happened since",
                )
                rebuilt = log_of(again)
                assert sum(line.startswith("You turned up") for line in rebuilt) == 2, rebuilt
                assert not any(line.startswith("Alice is") for line in rebuilt), rebuilt
        finally:
            await dan.drop()


async def arrives(port: int, name: str, table_id: str, how: str) -> ServerConnection:
    """``name`` on a plain connection, at ``table_id`` (``how``: ``join_table`` or
    ``spectate``)."""
    conn = await ServerConnection.open("127.0.0.1", port)
    await conn.hello(name=name)
    await conn.request({"type": how, "table_id": table_id})
    return conn


async def test_back_at_the_game_over_the_log_is_the_one_who_stayed_reads(
    make_app: Callable[..., SkyjoApp], make_server: Callable[..., Any], tmp_path: Path
) -> None:
    """Bob's table of three, a game to 10 with Alice: Bob says hello in the room, they play
    to the game over, Nina sits down in the free seat. Alice closes her app and opens it
    again: her log is the one she left, line for line, the hello before the moves and Nina
    after the end (not the hello after the moves, nor Nina missing); Carol, who comes to
    watch then, is told after it, as she would have been had Alice stayed."""
    server: SkyjoServer = await make_server()
    connect = tcp_connector("127.0.0.1", server.port)
    bob = Opponent(await ServerConnection.open("127.0.0.1", server.port))
    arrivals: list[ServerConnection] = []
    try:
        await bob.conn.hello(name="Bob")
        settings = {"end-score": 10}
        created = await bob.conn.request(
            {"type": "create_table", "name": "Bob's table", "seats": 3, "settings": settings}
        )
        table_id = created["table"]["table_id"]
        bob.start()
        alice = make_app(connect, name="Alice", data_dir=tmp_path / "alice", server_label="t")
        async with alice.run_test(size=SIZE) as pilot:
            await into_the_hosts_room(pilot)
            await bob.conn.request({"type": "chat", "text": "hello before game"})
            await until(pilot, lambda: "hello before game" in screen_text(alice), "the hello")
            await pilot.press("r")
            await until(
                pilot,
                lambda: any(s and s["ready"] and not s["host"] for s in bob.table["seats"]),
                "Alice ready, as Bob sees it",
            )
            await bob.conn.request({"type": "start_game"})
            await on_screen(pilot, TableScreen)
            await play_to_game_over(pilot, alice, KeyboardPlayer(pilot))
            arrivals.append(await arrives(server.port, "Nina", table_id, "join_table"))
            await until(pilot, lambda: "Nina joined the table." in log_of(alice), "Nina")
            left = log_of(alice)
        assert in_order(left, ["Bob: hello before game", "Round 1", "Bob wins", "Nina joined"])

        again = make_app(connect, data_dir=tmp_path / "alice", server_label="t")
        async with again.run_test(size=SIZE) as pilot:
            await on_screen(pilot, GameOverScreen)
            await until(pilot, lambda: log_of(again) == left, "the log Alice left")
            arrivals.append(await arrives(server.port, "Carol", table_id, "spectate"))
            await until(pilot, lambda: log_of(again) == [*left, "Carol is watching."], "Carol")
    finally:
        for conn in arrivals:
            await conn.close()
        await bob.stop()


def rounds_begun(log: list[str]) -> list[int]:
    """Where a game's first round begins in ``log``."""
    return [i for i, line in enumerate(log) if line.startswith("Round 1")]


async def test_back_after_a_rematch_the_log_still_tells_the_game_before(
    make_app: Callable[..., SkyjoApp], make_server: Callable[..., Any], tmp_path: Path
) -> None:
    """Bob, Dan and Alice play a game to 10; Dan leaves after its end, Carol sits down in
    his seat, and the three play the rematch. Alice closes her app during its first flips
    and opens it again: her log is the one she left, the first game (Dan's moves his, not
    Carol's, who now sits there; hers "You") above the rematch's, then what happened
    since."""
    server: SkyjoServer = await make_server()
    connect = tcp_connector("127.0.0.1", server.port)
    bob = Opponent(await ServerConnection.open("127.0.0.1", server.port))
    dan = Opponent(await ServerConnection.open("127.0.0.1", server.port))
    carol = Opponent(await ServerConnection.open("127.0.0.1", server.port))
    try:
        await bob.conn.hello(name="Bob")
        await dan.conn.hello(name="Dan")
        await carol.conn.hello(name="Carol")
        settings = {"end-score": 10}
        created = await bob.conn.request(
            {"type": "create_table", "name": "Bob's table", "seats": 3, "settings": settings}
        )
        table_id = created["table"]["table_id"]
        await dan.conn.request({"type": "join_table", "table_id": table_id})
        await dan.conn.request({"type": "ready"})
        bob.start()
        dan.start()
        alice = make_app(connect, name="Alice", data_dir=tmp_path / "alice", server_label="t")
        async with alice.run_test(size=SIZE) as pilot:
            await ready_at_the_listed_table(pilot, "Alice")
            await bob.conn.request({"type": "start_game"})
            await on_screen(pilot, TableScreen)
            await play_to_game_over(pilot, alice, KeyboardPlayer(pilot))
            await dan.conn.request({"type": "leave_table"})
            await carol.conn.request({"type": "join_table", "table_id": table_id})
            carol.start()
            await pilot.press("r")
            await bob.conn.request({"type": "rematch"})
            await carol.conn.request({"type": "rematch"})
            await until(pilot, lambda: len(rounds_begun(log_of(alice))) == 2, "the rematch")
            left = log_of(alice)
        first, rematch = rounds_begun(left)
        assert bob.table["game_seats"][1]["name"] == "Carol"  # in Dan's seat
        assert any(line.startswith("Dan turned up") for line in left[first:rematch]), left
        assert any(line.startswith("You turned up") for line in left[first:rematch]), left
        assert not any(line.startswith("Carol turned up") for line in left[:rematch]), left

        again = make_app(connect, data_dir=tmp_path / "alice", server_label="t")
        async with again.run_test(size=SIZE) as pilot:
            await on_screen(pilot, TableScreen)
            await until(pilot, lambda: log_of(again)[: len(left)] == left, "the log Alice left")
    finally:
        await carol.stop()
        await dan.stop()
        await bob.stop()
