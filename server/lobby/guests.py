"""Guests: their way back to a seat, and forgetting those whose name never mattered.

A guest without a key (``ssh -o PubkeyAuthentication=no``, a browser that keeps
no cookie, a TCP client that lost its token) has nothing the server would know
them by when they connect again: while their seat waits for them, its name is
taken, and anyone else could type it. Each such player is given a **return
code** at every login (``new_return_code``), which their table shows them; the
name and that code, given at the name prompt, take the seat back (a stranger
with the name only is refused). Tries are counted per address (``ReturnTries``).

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
import ipaddress
import logging
import secrets
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from ..limits import TokenBucket

if TYPE_CHECKING:
    from ..store import Store
    from .places import Places
    from .table import Table

logger = logging.getLogger(__name__)

#: The characters of a return code: no 0/O, 1/I/L to misread. Eight of them are about
#: 40 bits: at ``ReturnTries``' pace one address would take some 800,000 years to guess one.
RETURN_CODE_ALPHABET: Final = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
RETURN_CODE_LENGTH: Final = 8
#: Return codes tried from one address: this many at once, then one more a minute.
RETURN_TRIES_BURST: Final = 5
RETURN_TRIES_PER_SECOND: Final = 1 / 60
#: Addresses remembered at most before those that tried nothing lately are forgotten.
RETURN_TRIES_KEPT: Final = 4096


def new_return_code() -> str:
    """A fresh code, as shown: ``7KQM-3XHD`` (``normal_return_code`` reads it back)."""
    code = "".join(secrets.choice(RETURN_CODE_ALPHABET) for _ in range(RETURN_CODE_LENGTH))
    half = RETURN_CODE_LENGTH // 2
    return f"{code[:half]}-{code[half:]}"


def normal_return_code(typed: str) -> str | None:
    """A typed code as it was shown (any case, spaces or dashes anywhere); None: not one."""
    letters = "".join(ch for ch in typed.upper() if ch not in " -")
    if len(letters) != RETURN_CODE_LENGTH or any(ch not in RETURN_CODE_ALPHABET for ch in letters):
        return None
    half = RETURN_CODE_LENGTH // 2
    return f"{letters[:half]}-{letters[half:]}"


class ReturnTries:
    """Return codes tried per address, right or wrong: a few at once, then one a minute.

    An IPv6 address counts as its /64: one machine is given a whole /64 to pick from.
    """

    def __init__(self) -> None:
        self._by_address: dict[str, TokenBucket] = {}

    def take(self, address: str) -> bool:
        """True when ``address`` may try a code now (the try is counted)."""
        address = _whose(address)
        bucket = self._by_address.get(address)
        if bucket is None:
            if len(self._by_address) >= RETURN_TRIES_KEPT:
                self._by_address = {a: b for a, b in self._by_address.items() if not b.full()}
            bucket = TokenBucket(RETURN_TRIES_PER_SECOND, RETURN_TRIES_BURST)
            self._by_address[address] = bucket
        return bucket.take()


SWEEP_EVERY = 3600.0  # seconds between two sweeps, at most
SWEEP_AT_LEAST = 60.0  # ... and at least


def _whose(address: str) -> str:
    """Who tries from ``address``, as far as an address says: an IPv6 one's /64."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address  # not an address (the local game's "in-process")
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is None:
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip.ipv4_mapped) if isinstance(ip, ipaddress.IPv6Address) else str(ip)


class GuestSweeper:
    """Forgets the guests unused for ``forget_after`` seconds, but those the lobby holds
    (``places``: online or with a place; ``tables``: seated, in the store's tables too)."""

    def __init__(
        self, store: Store, places: Places, tables: Mapping[str, Table], forget_after: float
    ) -> None:
        self.store, self.places, self.tables = store, places, tables
        self.forget_after = forget_after
        self._task: asyncio.Task[None] | None = None

    def in_use(self) -> set[int]:
        """Players the lobby holds now: online, seated (even away) or watching."""
        held = self.places.held()
        for table in self.tables.values():
            held |= {s.player_id for _, s in table.filled() if s.player_id is not None}
        return held

    async def sweep(self) -> int:
        """Forget the guests unused for long enough; how many were forgotten."""
        before = time.time() - self.forget_after
        forgotten = await self.store.forget_guests(before, self.in_use())
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
