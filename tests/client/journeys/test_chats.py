"""Journey: open and leave every chat by Esc (lobby, a table's room, the table).

In a chat the letter keys are text (``n``, ``s``, ``q`` typed are letters, not
keys of the screen); the footer says the two keys that work there, and Esc
gives the keyboard back to the screen without leaving anything. A table's chat is
shown at that table only.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from server.app import SkyjoServer
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.confirm import ConfirmScreen
from skyjo_tui.screens.create_table import CreateTableScreen
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.room import RoomScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.chat import ChatPanel
from skyjo_tui.widgets.line_log import LineLog

from ...server.support import Client
from ..relay import Relay
from ..test_network import hosting
from .seen import (
    drawn_in,
    focused,
    footer,
    in_text_box,
    into_the_hosts_room,
    on_screen,
    prompt_line,
    screen_text,
    until,
)

CHAT_KEYS = ["Send", "Close chat"]


async def walk_open_and_leave_every_chat_by_esc(pilot: Pilot[Any], port: int) -> None:
    app = pilot.app
    assert isinstance(app, SkyjoApp)
    # The lobby's chat.
    await on_screen(pilot, LobbyScreen)
    assert (await footer(pilot)).has("Chat") and (await footer(pilot)).has("New table")
    await pilot.press("c")
    await until(pilot, lambda: in_text_box(app), "the lobby's chat line")
    assert (await footer(pilot)).descriptions == CHAT_KEYS
    await pilot.press(*"nsq hello", "enter")  # letters that are keys elsewhere are text here
    chat = app.screen.query_one("#lobby-chat", ChatPanel)
    await until(pilot, lambda: "Alice: nsq hello" in chat.text, "our line in the lobby's chat")
    assert isinstance(app.screen, LobbyScreen) and in_text_box(app)
    await pilot.press("escape")
    await until(pilot, lambda: not in_text_box(app), "the chat line left")
    assert isinstance(app.screen, LobbyScreen) and focused(app) == "TableList#tables"
    assert (await footer(pilot)).has("New table") and (await footer(pilot)).has("Quit")

    # A new table's room, and its chat.
    await pilot.press("n")
    await on_screen(pilot, CreateTableScreen)
    assert focused(app) == "Input#table-name"
    await pilot.press("ctrl+s")
    room = await on_screen(pilot, RoomScreen)
    assert (await footer(pilot)).has("Leave") and (await footer(pilot)).has("Chat")
    await pilot.press("c")
    await until(pilot, lambda: in_text_box(app), "the room's chat line")
    assert (await footer(pilot)).descriptions == CHAT_KEYS
    await pilot.press(*"sb ready?", "enter")
    await until(
        pilot, lambda: "Alice: sb ready?" in room.query_one(ChatPanel).text, "our line in the room"
    )
    await pilot.press("escape")  # closes the chat: we stay at our table
    await until(pilot, lambda: not in_text_box(app), "the room's chat line left")
    assert (
        app.screen is room and app.heard.table is not None and focused(app) == "FittedTable#seats"
    )
    assert (await footer(pilot)).has("Add bot") and (await footer(pilot)).has("Leave")
    await pilot.press("escape")  # Esc outside the chat: leaving asks first
    await on_screen(pilot, ConfirmScreen)
    assert "Leave this table?" in screen_text(app)
    await pilot.press("n")
    await until(pilot, lambda: app.screen is room, "the room again")
    assert app.heard.table is not None

    # The table's chat.
    await pilot.press("b")
    await until(pilot, lambda: sum(1 for s in room.table["seats"] if s) == 2, "a bot seated")
    await pilot.press("s")
    table = await on_screen(pilot, TableScreen)
    await until(pilot, lambda: "Turn up" in prompt_line(app), "the first prompt")
    # What was said in the room is on the board's log, before the round began.
    await until(pilot, lambda: "Alice: sb ready?" in screen_text(app), "the room's line")
    lines = table.board.query_one(LineLog).lines
    assert lines[:2] == ["Said at this table earlier:", "Alice: sb ready?"], lines
    await pilot.press("c")
    await until(pilot, lambda: in_text_box(app), "the table's chat line")
    assert (await footer(pilot)).descriptions == CHAT_KEYS
    await pilot.press(*"dx gl", "enter")  # Enter sends and closes the table's chat
    await until(pilot, lambda: not in_text_box(app), "the table's chat line closed by Enter")
    await pilot.press("c")
    await until(pilot, lambda: in_text_box(app), "the table's chat line again")
    await pilot.press("escape")
    await until(pilot, lambda: not in_text_box(app), "the table's chat line left")
    assert app.screen is table and focused(app) == "nothing"
    assert (await footer(pilot)).has("Choose") and (await footer(pilot)).has("Leave")
    assert "Turn up" in prompt_line(app)
    await pilot.press("q")
    await on_screen(pilot, ConfirmScreen)
    await pilot.press("y")
    await on_screen(pilot, LobbyScreen)


async def test_open_and_leave_every_chat_by_esc(
    make_app: Callable[..., SkyjoApp], make_server: Callable
) -> None:
    server: SkyjoServer = await make_server()
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice")
    async with app.run_test(size=(80, 24)) as pilot:
        await walk_open_and_leave_every_chat_by_esc(pilot, server.port)


async def test_a_tables_chat_stays_at_that_table(
    make_app: Callable[..., SkyjoApp], make_server: Callable
) -> None:
    """Bob says something in his table's room; Alice leaves it and opens a table of her own:
    its chat starts empty, with nothing said at Bob's."""
    server: SkyjoServer = await make_server()
    async with hosting(server.port, "Bob") as bob:
        app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice")
        async with app.run_test(size=(80, 24)) as pilot:
            room: RoomScreen = await into_the_hosts_room(pilot)
            await bob.conn.request({"type": "chat", "text": "just us two", "scope": "table"})
            chat = room.query_one(ChatPanel)
            await until(pilot, lambda: "Bob: just us two" in chat.text, "Bob's line")
            await pilot.press("l")
            await on_screen(pilot, ConfirmScreen)
            await pilot.press("y")
            await on_screen(pilot, LobbyScreen)
            await pilot.press("n")
            await on_screen(pilot, CreateTableScreen)
            await pilot.press("ctrl+s")
            mine: RoomScreen = await on_screen(pilot, RoomScreen)
            assert mine.table["host_id"] != bob.table["host_id"]  # Alice's own table
            assert "just us two" not in mine.query_one(ChatPanel).text
            assert "just us two" not in screen_text(app)


