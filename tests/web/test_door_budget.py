"""One budget for every byte, through a real server and real sockets: a browser
connection that sends without reading is dropped, with what the server queued
for it held under the cap, and window sizes cost input and end at the last one."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

from server.termhost import HostLimits

from ..ssh.sshkit import poll_until
from .doorclient import DoorClient, door_client
from .webdoor import web_door

NAME_PROMPT = "Choose your name"
LOBBY = "No public table yet"
DROP_WAIT = 120.0
"""Seconds a flooder may take to be dropped under load (the door's bound is 3 s here)."""


async def _sign_in(client: DoorClient, name: str) -> None:
    await client.shows(NAME_PROMPT)
    await client.type(name + "\r")
    await client.shows(LOBBY)


def _masked(opcode: int, payload: bytes) -> bytes:
    """One client frame (masked, as a client must), ``payload`` under 126 bytes."""
    mask = os.urandom(4)
    return (
        bytes([0x80 | opcode, 0x80 | len(payload)])
        + mask
        + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    )


async def _upgraded(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A WebSocket opened by hand (no cookie, no Origin, as a script would): the
    answer's headers are read, and nothing after them, ever."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET /ws?width=80&height=24 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
    assert head.startswith(b"HTTP/1.1 101"), head
    return reader, writer


async def test_a_client_that_pings_without_reading_is_dropped_and_others_play_on(
    tmp_path: Path,
) -> None:
    """textual.js's pings and WebSocket pings as fast as TCP takes them, nothing
    read: every answer would be queued for it.  The answers wait coalesced under
    the cap, its pings are held back by the input budget, and the heartbeat it
    never answers drops it, though it never stops sending."""
    limits = HostLimits(stop_timeout=3.0)
    async with web_door(tmp_path, heartbeat=2.0, limits=limits) as door:
        _reader, writer = await _upgraded(door.web.port)
        (flooder,) = list(door.web.connections)
        burst = (
            _masked(0x1, json.dumps(["ping", "1733480000000"]).encode()) * 32
            + _masked(0x9, b"are you there?") * 32
        )

        async def flood() -> None:
            try:
                while True:
                    writer.write(burst)
                    await writer.drain()  # waits while the server holds it back
            except ConnectionError:
                return  # dropped

        flooding = asyncio.create_task(flood())
        peak = 0
        try:
            async with door_client(door.url) as honest:
                await _sign_in(honest, "ivy")
                async with asyncio.timeout(DROP_WAIT):
                    while not flooding.done():
                        transport = flooder.transport
                        if transport is not None:
                            peak = max(peak, transport.get_write_buffer_size())
                        await asyncio.sleep(0.02)
                # Its own pings are answered, and what was queued for them all leaves.
                (mine,) = [c for c in door.web.connections if c is not flooder]
                for _ in range(20):
                    await honest.send(["ping", "42"])
                    await honest.ws.ping(b"hi")
                await poll_until(lambda: "pong" in "".join(honest.text_frames), "a pong")
                transport = mine.transport
                assert transport is not None
                await poll_until(lambda: transport.get_write_buffer_size() == 0, "all sent")
                await honest.type("\x11")  # the honest player still plays: ctrl+q quits
                assert await honest.closed() == 1000
        finally:
            flooding.cancel()
            writer.transport.abort()
        assert peak <= limits.write_buffer_cap
        await poll_until(lambda: not list(door.web.connections), "the flooder's connection gone")


async def test_a_resize_storm_is_held_back_and_the_app_gets_the_last_size(tmp_path: Path) -> None:
    """Sizes alternating between the largest and the smallest, then a last one:
    they cost input budget like keys (the door stops reading the storm), the
    app lays out only some of them, and ends at the last size."""
    limits = HostLimits(stop_timeout=3.0, input_rate=2000, input_burst=1000)
    async with web_door(tmp_path, limits=limits) as door:
        async with door_client(door.url) as storm:
            await storm.shows(NAME_PROMPT)
            host = door.web.game_host.host
            assert host is not None
            (session,) = host.sessions
            for index in range(60):
                size = (500, 200) if index % 2 else (20, 10)
                await storm.send(["resize", {"width": size[0], "height": size[1]}])
            await storm.send(["resize", {"width": 90, "height": 28}])
            async with door_client(door.url) as other:
                await _sign_in(other, "ada")  # others play on meanwhile
            app = session.app
            assert app is not None

            await poll_until(lambda: tuple(app.size) == (90, 28), "the last size applied")
            assert session.terminal.input_pauses > 0
            await storm.type("eve\r")  # and the storm's own player still plays
            await storm.shows(LOBBY)


async def test_a_message_of_exactly_the_limit_is_taken_and_one_byte_more_is_not(
    tmp_path: Path,
) -> None:
    """docs/web.md: one message of 64 KiB at most, i.e. 65,536 bytes."""
    limit = 64 * 1024
    async with web_door(tmp_path, max_message=limit) as door:
        async with door_client(door.url) as client:
            await client.shows(NAME_PROMPT)
            await client.ws.send_str("x" * limit)  # not textual.js's: ignored, kept open
            await client.type("kim\r")
            await client.shows(LOBBY)
        async with door_client(door.url) as client:
            await client.shows(NAME_PROMPT)
            await client.ws.send_str("x" * (limit + 1))
            assert await client.closed() == 1009
