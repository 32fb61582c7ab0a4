"""Local play: the real server, run in-process on the app's event loop.

There is no second code path: a local game is a private table on a
``SkyjoServer`` that only this app talks to, through the same protocol as a
remote one (over a socket pair). The server starts on the first connection,
so the home screen appears without waiting for it.

Its one player is the person at this computer: the app keeps that player's
token, and a new name in Settings renames them (``set_name``), so their games
and statistics stay theirs.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from server.config import Pace, ServerConfig
from server.netclient import ServerConnection


class LocalServer:
    """Starts a ``SkyjoServer`` on demand; ``connect`` is a session ``Connector``."""

    def __init__(self, data_dir: Path | None, pace: Pace | None = None) -> None:
        self._data_dir = data_dir
        self._pace = pace
        self._temporary: tempfile.TemporaryDirectory[str] | None = None
        self._server: object | None = None
        self._lock = asyncio.Lock()

    async def connect(self) -> ServerConnection:
        server = await self._started()
        reader, writer = await server.open_in_process()  # type: ignore[attr-defined]
        return ServerConnection.from_streams(reader, writer)

    async def _started(self) -> object:
        async with self._lock:
            if self._server is None:
                from server.app import SkyjoServer  # imported late: the home screen comes first

                server = SkyjoServer(self._config())
                await server.start()
                try:
                    # Only the person at this computer plays here: one player, whatever
                    # they were called (an earlier version made a new one for a new name).
                    await server.store.one_person(server.lobby.guests.in_use())
                except BaseException:
                    await server.stop()
                    raise
                self._server = server
            return self._server

    def _config(self) -> ServerConfig:
        data_dir = self._data_dir
        if data_dir is None:
            self._temporary = tempfile.TemporaryDirectory(prefix="skyjo-local-")
            data_dir = Path(self._temporary.name)
        pace = self._pace or Pace()
        # Only this app talks to it; the TCP port is bound to loopback and ephemeral.
        return ServerConfig(host="127.0.0.1", port=0, data_dir=data_dir, pace=pace)

    async def stop(self) -> None:
        async with self._lock:
            server, self._server = self._server, None
            if server is not None:
                await server.stop()  # type: ignore[attr-defined]
            if self._temporary is not None:
                self._temporary.cleanup()
                self._temporary = None
