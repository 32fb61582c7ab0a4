"""An SSH client that sends and never reads, through the real door: whatever it
sends (window changes, keepalive requests asyncssh answers on its own), the
server's backlog for it stays under the cap and it is dropped."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from asyncssh.constants import MSG_GLOBAL_REQUEST
from asyncssh.packet import Boolean, String

from server.termhost import HostLimits

from .realdoor import real_door
from .sshkit import TIMEOUT, closing, connect_guest, open_terminal, poll_until

DROP_WAIT = 180.0
"""Seconds the client may take to be dropped under load (the bound is the kernel's
buffers filling, then the 2 s deadline)."""
CLIENT_BACKLOG = 4 * 1024 * 1024
"""The test client stops queueing while this much of its own waits to be sent."""


def _transport(conn: Any) -> asyncio.Transport:
    transport = conn._transport  # noqa: SLF001 - the client pretends not to read
    assert isinstance(transport, asyncio.Transport)
    return transport


async def test_a_client_sending_window_changes_and_keepalives_without_reading_is_dropped(
    tmp_path: Path,
) -> None:
    limits = HostLimits(stop_timeout=3.0, write_deadline=2.0)
    async with real_door(tmp_path, limits=limits) as door:
        manager = door.door.manager
        assert manager is not None
        conn = await connect_guest(door.port, "alice")
        async with closing(conn), open_terminal(conn) as term:
            await term.shows("Lobby · alice")
            (server_side,) = list(manager.connections)
            client = _transport(conn)
            client.pause_reading()  # from here on, nothing is read
            peak = 0
            keepalive = (String(b"keepalive@openssh.com"), Boolean(True))  # answer wanted

            async def flood() -> None:
                index = 0
                while not client.is_closing():
                    if client.get_write_buffer_size() > CLIENT_BACKLOG:
                        await asyncio.sleep(0.01)  # the server holds us back: wait
                        continue
                    for _ in range(64):
                        conn.send_packet(MSG_GLOBAL_REQUEST, *keepalive)
                    term.proc.change_terminal_size(1 + index % 2, 1)  # clamped: same size
                    index += 1
                    await asyncio.sleep(0)

            flooding = asyncio.create_task(flood())
            try:
                async with asyncio.timeout(DROP_WAIT):
                    while not flooding.done():
                        backlog = server_side._transport  # noqa: SLF001
                        if backlog is not None:
                            peak = max(peak, backlog.get_write_buffer_size())
                        await asyncio.sleep(0.02)
                    await asyncio.wait_for(conn.wait_closed(), TIMEOUT)
            finally:
                flooding.cancel()
            assert peak <= limits.write_buffer_cap
        await poll_until(lambda: not list(manager.connections), "the connection gone")
