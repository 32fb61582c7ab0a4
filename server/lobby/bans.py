"""Who may not play here: SSH keys (any trusted identity) and names the admin banned.

Kept in SQLite (``bans``), so a ban survives a restart, and in memory, so
the SSH door can ask during authentication without waiting. A banned
identity is refused at hello, by every door; a banned name cannot be
claimed, nor logged in as (with its token or its owner's key), by anyone.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum

from ..store import Store
from .text import name_key


class BanKind(str, Enum):
    IDENTITY = "identity"  # e.g. "ssh-key:SHA256:...": that key cannot log in
    NAME = "name"  # nobody may play under that name (compared ignoring case)


class Bans:
    def __init__(self, store: Store) -> None:
        self._store = store
        self._banned: dict[tuple[BanKind, str], str] = {}  # (kind, value) -> as the admin typed it
        self.observers: list[Callable[[], None]] = []
        """Called after each ban and unban (the door hosts' copies: ``server.link.gate``)."""

    async def load(self) -> None:
        self._banned = {
            (BanKind(kind), value): shown for kind, value, shown in await self._store.load_bans()
        }

    @staticmethod
    def _value(kind: BanKind, text: str) -> str:
        return name_key(text.strip()) if kind is BanKind.NAME else text.strip()

    def identity_banned(self, identity: str | None) -> bool:
        return identity is not None and (BanKind.IDENTITY, identity) in self._banned

    def name_banned(self, name: str) -> bool:
        return (BanKind.NAME, self._value(BanKind.NAME, name)) in self._banned

    async def ban(self, kind: BanKind, text: str) -> bool:
        """Ban (stored before it returns); False if it already was."""
        value = self._value(kind, text)
        added = await self._store.set_ban(kind.value, value, text.strip(), True)
        self._banned[kind, value] = text.strip()
        self._changed()
        return added

    async def unban(self, kind: BanKind, text: str) -> bool:
        """Lift a ban; False if there was none."""
        value = self._value(kind, text)
        removed = await self._store.set_ban(kind.value, value, "", False)
        self._banned.pop((kind, value), None)
        self._changed()
        return removed

    def banned_identities(self) -> list[str]:
        """Every banned identity (door hosts keep a copy: ``server.link``)."""
        return sorted(value for kind, value in self._banned if kind is BanKind.IDENTITY)

    def _changed(self) -> None:
        for observer in list(self.observers):
            observer()

    def listing(self) -> list[dict[str, str]]:
        return [{"kind": kind.value, "value": shown} for (kind, _), shown in self._banned.items()]
