"""Forgetting guests: a name that never mattered does not stay in the database for ever.

Every ``hello`` with a new name stores a player (its id is what tables, tokens
and mutes refer to). A player who finished no game and whose name is not
reserved by an SSH key is forgotten once unused for ``forget_after`` seconds:
the row goes, the name is free again, its resume token stops working. Nobody
loses anything they could see: no statistics, no game, no reserved name. People
online, holding a seat or watching a table are never forgotten.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .lobby import Lobby

logger = logging.getLogger(__name__)

SWEEP_EVERY = 3600.0  # seconds between two sweeps, at most
SWEEP_AT_LEAST = 60.0  # ... and at least


class GuestSweeper:
    def __init__(self, lobby: Lobby, forget_after: float) -> None:
        self.lobby = lobby
        self.forget_after = forget_after
        self._task: asyncio.Task[None] | None = None

    def in_use(self) -> set[int]:
        """Players the lobby holds now: online, seated (even away) or watching."""
        lobby = self.lobby
        held = lobby.places.held()
        for table in lobby.tables.values():
            held |= {s.player_id for _, s in table.filled() if s.player_id is not None}
        return held

    async def sweep(self) -> int:
        """Forget the guests unused for long enough; how many were forgotten."""
        before = time.time() - self.forget_after
        forgotten = await self.lobby.store.forget_guests(before, self.in_use())
        if forgotten:
            logger.info("forgot %d unused guest names", forgotten)
        return forgotten

    async def start(self) -> None:
        """Sweep once now (the server starts), then now and then while it runs."""
        await self.sweep()
        self._task = asyncio.get_running_loop().create_task(self._run(), name="guest-sweeper")

    async def _run(self) -> None:
        interval = max(SWEEP_AT_LEAST, min(SWEEP_EVERY, self.forget_after))
        while True:
            await asyncio.sleep(interval)
            try:
                await self.sweep()
            except Exception:
                logger.exception("forgetting unused guests failed; tried again later")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
