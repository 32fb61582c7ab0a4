"""The lobby: everyone connected, every table, and the dispatch of requests.

Network adapters (``server.app``) decode frames and call ``handle``; each
request type has a handler in ``accounts``, ``tables``, ``hosting``, ``chat``,
``who`` or ``coach`` returning the reply's fields, or raising ``ProtocolError`` (or
the engine's ``IllegalAction``), which becomes an ``error`` reply. Nothing a
client sends can reach another table except through these handlers.

A handler is given this lobby as what its module says it needs of it (a
``Protocol``: ``accounts.Accounts``, ``tables.Seating``, ``hosting.Hosting``,
``chat.Chatting``, ``who.Asking``, ``needs.Seated``), never as ``Lobby``: what
each may touch is written where it is used, and the handler modules do not
import this one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from ..config import ServerConfig
from ..engine import IllegalAction
from ..protocol import ErrorCode, LeftReason, LeftTablePush, ProtocolError, error, ok
from ..store import Store
from . import accounts, chat, coach, hosting, tables, who
from .bans import Bans
from .guests import GuestSweeper, ReturnTries
from .listing import TableListing
from .places import Places
from .play import TablePlay
from .quotas import TableQuotas
from .session import Session
from .table import IN_GAME, Removal, Table
from .thinking import BotThinker
from .who import WhoIsHere

logger = logging.getLogger(__name__)

Handler = Callable[["Lobby", Session, dict[str, Any]], Awaitable[dict[str, Any]]]
HANDLERS: dict[str, Handler] = {
    **accounts.HANDLERS,
    **tables.HANDLERS,
    **hosting.HANDLERS,
    **chat.HANDLERS,
    **who.HANDLERS,
    **coach.HANDLERS,
}
#: Errors after which the connection is closed (the peer cannot go on).
FATAL = frozenset({ErrorCode.VERSION_MISMATCH, ErrorCode.BANNED})


class Lobby:
    def __init__(self, store: Store, config: ServerConfig) -> None:
        self.store = store
        self.config = config
        self.limits = config.limits
        self.sessions: set[Session] = set()  # every connection, named or not yet
        self.places = Places()  # who is online, and who sits at or watches which table
        self.tables: dict[str, Table] = {}
        # The stored lobby chat's latest lines, oldest first (chat.py keeps both in step).
        self.lobby_chat: deque[dict[str, Any]] = deque(maxlen=chat.LOBBY_HISTORY)
        self.names_lock = asyncio.Lock()
        self.thinker = BotThinker()
        self.listing = TableListing(self.tables, self.places.lobby_sessions, config.limits)
        self.who = WhoIsHere(self.places, self.places.lobby_sessions)
        self.places.on_change = self.who.changed
        self.quotas = TableQuotas(config.limits)
        self.guests = GuestSweeper(
            store, self.places, self.tables, config.limits.forget_guests_after
        )
        self.return_tries = ReturnTries()
        self.bans = Bans(store)
        # Told of every move once it is broadcast, with the seconds since it arrived
        # (server.metrics): nothing by default.
        self.move_observers: list[Callable[[float], None]] = []

    # -- lifecycle -------------------------------------------------------------------

    async def load(self) -> None:
        """Bring back every saved table and the lobby's chat, as they were (after a
        restart or a crash)."""
        await self.bans.load()
        await chat.load_lobby_history(self)
        for saved in await self.store.load_tables():
            try:
                table = Table.from_meta(
                    saved.table_id, saved.meta, places=self.places, play=self.play_for
                )
                self.tables[table.id] = table
                # Everyone is away until they come back with their token.
                for _, seat in table.filled():
                    if seat.is_person and seat.player_id is not None:
                        self.places.put(seat.player_id, table, watching=False)
                for player_id in saved.meta.get("watchers", []):
                    self.places.put(player_id, table, watching=True)
                table.chat.extend(saved.chat)
                await table.play.restore(saved)
            except Exception:
                # Kept in the database untouched: a later version may read it.
                logger.exception("table %s could not be restored; skipped", saved.table_id)
                if self.tables.pop(saved.table_id, None) is not None:
                    self.places.clear(table)
                continue
            table.play.start_clock()
        logger.info("restored %d tables", len(self.tables))
        await self.guests.start()

    async def stop(self) -> None:
        """Close every connection and stop every table (all is already stored)."""
        self.listing.stop()
        self.who.stop()
        await self.guests.stop()
        for session in list(self.sessions):
            session.close(ErrorCode.SHUTTING_DOWN, "the server is shutting down")
        for table in list(self.tables.values()):
            await table.play.stop_clock()
        self.thinker.close()

    def play_for(self, table: Table) -> TablePlay:
        """The game of a table being built (``Table``'s ``play``): this lobby's store,
        pace and bots' thinker, and the lobby told of what its game does."""
        return TablePlay(table, self.store, self.config.pace, self, self.thinker)

    def add_table(self, table: Table) -> None:
        """A table made by ``Table(..., places=self.places, play=self.play_for)`` opens."""
        self.tables[table.id] = table
        table.play.start_clock()

    # -- connections -----------------------------------------------------------------

    def connected(self, session: Session) -> None:
        self.sessions.add(session)

    def disconnected(self, session: Session) -> None:
        """The connection ended: the player keeps their place, away."""
        self.sessions.discard(session)
        self.listing.forget(session)
        self.who.forget(session)
        self.go_offline(session)

    def go_offline(self, session: Session) -> None:
        """``session`` is no longer its player's connection (it ended, or changes player)."""
        place = self.places.go_offline(session)
        if place is not None:
            self.presence_changed(place.table)

    def presence_changed(
        self, table: Table, removed: Removal | None = None, arrived: Session | None = None
    ) -> None:
        """Someone came (``arrived``, if they just did), went, or dropped at ``table``, or
        the host ``removed`` someone: everyone there and the lobby are told."""
        table.push_table(removed, arrived)
        table.play.presence_changed()
        self.table_changed(table)

    async def come_online(self, session: Session) -> bool:
        """``session`` is its player's connection now, replacing an older one.

        A player with a place (a seat kept, or a table they watched) is put
        back in it; the ``table`` and ``game`` pushes are sent. True then.
        Under the table's lock: no move's push reaches them before the state
        it follows from (the round so far, ``send_state``).
        """
        assert session.player_id is not None
        kept = self.places.where(session.player_id)
        async with kept.table.play.lock if kept is not None else contextlib.nullcontext():
            older, place = self.places.come_online(session)
            if older is not None:
                older.close(ErrorCode.REPLACED, "you connected again from somewhere else")
            if place is None:
                session.send(chat.lobby_history(self, session))
                return False
            self.presence_changed(place.table, arrived=session)
            place.table.play.send_state(session)
            return True

    def release(self, player_id: int, table: Table) -> None:
        """``player_id`` leaves their place at ``table``: if online, they are in the lobby now."""
        if self.places.remove(player_id, table) is None:
            return
        session = self.places.session_of(player_id)
        if session is not None:
            session.send(chat.lobby_history(self, session))

    async def place(self, session: Session, table: Table, *, watching: bool) -> None:
        """``session``'s player sits at (or watches) ``table``; everyone there is told."""
        assert session.player_id is not None
        async with table.play.lock:  # as in come_online: the state first, then the moves
            self.places.put(session.player_id, table, watching=watching)
            if table.status in IN_GAME:
                table.see_the_game()
            await self.store.save_table(table.id, table.to_meta())
            self.presence_changed(table, arrived=session)
            table.play.send_state(session)

    # -- requests --------------------------------------------------------------------

    async def handle(self, session: Session, message: dict[str, Any]) -> None:
        """Answer one checked request; the reply (or error) goes back on ``session``."""
        re = message.get("id")
        try:
            self._check_allowed(session, message["type"])
            result = await HANDLERS[message["type"]](self, session, message)
        except ProtocolError as exc:
            session.send(error(re, exc.code, exc.message, **exc.details))
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

    def moved(self, seconds: float) -> None:
        """A move was played and pushed to everyone, ``seconds`` after it arrived."""
        for observer in self.move_observers:
            observer(seconds)

    def table_changed(self, table: Table) -> None:
        """A public table changed: the lobby's list is pushed again shortly."""
        self.listing.changed(table)

    async def close_table(self, table: Table, reason: LeftReason) -> None:
        """Close a table: once it is deleted, everyone at it is told and goes back to the lobby."""
        if self.tables.pop(table.id, None) is None:
            return
        self.quotas.closed(table.id)
        present = table.sessions()
        self.places.clear(table)
        await table.play.stop_clock()
        await self.store.delete_table(table.id)
        for session in present:
            session.send(LeftTablePush(table.id, reason).to_wire())
            session.send(chat.lobby_history(self, session))
        self.table_changed(table)
        logger.info("table %s closed (%s)", table.id, reason)