async def test_a_tables_chat_is_back_after_the_server_and_the_app_restart(
    make_app: Callable[..., SkyjoApp], make_server: Callable, tmp_path: Path
) -> None:
    """Bob and Alice chat in Bob's room. The server restarts while Alice's app is open: she
    comes back to the room with each line once, and the line Bob said before she was back.
    She closes the app and opens it again: the room's chat is there, in the order it was
    said, as written."""
    data = tmp_path / "server"
    server: SkyjoServer = await make_server(data)
    link = Relay(server.port)  # Alice's way to the server, whichever is running
    await link.start()
    bob = await Client.connect(server, "Bob")
    try:
        await bob.request("create_table", name="Bob's table", seats=2)
        first = make_app(tcp_connector("127.0.0.1", link.port), name="Alice", server_label="t")
        async with first.run_test(size=(80, 24)) as pilot:
            room: RoomScreen = await into_the_hosts_room(pilot)
            await bob.request("chat", text="[b]hi Alice")
            await pilot.press("c", *"hello Bob", "enter")
            await until(pilot, lambda: "Alice: hello Bob" in room_log(first), "her line")
            assert "Bob: [b]hi Alice" in room_log(first)

            link.accepting = False  # down until the server is back
            bobs_token = bob.welcome.token
            await server.stop()
            await bob.close()
            server = await make_server(data)
            bob = await Client.connect(server, token=bobs_token)
            await bob.request("chat", text="still there?")  # before Alice is back
            link.target_port, link.accepting = server.port, True
            await until(pilot, lambda: "Bob: still there?" in room_log(first), "the line missed")
            assert first.screen is room  # the same room, its log kept
            await bob.request("chat", text="back")
            await until(pilot, lambda: "Bob: back" in room_log(first), "Bob's line after")
            for line in ("Bob: [b]hi Alice", "Alice: hello Bob", "Bob: still there?"):
                assert room_log(first).count(line) == 1, screen_text(first)

        again = make_app(tcp_connector("127.0.0.1", link.port), server_label="t")
        async with again.run_test(size=(80, 24)) as pilot:
            await on_screen(pilot, RoomScreen)
            await until(pilot, lambda: "Bob: back" in room_log(again), "the chat, back")
            log = room_log(again)
            lines = ("[b]hi Alice", "hello Bob", "still there?", "Bob: back")
            said = [log.index(line) for line in lines]
            assert said == sorted(said), log
    finally:
        await bob.close()
        await link.stop()


def room_log(app: SkyjoApp) -> str:
    """The words drawn in the log of the room on screen (its chat, and who comes and goes)."""
    return drawn_in(app, app.screen.query_one(ChatPanel))


async def test_a_watcher_reads_the_chat_said_before_as_said_before(
    make_app: Callable[..., SkyjoApp], make_server: Callable
) -> None:
    """Dan wished his bot luck before the game, which Alice comes to watch: his line comes
    before the round's moves, under a line saying it was said earlier, as his own log has it."""
    server: SkyjoServer = await make_server()
    dan = await Client.connect(server, "Dan")
    try:
        await dan.request("create_table", name="Dan's table", seats=2)
        await dan.request("add_bot", level="random")
        await dan.request("chat", text="good luck, bot")
        await dan.request("start_game")
        app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice")
        async with app.run_test(size=(100, 30)) as pilot:
            await on_screen(pilot, LobbyScreen)
            await pilot.press("w")
            table: TableScreen = await on_screen(pilot, TableScreen)
            log = table.query_one("#log", LineLog)
            await until(pilot, lambda: "Dan: good luck, bot" in log.lines, "Dan's line")
            lines = list(log.lines)
            said = lines.index("Dan: good luck, bot")
            assert lines[said - 1] == "Said at this table earlier:", lines
            assert lines[said + 1].startswith("Round 1 begins"), lines
    finally:
        await dan.close()
