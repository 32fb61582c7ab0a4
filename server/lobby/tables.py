"""Lobby requests about tables: list, create, join, watch, leave.

The handlers take the lobby as what they need of it (``Seating``, ``Leaving``), not
as the whole lobby.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from ..engine import MAX_PLAYERS, MIN_PLAYERS, InvalidSetup, Settings
from ..protocol import ErrorCode, LeftReason, LeftTablePush, ProtocolError, TableStatus
from .needs import Limited, Seated, Storing
from .table import HUMAN, IN_GAME, Removal, Seat, Table
from .text import TextError, clean_name

if TYPE_CHECKING:
    from ..config import Limits
    from .listing import TableListing
    from .places import Places
    from .play import TablePlay
    from .quotas import TableQuotas
    from .session import Session


class Leaving(Storing, Protocol):
    """What a person leaving their seat needs of the lobby (``vacate``)."""

    def release(self, player_id: int, table: Table) -> None: ...

    async def close_table(self, table: Table, reason: LeftReason) -> None: ...

    def presence_changed(
        self, table: Table, removed: Removal | None = None, arrived: Session | None = None
    ) -> None: ...


class Seating(Seated, Leaving, Limited, Protocol):
    """What the requests about tables need of the lobby: who is where, its tables and
    their list, the limits on them, and a new table's making and opening."""

    @property
    def tables(self) -> Mapping[str, Table]: ...

    @property
    def listing(self) -> TableListing: ...

    @property
    def quotas(self) -> TableQuotas: ...

    def play_for(self, table: Table) -> TablePlay: ...

    def add_table(self, table: Table) -> None: ...

    async def place(self, session: Session, table: Table, *, watching: bool) -> None: ...


Reply = dict[str, Any]
TABLE_NAME_MAX = 40


async def list_tables(lobby: Seating, session: Session, message: dict[str, Any]) -> Reply:
    return lobby.listing.list_tables(session, message)


def _table_name(raw: str) -> str:
    try:
        return clean_name(raw, TABLE_NAME_MAX, "a table name")
    except TextError as exc:
        raise ProtocolError(ErrorCode.BAD_FIELD, str(exc)) from None


def _settings(raw: Any) -> Settings:
    if raw is None:
        return Settings()
    try:
        return Settings.from_dict(raw)
    except InvalidSetup as exc:
        raise ProtocolError(ErrorCode.BAD_SETTINGS, str(exc)) from None


def _timer(limits: Limits, raw: int | None) -> int | None:
    if raw is not None and not limits.turn_timer_min <= raw <= limits.turn_timer_max:
        raise ProtocolError(
            ErrorCode.BAD_TIMER,
            f"a turn timer is {limits.turn_timer_min} to {limits.turn_timer_max} seconds",
        )
    return raw


def _seed(raw: int | None, private: bool) -> int | None:
    if raw is not None and not private:
        raise ProtocolError(
            ErrorCode.BAD_SEED, "only a private table can be given a seed (its games are not rated)"
        )
    return raw


def _chosen_seat(table: Table, wanted: int | None) -> int:
    """The seat to sit in: ``wanted`` if it is free, else (None) the lowest free one."""
    if wanted is None:
        index = table.free_seat()
        if index is None:
            raise ProtocolError(ErrorCode.TABLE_FULL, "every seat at this table is taken")
        return index
    if not 0 <= wanted < table.capacity:
        raise ProtocolError(
            ErrorCode.NOT_FOUND,
            f"no seat {wanted}: this table's seats are 0 to {table.capacity - 1}",
        )
    if table.seats[wanted] is not None:
        free = [i for i, s in enumerate(table.seats) if s is None]
        where = f"free seats: {', '.join(map(str, free))}" if free else "the table is full"
        raise ProtocolError(ErrorCode.SEAT_TAKEN, f"seat {wanted} is taken ({where})")
    return wanted


def _not_at_a_table(places: Places, session: Session) -> None:
    if places.table_of(session) is not None:
        raise ProtocolError(ErrorCode.ALREADY_AT_TABLE, "leave your table first")


async def create_table(lobby: Seating, session: Session, message: dict[str, Any]) -> Reply:
    _not_at_a_table(lobby.places, session)
    seats = message["seats"]
    if not MIN_PLAYERS <= seats <= MAX_PLAYERS:
        raise ProtocolError(
            ErrorCode.BAD_SEATS, f"a table has {MIN_PLAYERS} to {MAX_PLAYERS} seats"
        )
    private = bool(message.get("private", False))
    table = Table(
        _new_table_id(lobby.tables),
        _table_name(message["name"]),
        seats,
        _settings(message.get("settings")),
        places=lobby.places,
        play=lobby.play_for,
        private=private,
        turn_timer=_timer(lobby.limits, message.get("turn_timer")),
        seed=_seed(message.get("seed"), private),
        hints=message.get("hints") is not False,
    )
    index = _chosen_seat(table, message.get("seat", 0))
    lobby.quotas.check(session, len(lobby.tables))
    lobby.add_table(table)
    lobby.quotas.created(table.id, session)
    table.host_id = session.player_id
    await _sit(lobby, session, table, index)
    return {"table": table.wire_for(session)}


