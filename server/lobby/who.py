"""Who is here: the players online and where each is (the lobby, a seat, watching).

Answered from ``Places`` (the one record of who is online and where), one page
at a time: a big server shows a count and a page, never thousands of names.
A ``who`` request also asks to be kept informed: while its sender is in the
lobby, a ``who`` push brings its page again when it changed, at most about once
a second. A private table's name is never told: its players are "at a private
table".
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ..protocol import ErrorCode, ProtocolError, WhoPush

if TYPE_CHECKING:
    from .places import Places
    from .session import Session

WHO_PAGE = 50  # the most names in one page
WHO_PUSH_INTERVAL = 1.0  # seconds between two pushes of a page


@dataclass(slots=True)
class WhoWindow:
    offset: int
    limit: int
    sent: dict[str, Any] | None = field(default=None)


class WhoIsHere:
    def __init__(self, places: Places, lobby_sessions: Callable[[], Iterator[Session]]) -> None:
        self._places = places
        self._lobby_sessions = lobby_sessions
        self._windows: dict[Session, WhoWindow] = {}
        self._push: asyncio.TimerHandle | None = None

    def entry(self, session: Session) -> dict[str, Any]:
        place = self._places.place_of(session)
        if place is None:
            return {"name": session.name, "where": "lobby", "table_id": None, "table_name": None}
        table = place.table
        hidden = table.private
        return {
            "name": session.name,
            "where": "watching" if place.watching else "seated",
            "table_id": None if hidden else table.id,
            "table_name": None if hidden else table.name,
        }

    def page(self, offset: int, limit: int) -> dict[str, Any]:
        online = sorted(
            (s for s in self._places.online_sessions() if s.name),
            key=lambda s: (str(s.name).casefold(), s.player_id or 0),
        )
        return {
            "players": [self.entry(s) for s in online[offset : offset + limit]],
            "total": len(online),
            "offset": offset,
        }

    def ask(self, session: Session, message: dict[str, Any]) -> dict[str, Any]:
        offset, limit = message.get("offset", 0), message.get("limit", WHO_PAGE)
        if offset < 0:
            raise ProtocolError(ErrorCode.BAD_FIELD, "offset: 0 or more")
        if not 1 <= limit <= WHO_PAGE:
            raise ProtocolError(ErrorCode.BAD_FIELD, f"limit: 1..{WHO_PAGE}")
        page = self.page(offset, limit)
        self._windows[session] = WhoWindow(offset, limit, page)
        return {**page, "limit": limit}

    def changed(self) -> None:
        """Someone came, went, sat down or stood up: the pages are looked at shortly."""
        if self._push is None and self._windows:
            with_loop = asyncio.get_running_loop()
            self._push = with_loop.call_later(WHO_PUSH_INTERVAL, self.push)

    def push(self) -> None:
        self._push = None
        for session in list(self._lobby_sessions()):
            window = self._windows.get(session)
            if window is None:
                continue
            page = self.page(window.offset, window.limit)
            if page != window.sent:
                window.sent = page
                session.send(WhoPush(**page).to_wire())

    def forget(self, session: Session) -> None:
        self._windows.pop(session, None)

    def stop(self) -> None:
        if self._push is not None:
            self._push.cancel()
            self._push = None


class Asking(Protocol):
    """What a ``who`` request needs of the lobby: who is here."""

    @property
    def who(self) -> WhoIsHere: ...


async def who(lobby: Asking, session: Session, message: dict[str, Any]) -> dict[str, Any]:
    return lobby.who.ask(session, message)


HANDLERS = {"who": who}
