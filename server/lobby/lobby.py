"""The lobby: everyone connected, every table, and the dispatch of requests.

Network adapters (``server.app``) decode frames and call ``handle``; each
request type has a handler in ``accounts``, ``tables``, ``hosting`` or
``chat`` returning the reply's fields, or raising ``ProtocolError`` (or the
engine's ``IllegalAction``), which becomes an ``error`` reply. Nothing a
client sends can reach another table except through these handlers.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from ..config import ServerConfig
from ..engine import MAX_PLAYERS, MIN_PLAYERS, IllegalAction
from ..protocol import ErrorCode, ProtocolError, error, ok
from ..store import Store
from . import accounts, chat, hosting, tables
from .guests import GuestSweeper
from .listing import TableListing
from .play import TablePlay
from .quotas import TableQuotas
from .session import Session
from .table import Table
from .thinking import BotThinker

logger = logging.getLogger(__name__)

Handler = Callable[["Lobby", Session, dict[str, Any]], Awaitable[dict[str, Any]]]
HANDLERS: dict[str, Handler] = {
    **accounts.HANDLERS,
    **tables.HANDLERS,
    **hosting.HANDLERS,
    **chat.HANDLERS,
}
#: Errors after which the connection is closed (the peer cannot go on).
FATAL = frozenset({ErrorCode.VERSION_MISMATCH})


class Lobby:
    MIN_SEATS, MAX_SEATS = MIN_PLAYERS, MAX_PLAYERS

    def __init__(self, store: Store, config: ServerConfig) -> None:
        self.store = store
        self.config = config
        self.limits = config.limits
        self.sessions: set[Session] = set()
        self.by_player: dict[int, Session] = {}
        self.tables: dict[str, Table] = {}
        self.seated: dict[int, Table] = {}  # player id -> the table where they hold a seat
        self.watching: dict[int, Table] = {}  # player id -> the table they watch, even while away
        self.names_lock = asyncio.Lock()
        self.thinker = BotThinker()
        self.listing = TableListing(self.tables, self.sessions, config.limits)
        self.quotas = TableQuotas(config.limits)
        self.guests = GuestSweeper(self, config.limits.forget_guests_after)

    # -- lifecycle -------------------------------------------------------------------

    async def load(self) -> None:
        """Bring back every saved table, as it was (after a restart or a crash)."""
        for saved in await self.store.load_tables():
            try:
                table = Table.from_meta(saved.table_id, saved.meta)
                self._adopt(table)
                await table.play.restore(saved)
            except Exception:
                # Kept in the database untouched: a later version may read it.
                logger.exception("table %s could not be restored; skipped", saved.table_id)
                self.tables.pop(saved.table_id, None)
                continue
            for _, seat in table.filled():
                if seat.is_person and seat.player_id is not None:
                    self.seated[seat.player_id] = table
            self.watching.update(dict.fromkeys(table.watcher_ids, table))
            table.play.start_driver()
        logger.info("restored %d tables", len(self.tables))
        await self.guests.start()

    async def stop(self) -> None:
        """Close every connection and stop every table (all is already stored)."""
        self.listing.stop()
        await self.guests.stop()
        for session in list(self.sessions):
            session.close(ErrorCode.SHUTTING_DOWN, "the server is shutting down")
        for table in list(self.tables.values()):
            await table.play.stop_driver()
        self.thinker.close()

    def _adopt(self, table: Table) -> None:
        table.play = TablePlay(table, self.store, self.config.pace, self, self.thinker)
        self.tables[table.id] = table

    def new_table_id(self) -> str:
        while True:
            table_id = "t" + secrets.token_hex(3)
            if table_id not in self.tables:
                return table_id

    def add_table(self, table: Table) -> None:
        self._adopt(table)
        table.play.start_driver()

    # -- connections -----------------------------------------------------------------

    def connected(self, session: Session) -> None:
        self.sessions.add(session)

    def disconnected(self, session: Session) -> None:
        """The connection ended: keep the seat, leave the audience."""
        self.sessions.discard(session)
        self.listing.forget(session)
        self.detach(session)
        self.forget_player(session)

    def forget_player(self, session: Session) -> None:
        if session.player_id is not None and self.by_player.get(session.player_id) is session:
            del self.by_player[session.player_id]

    def detach(self, session: Session) -> None:
        """Unhook a connection from its table; a seat stays, marked away."""
        table = session.table
        if table is None:
            return
        session.table = None
        if session in table.spectators:
            table.spectators.discard(session)
        elif session.seat is not None:
            seat = table.seats[session.seat]
            if seat is not None and seat.session is session:
                seat.session = None
                seat.away_since = time.monotonic()
        session.seat = None
        table.push_table()
        table.play.presence_changed()
        self.table_changed(table)

    def return_to_table(self, session: Session) -> bool:
        """A person coming back to the seat they hold, or to the table they watched.

        True when they were returned; the ``table`` and ``game`` pushes are sent.
        """
        assert session.player_id is not None
        if self._return_to_seat(session):
            return True
        table = self.watching.get(session.player_id)
        if table is None or self.tables.get(table.id) is not table:
            return False
        self.watch(session, table)
        return True

    def watch(self, session: Session, table: Table) -> None:
        """``session`` watches ``table`` from now on: it gets the table and the game."""
        table.spectators.add(session)
        session.table, session.seat = table, None
        table.push_table()
        table.play.send_state(session)
        table.play.presence_changed()
        self.table_changed(table)

    async def set_watching(self, player_id: int, table: Table | None) -> None:
        """Remember (durably) which table a player watches, so they come back to it."""
        old = self.watching.pop(player_id, None)
        changed = [t for t in (old, table) if t is not None and t.id in self.tables]
        if old is not None:
            old.watcher_ids.discard(player_id)
        if table is not None:
            self.watching[player_id] = table
            table.watcher_ids.add(player_id)
        for each in {t.id: t for t in changed}.values():
            await self.store.save_table(each.id, each.to_meta())

    def _return_to_seat(self, session: Session) -> bool:
        assert session.player_id is not None
        table = self.seated.get(session.player_id)
        index = None if table is None else table.seat_of(session.player_id)
        if table is None or index is None:
            return False
        seat = table.seats[index]
        assert seat is not None
        seat.session, seat.away_since, seat.autoplay = session, None, False
        session.table, session.seat = table, index
        table.push_table()
        table.play.send_state(session)
        table.play.presence_changed()
        return True

    # -- requests --------------------------------------------------------------------

    async def handle(self, session: Session, message: dict[str, Any]) -> None:
        """Answer one checked request; the reply (or error) goes back on ``session``."""
        re = message.get("id")
        try:
            self._check_allowed(session, message["type"])
            result = await HANDLERS[message["type"]](self, session, message)
        except ProtocolError as exc:
            session.send(error(re, exc.code, exc.message))
            if exc.code in FATAL:
                session.close(exc.code, exc.message)
        except IllegalAction as exc:
            session.send(error(re, ErrorCode.ILLEGAL_ACTION, str(exc)))
        except Exception:
            logger.exception("%r: %s failed", session, message["type"])
            session.send(error(re, ErrorCode.INTERNAL, "the server failed on this request"))
        else:
            session.send(ok(re, **result))

    @staticmethod
    def _check_allowed(session: Session, kind: str) -> None:
        if not session.welcomed:
            if kind != "hello":
                raise ProtocolError(ErrorCode.HELLO_FIRST, "say hello first")
        elif kind == "hello":
            raise ProtocolError(ErrorCode.ALREADY_WELCOMED, "hello was already answered")
        elif not session.has_name and kind not in ("set_name", "ping"):
            raise ProtocolError(ErrorCode.NAME_REQUIRED, "choose a name first (set_name)")

    # -- tables -----------------------------------------------------------------------

    def find_table(self, message: dict[str, Any]) -> Table:
        """A table by ``table_id`` (public ones) or ``code`` (any)."""
        table_id, code = message.get("table_id"), message.get("code")
        if code is not None:
            wanted = code.strip().upper()
            for table in self.tables.values():
                if table.code == wanted:
                    return table
        elif table_id is not None:
            table = self.tables.get(table_id)
            if table is not None and not table.private:
                return table
        else:
            raise ProtocolError(ErrorCode.BAD_FIELD, "give a table_id or a code")
        raise ProtocolError(ErrorCode.NOT_FOUND, "no such table")

    def table_changed(self, table: Table) -> None:
        """A public table changed: the lobby's list is pushed again shortly."""
        self.listing.changed(table)

    def seat_released(self, player_id: int) -> None:
        self.seated.pop(player_id, None)

    async def close_table(self, table: Table, reason: str) -> None:
        """Close a table: once it is deleted, everyone at it is told and goes back to the lobby."""
        if self.tables.pop(table.id, None) is None:
            return
        self.quotas.closed(table.id)
        present = table.sessions()
        for session in present:
            session.table, session.seat = None, None
        for _, seat in table.filled():
            if seat.player_id is not None and self.seated.get(seat.player_id) is table:
                del self.seated[seat.player_id]
        for player_id in table.watcher_ids:
            if self.watching.get(player_id) is table:
                del self.watching[player_id]
        table.spectators.clear()
        await table.play.stop_driver()
        await self.store.delete_table(table.id)
        for session in present:
            session.send({"type": "left_table", "table_id": table.id, "reason": reason})
        self.table_changed(table)
        logger.info("table %s closed (%s)", table.id, reason)
