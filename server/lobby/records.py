"""A finished game as a stored record: the engine's record format (docs/records.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..engine import Game
from ..engine.records import Seat as RecordSeat
from ..engine.records import game_record

if TYPE_CHECKING:
    from .table import GameSeat


def make_record(game: Game, seats: Sequence[GameSeat]) -> dict[str, Any]:
    """The engine's record of ``game``, whose players sat in ``seats`` (the game's roster,
    ``Table.game_seats``): a replay that ``engine.records.replay`` checks."""
    return game_record(game, [RecordSeat(seat.name, seat.level) for seat in seats])
