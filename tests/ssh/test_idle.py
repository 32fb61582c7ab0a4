"""An idle SSH session costs nothing: no blinking cursor, no periodic repaint.

Two hundred seated players who are not typing must not keep the server busy,
and a terminal that keeps receiving frames is also a waste of the player's
network link.  Whatever the app would redraw on its own while nobody types
(a blinking cursor, a ticking timer) shows up as bytes on the channel.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from pathlib import Path

import asyncssh
import pytest

from server.ssh.connection import TCP_KEEPALIVE

from .realdoor import RealDoor, create_table, player, real_door
from .sshkit import Term

#: Longer than a cursor blink (0.5 s) and a one-second timer tick, twice over.
IDLE_SECONDS = 2.2
SETTLE_SECONDS = 0.5


@pytest.fixture
async def door(tmp_path: Path):
    async with real_door(tmp_path) as door:
        yield door


async def bytes_while_idle(term: Term) -> int:
    """Output the session sends while its player does nothing for ``IDLE_SECONDS``."""
    await term.drain(SETTLE_SECONDS)  # the last frame of what happened before
    start = term.mark()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + IDLE_SECONDS
    for _ in range(1000):  # bounded: each read takes a chunk or times out
        remaining = deadline - loop.time()
        if remaining <= 0:
            break
        with contextlib.suppress(asyncio.TimeoutError):
            await term.read(remaining)
    return len(term.raw) - start


async def falls_silent(term: Term, windows: int = 3) -> int:
    """The bytes of the last idle window, after up to ``windows`` of them: 0 once one is silent.

    A frame late under load (the first paint finishing after the settle) shows
    up in one window only; anything the app redraws on its own, in every one.
    """
    sent = 0
    for _ in range(windows):
        sent = await bytes_while_idle(term)
        if sent == 0:
            break
    return sent


async def test_an_idle_session_sends_nothing_in_the_lobby_or_at_a_table(
    door: RealDoor,
) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with player(door.port, "alice", key) as alice:
        await alice.shows("Lobby · alice")
        assert await falls_silent(alice) == 0, alice.text_since(alice.mark() - 200)

        await create_table(alice)
        alice.press(b"b")
        await alice.shows("bot")
        alice.press(b"s")
        await alice.shows("Turn up a card")
        assert await falls_silent(alice) == 0

        # The session is alive and still answers a key at once.
        mark = alice.mark()
        alice.press(b"\x1b[C")
        await alice.wait_until(lambda _text: alice.mark() > mark, "a frame after a key")


async def test_connections_are_kept_alive_by_the_kernel_not_by_loop_timers(
    door: RealDoor,
) -> None:
    # asyncssh's keepalive would wake the loop for every player every 30 s;
    # the kernel's TCP keepalive notices a vanished client just as well.
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with player(door.port, "alice", key) as alice:
        await alice.shows("Lobby · alice")
        assert door.door.manager is not None
        (conn,) = list(door.door.manager.connections)
        sock = conn.get_extra_info("socket")
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
        for name, value in TCP_KEEPALIVE:
            if hasattr(socket, name):
                assert sock.getsockopt(socket.IPPROTO_TCP, getattr(socket, name)) == value
        # no SSH-level keepalive timer
        assert conn._keepalive_interval == 0  # noqa: SLF001 - the test looks inside
