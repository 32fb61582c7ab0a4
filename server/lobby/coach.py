"""The coach at a table: ``hint`` answers the best move of the asker's own view.

The hint is judged by ``server.bots.advice``, the evaluation the expert bot
plays by, from exactly what the asker may see: their ``view_for`` and the
round's public events (for the count of the cards seen). It is worked out in
the bots' threads, off the event loop. The reply is data (the moves and their
costs in points); the client puts it into words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..bots.advice import Advice, MoveCost, advise, counter_for
from ..engine import Event, PlayerView, Settings, public_event, view_for
from ..protocol import ErrorCode, ProtocolError, TableStatus
from .needs import Seated
from .tables import require_seat

if TYPE_CHECKING:
    from .session import Session

Reply = dict[str, Any]


async def hint(lobby: Seated, session: Session, message: dict[str, Any]) -> Reply:
    table, index = require_seat(lobby.places, session)
    if not table.hints:
        raise ProtocolError(ErrorCode.HINTS_OFF, "the table's host turned hints off")
    play = table.play
    async with play.lock:
        game = play.game
        if game is None or table.status != TableStatus.PLAYING:
            raise ProtocolError(ErrorCode.WRONG_PHASE, "no round is being played at this table")
        if index not in play.acting_seats():
            raise ProtocolError(
                ErrorCode.NOT_YOUR_TURN, "it is not your turn: a hint is for a move you make now"
            )
        view = view_for(game, index)
        events: list[Event] = [game.round.start_event()]
        events += [event for move in game.history[-1].moves for event in move.events]
        public = [public_event(event) for event in events]
    advice = await play.bots.thinker.run(lambda: _advise(view, public, table.settings))
    return {"hint": hint_to_wire(advice)}


def _advise(view: PlayerView, public: list[Event], settings: Settings) -> Advice:
    return advise(view, counter_for(public), settings)


def hint_to_wire(advice: Advice) -> dict[str, Any]:
    """The ``hint`` map of docs/protocol.md: the best move, its strongest other kind of
    move, and every legal move with the points it gives away against the best."""
    alternative = advice.alternative()
    return {
        "move": advice.best.action.to_dict(),
        "alternative": None if alternative is None else _move(advice, alternative),
        "moves": [_move(advice, move) for move in advice.moves],
    }


def _move(advice: Advice, move: MoveCost) -> dict[str, Any]:
    return {"move": move.action.to_dict(), "given_away": round(advice.given_away(move.action), 2)}


HANDLERS = {"hint": hint}
