"""Helpers for the server tests: a recording client and a player that plays its legal moves.

Everything runs over real sockets against a real ``SkyjoServer`` on 127.0.0.1;
every wait is bounded in time.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from server.app import SkyjoServer
from server.config import Limits, Pace, ServerConfig
from server.netclient import ConnectionLost, ServerConnection, ServerError

WAIT = 20.0  # seconds any single wait in a test may take before it fails
Chooser = Callable[[dict[str, Any], random.Random], dict[str, Any]]

FAST_PACE = Pace(bot_delay=0.0, grace_period=30.0, between_rounds=0.0)
# Test clients play as fast as they can: far above a person's message rate.
TEST_LIMITS = Limits(
    turn_timer_min=1, max_connections_per_address=64, messages_per_second=5000, message_burst=5000
)


def server_config(data_dir: Path, **changes: Any) -> ServerConfig:
    """A server on 127.0.0.1, any free port, no pauses; ``pace``/``limits`` as given."""
    config = ServerConfig(
        host="127.0.0.1", port=0, data_dir=data_dir, pace=FAST_PACE, limits=TEST_LIMITS
    )
    return replace(config, **changes)


class TeeReader:
    """A stream reader that keeps a copy of every byte read (the frames a client got)."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self._reader = reader
        self.received = bytearray()

    async def read(self, n: int = -1) -> bytes:
        data = await self._reader.read(n)
        self.received += data
        return data


class Client:
    """A connection whose pushes are collected as they come, for tests to wait on."""

    def __init__(self, conn: ServerConnection, tee: TeeReader | None = None) -> None:
        self.conn = conn
        self.tee = tee
        self.pushes: list[dict[str, Any]] = []
        self.game: dict[str, Any] | None = None  # the latest "game" push
        self.table: dict[str, Any] | None = None  # the latest "table" push
        self.lost: ConnectionLost | None = None
        self.welcome: Any = None
        self._changed = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._collect())

    @classmethod
    async def connect(cls, server: SkyjoServer, name: str | None = None, **hello: Any) -> Client:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        tee = TeeReader(reader)
        client = cls(ServerConnection.from_streams(tee, writer), tee)
        if name is not None or hello:
            client.welcome = await client.conn.hello(name=name, **hello)
        return client

    async def _collect(self) -> None:
        try:
            async for push in self.conn.pushes():
                self.pushes.append(push)
                if push["type"] == "game":
                    self.game = push
                elif push["type"] == "table":
                    self.table = push["table"]
                self._changed.set()
        except ConnectionLost as exc:
            self.lost = exc
            self._changed.set()

    async def close(self) -> None:
        await self.conn.close()
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)

    @property
    def view(self) -> dict[str, Any]:
        return self.last_game["view"]

    @property
    def last_game(self) -> dict[str, Any]:
        """The latest "game" push, for a test that knows one came."""
        assert self.game is not None, "no game push yet"
        return self.game

    @property
    def last_table(self) -> dict[str, Any]:
        """The latest "table" push, for a test that knows one came."""
        assert self.table is not None, "no table push yet"
        return self.table

    async def request(self, type_: str, **fields: Any) -> dict[str, Any]:
        return await self.conn.request({"type": type_, **fields}, timeout=WAIT)

    async def until(self, condition: Callable[[], bool], timeout: float = WAIT) -> None:
        """Wait until ``condition()`` holds, checking after every push."""
        async with asyncio.timeout(timeout):
            while not condition():
                self._changed.clear()
                if condition():
                    return
                await self._changed.wait()

    async def push(
        self, type_: str, where: Callable[[dict[str, Any]], bool] = lambda p: True, after: int = 0
    ) -> dict[str, Any]:
        """The first push of ``type_`` at index >= ``after`` that matches ``where``."""
        found: list[dict[str, Any]] = []

        def seen() -> bool:
            found[:] = [p for p in self.pushes[after:] if p["type"] == type_ and where(p)]
            return bool(found)

        await self.until(seen)
        return found[0]

    def game_over(self) -> bool:
        return any(p["type"] == "game_over" for p in self.pushes)

    async def play(
        self,
        rng: random.Random,
        stop: Callable[[], bool] | None = None,
        ready: bool = True,
        choose: Chooser | None = None,
        acked: list[int] | None = None,
    ) -> int:
        """Play legal moves whenever the latest view allows, until ``stop()``.

        ``choose(view, rng)`` picks the move (default: any legal one). Says
        ready between rounds when ``ready``. Returns how many moves it made;
        ``acked`` gets the ``seq`` of each, as the server's replies give it.
        """
        stop = stop or self.game_over
        choose = choose or (lambda view, rng: rng.choice(view["legal_actions"]))
        moves = 0
        async with asyncio.timeout(WAIT * 3):
            while not stop():
                self._changed.clear()
                view = None if self.game is None else self.game["view"]
                if view is not None and view["legal_actions"]:
                    reply = await self.conn.act(choose(view, rng), timeout=WAIT)
                    if acked is not None:
                        acked.append(reply["seq"])
                    moves += 1
                    continue
                if (
                    ready
                    and self.table
                    and self.table["status"] == "between_rounds"
                    and not self.table["seats"][self.table["your_seat"]]["ready"]
                ):
                    with contextlib.suppress(ServerError):  # the round may have begun
                        await self.request("ready")
                await self._changed.wait()
        return moves


async def same_update(*clients: Client, timeout: float = WAIT) -> None:
    """Wait until every client holds the same latest game update.

    Each client's ``until`` wakes only on its own pushes, and the last push
    may reach any of them last, so this one looks every few milliseconds.
    """
    async with asyncio.timeout(timeout):
        while len({c.game["seq"] if c.game else None for c in clients}) > 1:  # noqa: ASYNC110 - see above
            await asyncio.sleep(0.005)


async def table_with(
    host: Client, *, seats: int = 4, bots: tuple[str, ...] = (), **options: Any
) -> dict[str, Any]:
    """A table created by ``host`` with ``bots`` added; its table map."""
    reply = await host.request("create_table", name="Test table", seats=seats, **options)
    for level in bots:
        await host.request("add_bot", level=level)
    return reply["table"]