def _new_table_id(tables: Mapping[str, Table]) -> str:
    while True:
        table_id = "t" + secrets.token_hex(3)
        if table_id not in tables:
            return table_id


def find_table(tables: Mapping[str, Table], message: dict[str, Any]) -> Table:
    """A table by ``table_id`` (public ones) or ``code`` (any)."""
    table_id, code = message.get("table_id"), message.get("code")
    if code is not None:
        wanted = code.strip().upper()
        for table in tables.values():
            if table.code == wanted:
                return table
    elif table_id is not None:
        found = tables.get(table_id)
        if found is not None and not found.private:
            return found
    else:
        raise ProtocolError(ErrorCode.BAD_FIELD, "give a table_id or a code")
    raise ProtocolError(ErrorCode.NOT_FOUND, "no such table")


async def _sit(lobby: Seating, session: Session, table: Table, index: int) -> None:
    assert session.player_id is not None and session.name is not None
    table.seats[index] = Seat(HUMAN, session.name, player_id=session.player_id)
    await lobby.place(session, table, watching=False)


async def join_table(lobby: Seating, session: Session, message: dict[str, Any]) -> Reply:
    # Seated anywhere, or watching another table: refused. Watching this very table,
    # one may sit down at it (in the seat chosen).
    place = lobby.places.place_of(session)
    if place is not None and not place.watching:
        _not_at_a_table(lobby.places, session)  # before the table's lookup, as always
    table = find_table(lobby.tables, message)
    if place is not None and place.table is not table:
        _not_at_a_table(lobby.places, session)
    if table.status in IN_GAME:
        raise ProtocolError(ErrorCode.WRONG_PHASE, "a game is on at this table: watch it instead")
    await _sit(lobby, session, table, _chosen_seat(table, message.get("seat")))
    return {"table": table.wire_for(session)}


async def spectate(lobby: Seating, session: Session, message: dict[str, Any]) -> Reply:
    _not_at_a_table(lobby.places, session)
    table = find_table(lobby.tables, message)
    await lobby.place(session, table, watching=True)
    return {"table": table.wire_for(session)}


async def leave_table(lobby: Seating, session: Session, message: dict[str, Any]) -> Reply:
    place = lobby.places.place_of(session)
    if place is None:
        raise ProtocolError(ErrorCode.NOT_AT_TABLE, "you are not at a table")
    table = place.table
    index = table.seat_of(place.player_id)
    if place.watching or index is None:
        lobby.release(place.player_id, table)
        await lobby.store.save_table(table.id, table.to_meta())  # watchers are remembered
        lobby.presence_changed(table)
        return {}
    await vacate(lobby, table, index)
    return {}


async def vacate(lobby: Leaving, table: Table, index: int, removed_by: int | None = None) -> None:
    """A person leaves seat ``index``, or the host (``removed_by``) removes them from it.

    Out of a game the seat empties; during one a bot plays it to the end.
    """
    seat = table.seats[index]
    assert seat is not None and seat.player_id is not None
    session = table.session_at(index)
    if session is not None and removed_by is not None:
        session.send(LeftTablePush(table.id, LeftReason.KICKED).to_wire())
    lobby.release(seat.player_id, table)
    if table.status in IN_GAME:
        seat.left, seat.ready = True, False
    else:
        table.seats[index] = None
    table.pass_host()
    if not table.people():
        await lobby.close_table(table, LeftReason.CLOSED)
        return
    await lobby.store.save_table(table.id, table.to_meta())
    # The server says who was removed: a seat that empties reads the same either way.
    removed = None if removed_by is None else Removal(seat.player_id, seat.name, removed_by)
    lobby.presence_changed(table, removed)


def require_seat(places: Places, session: Session) -> tuple[Table, int]:
    """The table where ``session`` holds a seat, and the seat's number now."""
    table = places.table_of(session)
    if table is None:
        raise ProtocolError(ErrorCode.NOT_AT_TABLE, "you are not at a table")
    index = places.seat_of(session)
    if index is None:
        raise ProtocolError(ErrorCode.NOT_SEATED, "you are watching: only players may do this")
    return table, index


def require_host(places: Places, session: Session) -> Table:
    table, _ = require_seat(places, session)
    if table.host_id != session.player_id:
        raise ProtocolError(ErrorCode.NOT_HOST, "only the table's host may do this")
    return table


def require_lobby_phase(table: Table) -> None:
    if table.status not in (TableStatus.WAITING, TableStatus.FINISHED):
        raise ProtocolError(ErrorCode.WRONG_PHASE, "not while a game is on")


HANDLERS = {
    "list_tables": list_tables,
    "create_table": create_table,
    "join_table": join_table,
    "spectate": spectate,
    "leave_table": leave_table,
}
