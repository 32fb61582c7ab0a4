"""Journey: a long paste, and a paste of several lines, into every chat (the lobby's, a
table's room, the table's).

Each chat line holds at most the server's limit: a paste longer than that keeps its
first 300 characters and says so beside the line ("300/300 · paste cut"), a pasted
text's lines are joined by spaces, and what the line shows is what Enter sends. Before,
the table's took 3,681 characters that the server then refused whole on Enter, the
lobby's and the room's refused any paste over 300 whole and silently, and a text of
several lines kept its first line only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from textual import events
from textual.pilot import Pilot

from server.app import SkyjoServer
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.create_table import CreateTableScreen
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.room import RoomScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.chat import ChatInput
from skyjo_tui.widgets.line_log import LineLog

from ..conftest import TEST_LIMITS
from .seen import in_text_box, notes, on_screen, prompt_line, screen_text, until

LIMIT = 300
#: 3,681 characters, each stretch of it numbered: what was kept is plain to see.
LONG_PASTE = "".join(f"word{index:04d} " for index in range(409))[:3681]
#: Twelve lines of 40 characters (491 with the line breaks), a blank line among them.
LINES = [f"line {index:02d} " + "x" * 32 for index in range(12)]
LINES_PASTE = "\n".join(LINES[:6]) + "\n\n" + "\r\n".join(LINES[6:]) + "\n"


def pastes(place: str) -> tuple[str, str]:
    """The two pastes, each its own words at ``place`` (the table's log shows the room's
    lines too: a line found there must be the one just sent)."""
    return f"{place}: {LONG_PASTE}", f"{place}:\n{LINES_PASTE}"


def as_a_line(pasted: str) -> str:
    """What a chat line keeps of ``pasted``: its lines joined by spaces, to the limit."""
    return " ".join(pasted.splitlines())[:LIMIT]


def test_the_pastes_are_over_the_limit() -> None:
    assert len(LONG_PASTE) == 3681 and len(" ".join(LINES_PASTE.splitlines())) > LIMIT
    assert len(LINES_PASTE.splitlines()) == 13


def chat_line(app: SkyjoApp) -> ChatInput:
    return app.screen.query_one("#chat-input", ChatInput)


async def paste(pilot: Pilot[Any], text: str) -> None:
    """Paste ``text`` as a terminal does (a bracketed paste: one event, read by the driver)."""
    app = pilot.app
    assert isinstance(app, SkyjoApp) and in_text_box(app)
    app.post_input(events.Paste(text))
    await pilot.pause()


async def paste_and_send(pilot: Pilot[Any], pasted: str, said: Callable[[], str]) -> None:
    """``pasted`` into the open chat line, then Enter: the line holds the first 300
    characters, says the paste was cut and how full it is, and sends what it shows."""
    app = pilot.app
    assert isinstance(app, SkyjoApp)
    kept = as_a_line(pasted)
    await paste(pilot, pasted)
    await until(pilot, lambda: chat_line(app).value == kept, "the paste kept to the limit")
    await until(pilot, lambda: "300/300 · paste cut" in screen_text(app), "the cut said")
    await pilot.press("enter")
    sent = kept.strip()  # as Enter sends a line
    await until(pilot, lambda: f"Alice: {sent}" in said(), "the line sent whole")
    assert "too long" not in screen_text(app)


async def test_a_long_paste_keeps_the_limit_in_every_chat(
    make_app: Callable[..., SkyjoApp], make_server: Callable
) -> None:
    server: SkyjoServer = await make_server(limits=replace(TEST_LIMITS, chat_burst=10))
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice")
    async with app.run_test(size=(100, 30)) as pilot:
        lobby = await on_screen(pilot, LobbyScreen)
        await pilot.press("c")
        await until(pilot, lambda: in_text_box(app), "the lobby's chat line")
        await pilot.press(*"hello")
        await until(pilot, lambda: "5/300" in screen_text(app), "how full the line is")
        await pilot.press(*["backspace"] * 5)
        await until(pilot, lambda: "5/300" not in screen_text(app), "an empty line says nothing")
        for pasted in pastes("lobby"):
            await paste_and_send(pilot, pasted, lambda: "\n".join(lobby.query_one(LineLog).lines))
        await pilot.press("escape")

        await pilot.press("n")
        await on_screen(pilot, CreateTableScreen)
        await pilot.press("ctrl+s")
        room = await on_screen(pilot, RoomScreen)
        await pilot.press("c")
        await until(pilot, lambda: in_text_box(app), "the room's chat line")
        for pasted in pastes("room"):
            await paste_and_send(pilot, pasted, lambda: "\n".join(room.query_one(LineLog).lines))
        await pilot.press("escape")

        await pilot.press("b")
        await until(pilot, lambda: sum(1 for s in room.table["seats"] if s) == 2, "a bot seated")
        await pilot.press("s")
        table: TableScreen = await on_screen(pilot, TableScreen)
        await until(pilot, lambda: "Turn up" in prompt_line(app), "the first prompt")
        log = table.board.query_one(LineLog)
        for pasted in pastes("table"):
            await pilot.press("c")
            await until(pilot, lambda: in_text_box(app), "the table's chat line")
            await paste_and_send(pilot, pasted, lambda: "\n".join(log.lines))
            assert not in_text_box(app)  # Enter sent it, and closed the table's chat line


async def test_a_line_the_server_refuses_is_kept_to_send_again(
    make_app: Callable[..., SkyjoApp], make_server: Callable
) -> None:
    """A server taking one chat line a minute: the second line, refused (said so), is back
    on the chat line as typed, lobby and table alike, to send once it may."""
    server: SkyjoServer = await make_server(
        limits=replace(TEST_LIMITS, chat_burst=1, chat_per_second=1 / 60)
    )
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice")
    async with app.run_test(size=(100, 30)) as pilot:
        lobby = await on_screen(pilot, LobbyScreen)
        await pilot.press("c", *"first", "enter")
        await until(
            pilot, lambda: "Alice: first" in "\n".join(lobby.query_one(LineLog).lines), "it"
        )
        await pilot.press(*"second line", "enter")
        await until(pilot, lambda: any("too fast" in note for note in notes(app)), "the refusal")
        await until(pilot, lambda: chat_line(app).value == "second line", "the line kept")
        assert in_text_box(app) and "11/300" in screen_text(app)
        await pilot.press("escape")

        await pilot.press("n")
        await on_screen(pilot, CreateTableScreen)
        await pilot.press("ctrl+s")
        room = await on_screen(pilot, RoomScreen)
        await pilot.press("b")
        await until(pilot, lambda: sum(1 for s in room.table["seats"] if s) == 2, "a bot seated")
        await pilot.press("s")
        await on_screen(pilot, TableScreen)
        await until(pilot, lambda: "Turn up" in prompt_line(app), "the first prompt")
        app.clear_notifications()
        await pilot.press("c", *"third", "enter")  # Enter closes the table's chat line...
        await until(pilot, lambda: any("too fast" in note for note in notes(app)), "refused")
        await until(pilot, lambda: in_text_box(app), "...open again on the refused line")
        assert chat_line(app).value == "third"
