"""Your turn, even in another window, over SSH: the title and the bell reach the player's terminal.

The hosted app writes them through the host's driver (server/termhost/driver.py)
like every other byte of the screen: a real asyncssh client reads them raw.
"""

from __future__ import annotations

import re
from pathlib import Path

import asyncssh
import pytest

from skyjo_tui.terminal import POP_TITLE, PUSH_TITLE, title_sequence

from .realdoor import RealDoor, create_table, player, real_door, turn_up_two_cards
from .sshkit import Term

TAB, UP, ENTER, CTRL_S = b"\t", b"\x1b[A", b"\r", b"\x13"
OSC = re.compile(rb"\x1b\][^\x07\x1b]*(\x07|\x1b\\)")  # title sequences end with BEL too


@pytest.fixture
async def door(tmp_path: Path):
    async with real_door(tmp_path) as door:
        yield door


def bells(raw: bytes) -> int:
    """The bells rung: BEL bytes that do not end an escape sequence (a title)."""
    return OSC.sub(b"", raw).count(b"\x07")


def _bell_line(term: Term) -> str:
    return next((line for line in term.screen.text.splitlines() if "Your turn: bell" in line), "")


async def start_a_game_with_a_bot(term: Term) -> None:
    await create_table(term)
    term.press(b"b")
    await term.shows("bot")
    term.press(b"s")
    await term.shows("Turn up a card of your choice")


async def test_the_title_says_your_turn_and_goes_back_after_the_game(door: RealDoor) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with player(door.port, "alice", key) as alice:
        await alice.shows("Lobby · alice")
        before = alice.mark()
        await start_a_game_with_a_bot(alice)
        turn = bytes(alice.raw[before:])
        # Saved first (the player's own title comes back at the end), then ours.
        assert PUSH_TITLE.encode() in turn
        assert title_sequence("Your turn · Skyjo").encode("utf-8") in turn
        assert turn.index(PUSH_TITLE.encode()) < turn.index(
            title_sequence("Your turn · Skyjo").encode()
        )
        assert bells(turn) == 0  # the bell is off unless chosen in Settings
        after = alice.mark()
        await turn_up_two_cards(alice, "alice")
        alice.press(b"q")  # leaving the table (whoever's turn it is now): no longer your turn
        await alice.shows("Leave this game?")
        alice.press(b"y")
        await alice.shows("Lobby · alice")
        await alice.wait_until(
            lambda _: title_sequence("Skyjo").encode() in alice.raw[after:],
            "the title back once away from the table",
        )
        alice.press(b"\x11")  # Ctrl+Q: the app ends, the player's own title comes back
        await alice.exit_status()
        assert POP_TITLE.encode() in alice.raw[after:]


async def test_the_bell_rings_when_chosen_in_settings(door: RealDoor) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with player(door.port, "bob", key) as bob:
        await bob.shows("Lobby · bob")
        bob.press(b"o")
        await bob.shows("Your turn: bell")
        # The name box has the keyboard; six tabs lead to the bell's choice (on, off: off chosen).
        bob.press(TAB * 6)
        bob.press(ENTER)
        await bob.wait_until(lambda _: "▲" in _bell_line(bob), "the bell's choices open")
        bob.press(UP + ENTER)
        await bob.wait_until(lambda _: _bell_line(bob).split()[-2:] == ["on", "▼"], "the bell on")
        bob.press(CTRL_S)
        await bob.shows("Settings saved.")
        before = bob.mark()
        await start_a_game_with_a_bot(bob)
        assert bells(bytes(bob.raw[before:])) == 1
        assert title_sequence("Your turn · Skyjo").encode() in bob.raw[before:]
