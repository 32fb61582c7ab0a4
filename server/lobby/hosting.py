"""At a table: the host's powers, readiness, rematches, and moves."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from ..bots import BOT_LEVELS
from ..engine import MIN_PLAYERS, Action, InvalidSetup
from ..protocol import ErrorCode, ProtocolError, TableStatus
from .needs import Seated
from .table import BOT, IN_GAME, Seat, Table
from .tables import Leaving, require_host, require_lobby_phase, require_seat, vacate

if TYPE_CHECKING:
    from .session import Session

Reply = dict[str, Any]


class Hosting(Seated, Leaving, Protocol):
    """What the requests at a table need of the lobby: the seat of who asks, someone's
    leaving (a kick), and the lobby's list told of a change."""

    def table_changed(self, table: Table) -> None: ...


def _seat_at(table: Table, index: int) -> Seat:
    seat = table.seats[index] if 0 <= index < table.capacity else None
    if seat is None:
        raise ProtocolError(ErrorCode.NOT_FOUND, f"seat {index} is empty")
    return seat


async def _changed(lobby: Hosting, table: Table) -> None:
    await lobby.store.save_table(table.id, table.to_meta())
    table.push_table()
    lobby.table_changed(table)


async def add_bot(lobby: Hosting, session: Session, message: dict[str, Any]) -> Reply:
    table = require_host(lobby.places, session)
    require_lobby_phase(table)
    level = message["level"]
    if level not in BOT_LEVELS:
        raise ProtocolError(ErrorCode.BAD_LEVEL, f"bot levels: {', '.join(BOT_LEVELS)}")
    index = table.free_seat()
    if index is None:
        raise ProtocolError(ErrorCode.TABLE_FULL, "every seat at this table is taken")
    table.seats[index] = Seat(BOT, table.bot_name(level), level=level)
    await _changed(lobby, table)
    return {"seat": index}


async def remove_bot(lobby: Hosting, session: Session, message: dict[str, Any]) -> Reply:
    table = require_host(lobby.places, session)
    require_lobby_phase(table)
    index = message["seat"]
    if _seat_at(table, index).kind != BOT:
        raise ProtocolError(ErrorCode.NOT_FOUND, f"seat {index} is not a bot")
    table.seats[index] = None
    await _changed(lobby, table)
    return {}


async def kick(lobby: Hosting, session: Session, message: dict[str, Any]) -> Reply:
    table = require_host(lobby.places, session)
    index = message["seat"]
    seat = _seat_at(table, index)
    if seat.kind == BOT:
        raise ProtocolError(ErrorCode.WRONG_PHASE, "remove a bot with remove_bot")
    if not seat.is_person:
        raise ProtocolError(ErrorCode.NOT_FOUND, f"seat {index} already left")
    if seat.player_id == session.player_id:
        raise ProtocolError(ErrorCode.WRONG_PHASE, "you cannot kick yourself: leave instead")
    await vacate(lobby, table, index, removed_by=session.player_id)
    return {}


async def start_game(lobby: Hosting, session: Session, message: dict[str, Any]) -> Reply:
    table = require_host(lobby.places, session)
    if table.status != TableStatus.WAITING:
        raise ProtocolError(ErrorCode.WRONG_PHASE, "the game has already started")
    if len(table.filled()) < MIN_PLAYERS:
        raise ProtocolError(
            ErrorCode.NOT_ENOUGH_PLAYERS, f"at least {MIN_PLAYERS} seats must be filled"
        )
    waiting_for = [
        s.name for s in table.people() if not s.ready and s.player_id != session.player_id
    ]
    if waiting_for:
        raise ProtocolError(ErrorCode.NOT_READY, f"not ready yet: {', '.join(waiting_for)}")
    await table.play.start_game()
    return {}


async def ready(lobby: Hosting, session: Session, message: dict[str, Any]) -> Reply:
    table, index = require_seat(lobby.places, session)
    if table.status not in (TableStatus.WAITING, TableStatus.BETWEEN_ROUNDS):
        raise ProtocolError(ErrorCode.WRONG_PHASE, "ready is for before a game or a round")
    seat = _seat_at(table, index)
    seat.ready = bool(message.get("ready", True))
    await _changed(lobby, table)
    table.play.wake()
    return {}


async def rematch(lobby: Hosting, session: Session, message: dict[str, Any]) -> Reply:
    table, index = require_seat(lobby.places, session)
    if table.status != TableStatus.FINISHED:
        raise ProtocolError(ErrorCode.WRONG_PHASE, "a rematch comes after a finished game")
    _seat_at(table, index).rematch = True
    present = [s for i, s in table.filled() if s.is_person and table.session_at(i) is not None]
    if all(s.rematch for s in present) and len(table.filled()) >= MIN_PLAYERS:
        await table.play.start_game()
    else:
        await _changed(lobby, table)
    return {}


async def act(lobby: Hosting, session: Session, message: dict[str, Any]) -> Reply:
    table, index = require_seat(lobby.places, session)
    if table.status not in IN_GAME:
        raise ProtocolError(ErrorCode.WRONG_PHASE, "no game is being played at this table")
    if table.status != TableStatus.PLAYING:
        raise ProtocolError(ErrorCode.WRONG_PHASE, "the round is over: wait for the next one")
    data = {"player": index, **message["action"]}
    try:
        action = Action.from_dict(data)
    except InvalidSetup as exc:
        raise ProtocolError(ErrorCode.BAD_FIELD, str(exc)) from None
    if action.player != index:
        raise ProtocolError(ErrorCode.NOT_YOUR_SEAT, f"you play seat {index}")
    return {"seq": await table.play.act(action)}


HANDLERS = {
    "add_bot": add_bot,
    "remove_bot": remove_bot,
    "kick": kick,
    "start_game": start_game,
    "ready": ready,
    "rematch": rematch,
    "act": act,
}
