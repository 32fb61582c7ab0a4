"""A tab closed at any moment ends its app cleanly: never "app crashed".

Through the real browser door and the real shared host: a player arrives,
sits at a table, watches one, plays; then the same player comes back again
and again, each time closing the connection after one more frame of output
than the time before, until their screen is whole.  Every moment of their
screen appearing is a moment their tab closed at, and none may crash the app
(a returning player's room screen mounting as the app ended found no
``#seats``, and the host logged a crash with its traceback).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path

import pytest

from .doorclient import DoorClient, door_client, page_cookie
from .webdoor import WebDoor, web_door

NAME_PROMPT = "Choose your name"
WATCHING = "You are watching this table."


async def _screens_end(door: WebDoor) -> None:
    """Until every app on the host has finished."""
    host = door.web.game_host.host
    assert host is not None
    for session in host.sessions:
        await session.finished()


async def _closed_at_every_frame(
    door: WebDoor, cookies: Mapping[str, str] | None, whole: str
) -> int:
    """Come back with ``cookies`` until ``whole`` shows (counting the frames), then
    once more for each of those frames, closing after it; the frames swept."""
    async with door_client(door.url, cookies=cookies) as reference:
        await reference.shows(whole)
        frames = reference.frames
    await _screens_end(door)
    for count in range(frames + 1):
        async with door_client(door.url, cookies=cookies) as client:
            await client.until_frames(count, or_shows=whole)
        await _screens_end(door)
    return frames


def _crashes(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        f"{r.levelname} {r.name}: {r.getMessage()}"
        for r in caplog.records
        if r.levelno >= logging.ERROR or "crashed" in r.getMessage()
    ]


async def _sign_in(client: DoorClient, name: str) -> None:
    await client.shows(NAME_PROMPT)
    await client.type(name + "\r")
    await client.shows(f"Lobby · {name}")


async def test_a_tab_closed_at_any_moment_of_arriving_sitting_or_watching_crashes_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with web_door(tmp_path) as door:
        alice = {"skyjo_id": (await page_cookie(door.url))[0]}
        bob = {"skyjo_id": (await page_cookie(door.url))[0]}
        # Arriving: a stranger's first screen.
        assert await _closed_at_every_frame(door, None, NAME_PROMPT) > 0
        async with door_client(door.url, cookies=alice) as host:
            await _sign_in(host, "alice")
            await host.type("n")
            await host.shows("New table")
            await host.type("\x13")  # ctrl+s: create, seated at it
            await host.shows("You are the host")
        async with door_client(door.url, cookies=bob) as watcher:
            await _sign_in(watcher, "bob")
            await watcher.shows("alice's table")
            await watcher.type("w")
            await watcher.shows(WATCHING)
        # Sitting (the room screen appearing) and watching, before the game...
        await _closed_at_every_frame(door, alice, "You are the host")
        await _closed_at_every_frame(door, bob, WATCHING)
        async with door_client(door.url, cookies=alice) as host:
            await host.shows("You are the host")
            await host.type("b")  # a bot in the next seat
            await host.shows("Casual bot")
            await host.type("s")
            await host.shows("Turn up a card")
        # ...and during it (the table screen appearing).
        await _closed_at_every_frame(door, alice, "Turn up a card")
        await _closed_at_every_frame(door, bob, WATCHING)
    assert not _crashes(caplog)
