"""A finished game as a stored record: the engine's record format (docs/records.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine import Game
from ..engine.records import Seat as RecordSeat
from ..engine.records import game_record

if TYPE_CHECKING:
    from .table import Table


def make_record(game: Game, table: Table) -> dict[str, Any]:
    """The engine's record of ``game``: a replay that ``engine.records.replay`` checks.

    Call it before seats of people who left are cleared: the record names who
    sat where when the game began.
    """
    seats = [RecordSeat(seat.name, seat.level) for _, seat in table.filled()]
    return game_record(game, seats)
