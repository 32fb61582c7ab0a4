"""The lobby's list of public tables: pages of it, and pushes of what changed.

A lobby client sees one page of the list (``list_tables`` with ``offset`` and
``limit``, at most ``limits.tables_page`` tables), never the whole list: with
hundreds of tables the whole list was tens of kilobytes, sent to every lobby
client every second. After a change the page each lobby client was shown is
looked at again: at once when the lobby was quiet, and at most once every
``LIST_PUSH_INTERVAL`` while tables keep changing:

- a client that asked to ``follow`` gets ``tables_changed``: the page's order
  (table ids) and only the summaries it does not have yet;
- any other client (one written before paging) gets ``tables``: its page whole.

A client at a table hears nothing of the lobby; back in it, it gets what
changed on its page since it was last sent it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..config import Limits
from ..protocol import (
    ErrorCode,
    ProtocolError,
    TablesChangedPush,
    TablesPush,
    TableStatus,
    encode_frame,
)

if TYPE_CHECKING:
    from .session import Session
    from .table import Table

Summary = dict[str, Any]
LIST_PUSH_INTERVAL = 1.0  # seconds between two pushes of the list to the lobby
#: The list's order: tables one can join first, then games in play, then finished ones.
STATUS_ORDER = {
    TableStatus.WAITING: 0,
    TableStatus.PLAYING: 1,
    TableStatus.BETWEEN_ROUNDS: 1,
    TableStatus.FINISHED: 2,
}


@dataclass(slots=True)
class Window:
    """The page of the list one lobby client sees, and what it was last sent of it."""

    offset: int
    limit: int
    follow: bool = False  # send changes (tables_changed), not the whole page (tables)
    sent: dict[str, Summary] | None = None  # None: it was sent nothing yet
    order: list[str] = field(default_factory=list)
    total: int = 0


class TableListing:
    def __init__(
        self,
        tables: Mapping[str, Table],
        lobby_sessions: Callable[[], Iterable[Session]],
        limits: Limits,
    ) -> None:
        self._tables = tables  # the lobby's: this module reads them, never keeps its own copy
        self._lobby_sessions = lobby_sessions  # who is in the lobby: the lobby knows (Places)
        self.page_size = limits.tables_page
        self._windows: dict[Session, Window] = {}
        self._push: asyncio.TimerHandle | None = None
        self._last_push = float("-inf")  # the loop's time of the last push

    # -- the list --------------------------------------------------------------------

    def ordered(self) -> list[Table]:
        public = [t for t in self._tables.values() if not t.private]
        return sorted(public, key=lambda t: (STATUS_ORDER.get(t.status, 3), t.created, t.id))

    def page(self, offset: int, limit: int) -> tuple[list[Table], int]:
        """The tables of one page, and how many public tables there are in all."""
        ordered = self.ordered()
        return ordered[offset : offset + limit], len(ordered)

    def list_tables(self, session: Session, message: dict[str, Any]) -> dict[str, Any]:
        """The ``list_tables`` reply; the page becomes the one pushed to this client."""
        offset, limit = message.get("offset", 0), message.get("limit", self.page_size)
        if offset < 0:
            raise ProtocolError(ErrorCode.BAD_FIELD, "offset must be 0 or more")
        if not 1 <= limit <= self.page_size:
            raise ProtocolError(ErrorCode.BAD_FIELD, f"limit must be 1..{self.page_size}")
        tables, total = self.page(offset, limit)
        summaries = [t.summary() for t in tables]
        window = Window(offset, limit, follow=bool(message.get("follow", False)))
        self._remember(window, summaries, total)
        self._windows[session] = window
        return {"tables": summaries, "total": total, "offset": offset, "limit": limit}

    @staticmethod
    def _remember(window: Window, summaries: list[Summary], total: int) -> None:
        window.sent = {s["table_id"]: s for s in summaries}
        window.order = [s["table_id"] for s in summaries]
        window.total = total

    # -- pushes ----------------------------------------------------------------------

    def changed(self, table: Table) -> None:
        """A table changed: if it is public, the lobby hears of it shortly."""
        if not table.private and self._push is None:
            loop = asyncio.get_running_loop()
            # The first change after a quiet spell goes out on the next turn of the loop
            # (a new table is listed at once; the changes one request makes go together);
            # later ones wait for the interval since the last push.
            wait = max(0.0, self._last_push + LIST_PUSH_INTERVAL - loop.time())
            self._push = loop.call_later(wait, self.push)

    def push(self) -> None:
        """Send each lobby client what changed on its page (nothing if nothing did)."""
        self._push = None
        self._last_push = asyncio.get_running_loop().time()
        ordered = self.ordered()
        pages: dict[tuple[int, int], list[Summary]] = {}
        whole_pages: dict[tuple[int, int], bytes] = {}
        for session in list(self._lobby_sessions()):
            window = self._windows.get(session)
            if window is None:
                window = self._windows[session] = Window(0, self.page_size)
            key = (window.offset, window.limit)
            if key not in pages:
                tables = ordered[window.offset : window.offset + window.limit]
                pages[key] = [t.summary() for t in tables]
            summaries = pages[key]
            order, total, sent = [s["table_id"] for s in summaries], len(ordered), window.sent
            new = [s for s in summaries if sent is None or sent.get(s["table_id"]) != s]
            if sent is not None and not new and order == window.order and total == window.total:
                continue  # its page is as it was last sent
            if window.follow:
                session.send(TablesChangedPush(window.offset, total, order, new).to_wire())
            else:
                if key not in whole_pages:
                    whole = TablesPush(summaries, total).to_wire()
                    whole_pages[key] = encode_frame(whole)
                session.send_frame(whole_pages[key])
            self._remember(window, summaries, total)

    def forget(self, session: Session) -> None:
        """The connection ended."""
        self._windows.pop(session, None)

    def stop(self) -> None:
        if self._push is not None:
            self._push.cancel()
            self._push = None
