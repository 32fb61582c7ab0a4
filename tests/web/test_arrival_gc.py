"""No garbage collection pauses a player on the way in, at either door.

The collector stops the whole process; one that fell on a player's SSH handshake
or first screen delayed it by up to 80 ms at 200 players (issue 11).  From the
moment a door accepts a connection (SSH: before its handshake; a browser: its
WebSocket upgraded, the session opens at once), the host's scheduler keeps the collector
waiting (``GCPolicy.start_grace``); a refused connection gets no such grace.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from server.termhost import SessionHost
from server.termhost.gcpolicy import GCPolicy, GCScheduler

from ..ssh.sshkit import poll_until
from .doorclient import door_client
from .webdoor import web_door

NAME_PROMPT = "Choose your name"


@contextlib.contextmanager
def long_graces(host: SessionHost) -> Iterator[GCScheduler]:
    """A scheduler whose graces outlast the test (only the server process's part)."""
    scheduler = GCScheduler(GCPolicy(start_grace=60.0, longest_grace=60.0), freezes=False)
    host.start_gc(scheduler)
    try:
        yield scheduler
    finally:
        scheduler.close()
        host.gc_scheduler = None
    assert gc.isenabled()


async def test_the_collector_waits_from_the_first_byte_of_a_connection(tmp_path: Path) -> None:
    async with web_door(tmp_path, ssh=True) as door:
        host = door.web.game_host.host
        assert host is not None and gc.isenabled()

        with long_graces(host):
            # SSH: the TCP connection is accepted; no version string, no key exchange yet.
            _reader, writer = await asyncio.open_connection("127.0.0.1", door.ssh_port)
            try:
                await poll_until(lambda: not gc.isenabled(), "the SSH door's grace")
            finally:
                writer.close()

        with long_graces(host):
            own = door.url.rstrip("/")
            with pytest.raises(aiohttp.WSServerHandshakeError):
                async with door_client(door.url, headers={"Origin": "https://evil.example"}):
                    pass
            assert gc.isenabled()  # refused: no grace for it
            async with door_client(door.url, headers={"Origin": own}) as browser:
                await browser.shows(NAME_PROMPT)
                assert not gc.isenabled()  # the browser's way in
