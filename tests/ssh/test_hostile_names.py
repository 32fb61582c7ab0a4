"""Over SSH, a name that would be markup is shown as typed and throws nobody out.

A person on a plain protocol connection named ``[/x]`` hosts a table named
``[link=...]free[/]`` and chats with tags; a player on a real SSH terminal
joins and plays. Her session goes on, her screen shows each as typed, and
her terminal never gets a hyperlink (OSC 8) or blinking text.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import asyncssh
import pytest

from ..client.hostile import CLOSE_TAG, LINK_TABLE, STYLES, Mischief
from .realdoor import (
    RealDoor,
    join_first_table,
    player,
    real_door,
    take_the_discard,
    turn_up_two_cards,
)
from .sshkit import poll_until

_SGR = re.compile(rb"\x1b\[([0-9;:]*)m")


def blinks(raw: bytes) -> bool:
    """True when any SGR sequence of ``raw`` turns blinking on (5 or 6), colours aside."""
    for match in _SGR.finditer(raw):
        params = match.group(1).replace(b":", b";").split(b";")
        index = 0
        while index < len(params):
            if params[index] in (b"38", b"48", b"58"):  # a colour: 5;n or 2;r;g;b follow
                index += 3 if params[index + 1 : index + 2] == [b"5"] else 5
                continue
            if params[index] in (b"5", b"6"):
                return True
            index += 1
    return False


def test_the_blink_check_can_fail() -> None:
    assert (
        blinks(b"\x1b[1;5mx")
        and blinks(b"\x1b[38;5;5;6m")
        and not blinks(b"\x1b[38;5;5;1m\x1b[48;2;5;5;5m")
    )


@pytest.fixture
async def door(tmp_path: Path) -> AsyncIterator[RealDoor]:
    async with real_door(tmp_path) as door:
        yield door


def flipped_two(person: Mischief) -> bool:
    view = person.view
    return (
        view is not None
        and sum(c is not None for c in view["tableaux"][view["seat"]]["cards"]) == 2
    )


async def test_a_player_named_like_markup_throws_nobody_out(door: RealDoor) -> None:
    eve = await Mischief.arrive(door.server.port, CLOSE_TAG)
    try:
        await eve.conn.request({"type": "create_table", "name": LINK_TABLE, "seats": 2})
        key = asyncssh.generate_private_key("ssh-ed25519")
        async with player(door.port, "alice", key, size=(100, 30)) as alice:
            await alice.shows("Lobby · alice")
            await join_first_table(alice, LINK_TABLE)
            await alice.shows(f"{CLOSE_TAG} ★")  # the host's seat
            await eve.conn.request(
                {"type": "chat", "scope": "table", "text": f"{STYLES} {CLOSE_TAG}"}
            )
            await alice.shows(f"{CLOSE_TAG}: {STYLES} {CLOSE_TAG}")
            alice.press(b"r")
            await alice.shows("✓")
            await eve.conn.request({"type": "start_game"})
            await poll_until(lambda: flipped_two(eve), "the host's two cards turned up")
            eve.hold()  # her turn waits, and Alice's screen says whose it is
            await turn_up_two_cards(alice, "alice")
            await alice.wait_until(
                lambda text: "Your turn:" in text or "Waiting for" in text, "the first turn"
            )
            if "Your turn:" in alice.screen.text:
                await take_the_discard(alice)
            await alice.shows(f"{CLOSE_TAG}'s turn")  # the status line
            await alice.shows(f"Waiting for {CLOSE_TAG}")  # the prompt
            await alice.shows(f"{CLOSE_TAG} turned up")  # the moves in words
            raw = bytes(alice.raw)
            assert b"\x1b]8;" not in raw and not blinks(raw)
            assert "went wrong" not in alice.text
    finally:
        await eve.leave()
