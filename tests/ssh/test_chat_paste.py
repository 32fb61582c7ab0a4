"""Over SSH, a paste into a chat keeps the server's limit and says so.

The SSH player's terminal sends a paste as a bracketed paste (the app asks for it), read
by the door as one event. Before, the lobby's chat line refused a paste over 300
characters whole and silently, and a paste of several lines kept its first line only.
Now the line keeps the first 300 characters, its lines joined by spaces, says so beside
it, and sends what it shows: Bob, on a plain protocol connection, hears it whole, in the
lobby and at his table. A paste read with the key that opened the chat line just before
it goes into that line, as typing would (it went to the screen's table, and was lost).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import asyncssh
import pytest

from server.netclient import ServerConnection

from ..client.journeys.test_chat_paste import LINES_PASTE, LONG_PASTE, as_a_line
from .realdoor import ENTER, RealDoor, join_first_table, player, real_door
from .sshkit import TIMEOUT, Term

PASTE_START, PASTE_END = b"\x1b[200~", b"\x1b[201~"
ESC = b"\x1b"


@pytest.fixture
async def door(tmp_path: Path) -> AsyncIterator[RealDoor]:
    async with real_door(tmp_path) as door:
        yield door


async def heard(bob: ServerConnection, scope: str) -> str:
    """The next chat line Bob hears in ``scope`` (bounded wait)."""

    async def listen() -> str:
        async for push in bob.pushes():
            if push["type"] == "chat" and push["scope"] == scope:
                return str(push["text"])
        raise AssertionError("Bob's connection ended")

    return await asyncio.wait_for(listen(), TIMEOUT)


def terminal_paste(text: str) -> bytes:
    """``text`` as a terminal pastes it: bracketed, each line break a carriage return."""
    return PASTE_START + "\r".join(text.splitlines()).encode() + PASTE_END


async def open_paste_and_send(alice: Term, bob: ServerConnection, scope: str) -> None:
    """``c`` and a paste in one read (a quick hand; tmux; a slow link), Enter; then another
    paste, Enter: each kept to the limit, said so, and heard by Bob as shown."""
    for keys, pasted in ((b"c", LONG_PASTE), (b"", LINES_PASTE)):
        alice.press(keys + terminal_paste(pasted))
        await alice.shows("300/300 · paste cut")
        alice.press(ENTER)
        assert await heard(bob, scope) == as_a_line(pasted).strip()


async def test_a_paste_over_ssh_keeps_the_limit(door: RealDoor) -> None:
    bob = await ServerConnection.open("127.0.0.1", door.server.port)
    try:
        await bob.hello(name="Bob")
        key = asyncssh.generate_private_key("ssh-ed25519")
        async with player(door.port, "alice", key, size=(100, 30)) as alice:
            await alice.shows("Lobby · alice")
            await open_paste_and_send(alice, bob, "lobby")
            alice.press(ESC)  # the lobby's keys again

            await bob.request({"type": "create_table", "name": "Bob", "seats": 2})
            await join_first_table(alice, "Bob")
            await open_paste_and_send(alice, bob, "table")
    finally:
        await bob.close()
