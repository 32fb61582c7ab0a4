"""Never a traceback: servers that go away, bad addresses and files, a terminal too small."""

from __future__ import annotations

import socket
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

import skyjo_tui.app
from server.app import SkyjoServer
from server.bots import BOT_LEVELS
from server.engine import OPTIONS
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.cli import main
from skyjo_tui.link import Link
from skyjo_tui.screens.connecting import ConnectingScreen
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.replay import ReplayScreen
from skyjo_tui.screens.round_summary import RoundSummaryScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.screens.too_small import TooSmallScreen

from .journeys.seen import screen_text
from .players import KeyboardPlayer, current_screen, my_move, rows, wait_for
from .scenes import game_pushes, round_over, table_map


def prompt(app: SkyjoApp) -> str:
    return str(app.screen.query_one("#prompt").render())


def errors_said(app: SkyjoApp) -> list[str]:
    return [n.message for n in app._notifications if n.severity == "error"]  # noqa: SLF001 - Textual's notifications (no public list)


async def test_the_local_server_stopping_mid_game_is_survived(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "enter")
        await wait_for(pilot, lambda: my_move(app) is not None)
        table = current_screen(app, TableScreen)
        assert app.local is not None
        session = app.session
        assert session is not None
        await app.local.stop()  # as if it crashed: its data stays on disk
        # What the player sees (the prompt follows the link's change a message later).
        await wait_for(pilot, lambda: "reconnecting" in prompt(app))
        # The session starts the server again from its data and comes back to the seat.
        await wait_for(pilot, lambda: session.link is Link.ONLINE and my_move(app))
        assert app.screen is table and app.session is session and not errors_said(app)
        await KeyboardPlayer(pilot).play(table)
        await wait_for(
            pilot,
            lambda: (
                table.view is not None
                and any(card is not None for card in table.view.tableaux[0].cards)
            ),
        )


async def test_a_server_gone_for_good_is_said_in_the_prompt_and_keys_say_why_they_wait(
    make_app: Callable[..., SkyjoApp], make_server: Callable[..., Awaitable[SkyjoServer]]
) -> None:
    server = await make_server()
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: rows(app, LobbyScreen, "#tables") == 0)
        assert app.session is not None and app.session.bot_levels == tuple(
            BOT_LEVELS
        )  # from the welcome
        assert app.session.welcome is not None and set(app.session.welcome.settings) == set(OPTIONS)
        await pilot.press("n")
        await wait_for(pilot, lambda: app.screen.query("#create"))
        await pilot.press("ctrl+s", "b")  # a table, a bot
        await wait_for(
            pilot,
            lambda: (
                app.heard.table is not None and sum(1 for s in app.heard.table["seats"] if s) == 2
            ),
        )
        await pilot.press("s")
        await wait_for(pilot, lambda: my_move(app) is not None)

        await server.stop()
        await wait_for(pilot, lambda: "reconnecting" in prompt(app))
        await pilot.press("enter")  # a move: it cannot be sent, and the prompt says why
        assert "connection was lost" in prompt(app) and not errors_said(app)
        assert not app.screen.check_action("draw", ())  # the move keys leave the footer meanwhile
        await pilot.press("q", "y")  # leave: back to the lobby, no crash
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))


async def test_a_terminal_made_too_small_mid_round_and_back(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app()
    pushes = game_pushes(4, 11, round_over)
    async with app.run_test(size=(80, 24)) as pilot:
        table = TableScreen(table_map(4))
        await app.push_screen(table)
        for push in pushes[:20]:
            table.feed_game(push)
        await pilot.pause()
        await pilot.resize_terminal(50, 14)
        await wait_for(pilot, lambda: isinstance(app.screen, TooSmallScreen))
        assert "50×14" in str(app.screen.query_one("#too-small-text").render())
        for push in pushes[20:]:  # the round ends while the table cannot be seen
            table.feed_game(push)
        await pilot.pause()
        await pilot.resize_terminal(80, 24)
        # The summary the player missed opens as soon as the table is back.
        await wait_for(pilot, lambda: isinstance(app.screen, RoundSummaryScreen))
        assert (
            app.screen_stack[-2] is table
            and table.view is not None
            and table.view.phase == "round_over"
        )


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def connecting_failed(pilot: Pilot[None], app: SkyjoApp) -> str:
    """Until the Connecting screen says why it failed, with Retry: what it says."""
    await wait_for(
        pilot,
        lambda: (
            # The screen may be current a moment before its buttons are mounted.
            isinstance(app.screen, ConnectingScreen)
            and any(retry.display for retry in app.screen.query("#retry"))
        ),
    )
    return str(app.screen.query_one("#connecting-text").render())


async def test_a_server_that_does_not_answer_is_said_plainly(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app(tcp_connector("127.0.0.1", closed_port()), name="Alice", server_label="nowhere")
    async with app.run_test(size=(80, 24)) as pilot:
        assert "Nobody answers at this address" in await connecting_failed(pilot, app)


async def test_a_doors_player_waits_for_a_server_out_of_reach_then_is_told_without_where(
    make_app: Callable[..., SkyjoApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A door's player (the server a socket away on the door's machine: a door host's
    lobby restarting) is not shown the lobby's address: the Connecting screen says the
    server cannot be reached yet while the app tries again, then, once its patience is
    spent, that it is out of reach, with Retry."""
    monkeypatch.setattr(skyjo_tui.app, "SERVER_PATIENCE", 1.5)
    port = closed_port()
    app = make_app(tcp_connector("127.0.0.1", port), name="Alice", instant_login=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "cannot be reached yet: trying again" in screen_text(app))
        text = await connecting_failed(pilot, app)
        assert "Could not connect: the game server is out of reach" in text
        assert str(port) not in text and "127.0.0.1" not in text


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\xff\xfe binary", "not a file of game records"),
        (b'{"format": "skyjo-record", "version": 1}\n', "not a valid record"),
        (b"", "holds no game record"),
    ],
    ids=["binary", "not a whole record", "empty"],
)
async def test_an_unreadable_replay_file_is_refused_with_the_reason(
    make_app: Callable[..., SkyjoApp], tmp_path: Path, content: bytes, said: str
) -> None:
    path = tmp_path / "games.jsonl"
    path.write_bytes(content)
    app = make_app(replay=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        assert said in str(app.screen.query_one("#replay-error").render())
        await pilot.press("q")  # the way out still works


def test_bad_command_lines_get_a_reason_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for argv, said in (
        (["--connect", "example.org:port"], "not a port number"),
        (["--connect", "[::1"], "missing ']'"),
        (["--replay", str(tmp_path)], "not a file"),
        (["--replay", str(tmp_path / "none.jsonl")], "no such file"),
    ):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 2
        error = capsys.readouterr().err
        assert said in error and "Traceback" not in error, argv


async def test_the_too_small_screen_has_a_way_out_for_a_finger(
    make_app: Callable[..., SkyjoApp],
) -> None:
    """A phone has no q: a tap on the screen's button quits; in the browser door's page it
    says what a phone can do (turn it, A-)."""
    app = make_app(environ={"SKYJO_IN_PAGE": "1", "SKYJO_PAGE": "http://192.0.2.7:8080"})
    async with app.run_test(size=(43, 39)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TooSmallScreen))
        words = str(app.screen.query_one("#too-small-text").render())
        assert "43×39" in words and "Turn the phone" in words and "A\N{MINUS SIGN}" in words
        assert app.is_running
        await pilot.click("#too-small-quit")
        await wait_for(pilot, lambda: not app.is_running)
