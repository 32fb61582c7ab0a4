"""What one player (or a spectator) may see, and nothing more.

A view never holds a face-down card or the order of the draw pile: it is
built from the public facts of RULES.md ("Information: who may see what")
and is the only thing the server sends about a table's cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .actions import Action
from .cards import COLUMNS, ROWS, TABLEAU_SIZE
from .events import Event, PileReshuffled
from .game import Game, GamePhase
from .round import Phase, Round


class ViewPhase(StrEnum):
    """Where the game a view shows stands: the round's ``Phase`` while the game goes on,
    then ``game_over``. Derived from the game (``of``), never kept; a ``StrEnum``, so it
    is the very string the wire carries (``view.phase == "choose"`` holds too)."""

    INITIAL_FLIPS = Phase.INITIAL_FLIPS.value
    CHOOSE = Phase.CHOOSE.value
    DRAWN = Phase.DRAWN.value
    ROUND_OVER = Phase.ROUND_OVER.value
    GAME_OVER = GamePhase.GAME_OVER.value

    @classmethod
    def of(cls, game: Game) -> ViewPhase:
        if game.phase is GamePhase.GAME_OVER:
            return cls.GAME_OVER
        return cls(game.round.phase.value)

    @property
    def over(self) -> bool:
        """The round (or the whole game) is over: no one moves until the next round."""
        return self in _OVER

    @property
    def turns(self) -> bool:
        """Someone (the current player) has a turn: to choose, or to place a drawn card."""
        return self in _TURNS


_OVER = frozenset({ViewPhase.ROUND_OVER, ViewPhase.GAME_OVER})
_TURNS = frozenset({ViewPhase.CHOOSE, ViewPhase.DRAWN})


@dataclass(frozen=True, slots=True)
class TableauView:
    """12 slots, pos = column*3 + row: a value when face up, None when face down.

    Slots of a removed column are None too; ``removed_columns`` says which.
    """

    cards: tuple[int | None, ...]
    removed_columns: tuple[int, ...]
    visible_score: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "cards": list(self.cards),
            "removed_columns": list(self.removed_columns),
            "visible_score": self.visible_score,
        }


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: int | None  # the viewer's seat; None for a spectator
    round: int
    phase: ViewPhase
    current_player: int | None
    tableaux: tuple[TableauView, ...]
    discard_top: int
    pile_size: int
    drawn_card: int | None
    closer: int | None
    initial_flips_pending: tuple[int, ...]
    totals: tuple[int, ...]
    round_scores: tuple[int, ...] | None  # final scores once the round is over
    winners: tuple[int, ...]
    legal_actions: tuple[Action, ...]  # the viewer's own moves now

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "round": self.round,
            "phase": self.phase.value,
            "current_player": self.current_player,
            "tableaux": [t.to_dict() for t in self.tableaux],
            "discard_top": self.discard_top,
            "pile_size": self.pile_size,
            "drawn_card": self.drawn_card,
            "closer": self.closer,
            "initial_flips_pending": list(self.initial_flips_pending),
            "totals": list(self.totals),
            "round_scores": None if self.round_scores is None else list(self.round_scores),
            "winners": list(self.winners),
            "legal_actions": [a.to_dict() for a in self.legal_actions],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlayerView:
        return cls(
            seat=data["seat"],
            round=data["round"],
            phase=ViewPhase(data["phase"]),
            current_player=data["current_player"],
            tableaux=tuple(
                TableauView(tuple(t["cards"]), tuple(t["removed_columns"]), t["visible_score"])
                for t in data["tableaux"]
            ),
            discard_top=data["discard_top"],
            pile_size=data["pile_size"],
            drawn_card=data["drawn_card"],
            closer=data["closer"],
            initial_flips_pending=tuple(data["initial_flips_pending"]),
            totals=tuple(data["totals"]),
            round_scores=None if data["round_scores"] is None else tuple(data["round_scores"]),
            winners=tuple(data["winners"]),
            legal_actions=tuple(Action.from_dict(a) for a in data["legal_actions"]),
        )


def tableau_view(round_: Round, player: int) -> TableauView:
    """``player``'s tableau as everyone sees it: face-up cards only."""
    cards, up = round_.cards[player], round_.face_up[player]
    removed = round_.removed[player]
    slots = tuple(
        cards[pos] if up[pos] and not removed[pos // ROWS] else None for pos in range(TABLEAU_SIZE)
    )
    gone = tuple(c for c in range(COLUMNS) if removed[c])
    return TableauView(slots, gone, round_.visible_score(player))


def view_for(game: Game, seat: int | None) -> PlayerView:
    """The table as ``seat`` sees it (``None``: a spectator's view)."""
    round_ = game.round
    legal = tuple(game.legal_actions(seat)) if seat is not None else ()
    return PlayerView(
        seat=seat,
        round=round_.number,
        phase=ViewPhase.of(game),
        current_player=round_.current,
        tableaux=tuple(tableau_view(round_, p) for p in range(game.players)),
        discard_top=round_.discard_top,
        pile_size=len(round_.pile),
        drawn_card=round_.drawn if round_.phase is Phase.DRAWN else None,
        closer=round_.closer,
        initial_flips_pending=tuple(round_.pending_flippers()),
        totals=game.totals,
        round_scores=round_.final_scores,
        winners=game.winners,
        legal_actions=legal,
    )


def public_event(event: Event) -> Event:
    """The event as every player may see it: a reshuffle loses its secret order."""
    if isinstance(event, PileReshuffled) and event.order is not None:
        return PileReshuffled(event.pile_size)
    return event
