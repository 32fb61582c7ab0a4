"""The Skyjo rules engine: pure, deterministic, no I/O.

Everything else (server, bots, client, records) plays through this API and
never re-implements a rule.
"""

from .actions import Action, ActionKind
from .cards import DECK, DECK_COMPOSITION, MEAN_CARD_VALUE, TABLEAU_SIZE
from .deal import Deal
from .errors import EngineError, IllegalAction, InvalidSetup, ReplayDivergence
from .events import Event, event_from_dict
from .game import Game, GamePhase, settle_round
from .position import Position
from .records import ReplayStep, Seat, game_record, read_records, record_line, replay, replay_steps
from .round import Phase, Round, closer_penalty
from .settings import MAX_PLAYERS, MIN_PLAYERS, OPTIONS, Settings, Starter
from .views import PlayerView, TableauView, ViewPhase, public_event, tableau_view, view_for

__all__ = [
    "DECK",
    "DECK_COMPOSITION",
    "MAX_PLAYERS",
    "MEAN_CARD_VALUE",
    "MIN_PLAYERS",
    "OPTIONS",
    "TABLEAU_SIZE",
    "Action",
    "ActionKind",
    "Deal",
    "EngineError",
    "Event",
    "Game",
    "GamePhase",
    "IllegalAction",
    "InvalidSetup",
    "Phase",
    "PlayerView",
    "Position",
    "ReplayDivergence",
    "ReplayStep",
    "Round",
    "Seat",
    "Settings",
    "Starter",
    "TableauView",
    "ViewPhase",
    "closer_penalty",
    "event_from_dict",
    "game_record",
    "public_event",
    "read_records",
    "record_line",
    "replay",
    "replay_steps",
    "settle_round",
    "tableau_view",
    "view_for",
]
