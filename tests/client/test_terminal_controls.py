"""Words from elsewhere never reach the terminal as control characters.

Textual writes a string's characters to the terminal as they are, so an escape
sequence in a name would act on the terminal of whoever is shown it: set its title,
its colours, its clipboard. The server refuses them in what people type; the client
does not count on it. A records file (`skyjo --replay FILE`, someone else's games)
and a server that lets them through (someone else's server) are shown with a
stand-in (U+FFFD) for each such character, and nothing else lost.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from server.engine import Seat, Settings, game_record, record_line
from server.lobby import accounts, chat
from server.lobby.thinking import TableBots
from server.netclient import ServerConnection
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.replay import ReplayScreen

from ..support_server import StartServer
from .conftest import TEST_LIMITS
from .hostile import Mischief, screen_text
from .journeys.test_time_ran_out import at_a_timed_table, log_lines
from .players import wait_for
from .scenes import finished_game

TITLE = "\x1b]0;owned\x07"  # sets the terminal's title
BLINK = "\x1b[5m"
RIGHT_TO_LEFT = "\u202e"  # turns the rest of the line around
NAME = f"{TITLE}Eve{BLINK}"
CHAT = f"hi{RIGHT_TO_LEFT} there{TITLE}"


def controls(text: str) -> list[str]:
    """The characters of what is drawn that a terminal would interpret."""
    return sorted(
        {
            f"U+{ord(char):04X}"
            for char in text
            if char != "\n" and unicodedata.category(char) in ("Cc", "Cf")
        }
    )


async def test_a_records_file_with_escape_sequences_in_a_name(
    tmp_path: Path, make_app: Callable[..., SkyjoApp]
) -> None:
    game = finished_game(2, seed=21, settings=Settings(end_score=60))
    record = game_record(game, [Seat(NAME), Seat("Bob")])
    path = tmp_path / "games.jsonl"
    path.write_text(record_line(record) + "\n", encoding="utf-8")
    app = make_app(replay=path)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("right", "right", "right")
        await wait_for(pilot, lambda: "Eve" in screen_text(app))
        assert controls(screen_text(app)) == [], screen_text(app)
        assert "\ufffd]0;owned\ufffdEve\ufffd[5m" in screen_text(app)  # said, not obeyed


async def test_a_server_that_lets_escape_sequences_through_in_names_and_chat(
    make_server: StartServer,
    make_app: Callable[..., SkyjoApp],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Someone else's server, without the checks on what people type.
    monkeypatch.setattr(accounts, "clean_name", lambda raw, *_: raw)
    monkeypatch.setattr(chat, "clean_chat", lambda raw, *_: raw)
    server = await make_server()
    eve = await Mischief.arrive(server.port, NAME)
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Walter")
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await eve.conn.request({"type": "chat", "text": CHAT, "scope": "lobby"})
            await wait_for(pilot, lambda: "there" in screen_text(app))
            assert controls(screen_text(app)) == [], screen_text(app)
            assert "Eve" in screen_text(app)
    finally:
        await eve.conn.close()


async def test_a_server_that_names_a_stand_in_bot_with_escape_sequences(
    make_server: StartServer,
    make_app: Callable[..., SkyjoApp],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The log's line before a move a bot made for a person names the bot's level as the
    server sends it (``standin`` in a ``game`` push, the one push not passed through
    ``printable`` whole): someone else's server may put a terminal's controls there."""
    monkeypatch.setattr(TableBots, "level_of", lambda self, seat: f"{TITLE}greedy{BLINK}")
    server = await make_server(limits=replace(TEST_LIMITS, turn_timer_min=1))
    bob = await ServerConnection.open("127.0.0.1", server.port)
    try:
        app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice")
        async with app.run_test(size=(100, 30)) as pilot:
            await at_a_timed_table(pilot, bob)
            await wait_for(pilot, lambda: any("played for you" in line for line in log_lines(app)))
            said = [line for line in log_lines(app) if "played for" in line]
            assert said and controls("\n".join(said)) == [], said
            assert controls(screen_text(app)) == [], screen_text(app)
    finally:
        await bob.close()
