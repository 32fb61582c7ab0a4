"""What the lobby's handlers need of it, piece by piece.

Each handler module says what it needs of the lobby as a ``Protocol`` built from
these pieces and its own (``accounts.Accounts``, ``tables.Seating``,
``hosting.Hosting``, ``chat.Chatting``, ``who.Asking``): the ``Lobby`` satisfies
them all, and no handler module imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..config import Limits
    from ..store import Store
    from .places import Places


class Seated(Protocol):
    """Who is online and where: a request of someone at a table finds their seat here."""

    @property
    def places(self) -> Places: ...


class Storing(Protocol):
    """The store: what must survive a restart is written there before anyone hears it."""

    @property
    def store(self) -> Store: ...


class Limited(Protocol):
    """The server's limits (names, chat, tables, timers)."""

    @property
    def limits(self) -> Limits: ...
