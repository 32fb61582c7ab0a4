"""A game's review for one seat: what each of its moves cost against the best one.

From a game record alone (docs/records.md): the engine replays it step by
step (``replay_steps``), and before each move of the seat its own view is
rebuilt (``view_for``) with the round's public events so far, exactly what
the player had in front of them. ``advise`` (the evaluation the expert plays
by, and the hint) ranks the legal moves of that view; a move's cost is what
it gives away against the best. The initial flips are not judged: the model
prices every first card alike. Nor is a move a bot chose for a person (a
stand-in's, marked in the record): it is listed, as the bot's, and counts in
no cost.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from server.engine import Action, ActionKind, Event, PlayerView, Settings, public_event, view_for
from server.engine.movelog import Standin
from server.engine.records import replay_steps

from .advice import advise, counter_for

#: A move that gives away at least this many points is a costly one.
COSTLY = 1.0


@dataclass(frozen=True, slots=True)
class ReviewedMove:
    """One decision of the seat: the view it was made from, what was played, what was best."""

    step: int  # the index of the move among the record's steps (each round's deal is one)
    round: int  # 1-based
    turn: int  # the seat's turn in the round, 1-based (a draw and its card: the same turn)
    view: PlayerView  # the seat's view just before the move
    played: Action
    best: Action  # a stand-in's move: the move itself (it is not judged)
    given_away: float  # points, against the best move (0 when it was the best, or not judged)
    standin: Standin | None = None  # a bot chose it for the person: not theirs to answer for

    @property
    def judged(self) -> bool:
        """The seat's own player chose it: it counts in the review."""
        return self.standin is None

    @property
    def costly(self) -> bool:
        return self.judged and self.given_away >= COSTLY


@dataclass(frozen=True, slots=True)
class Review:
    seat: int
    moves: tuple[ReviewedMove, ...]

    @property
    def costly(self) -> tuple[ReviewedMove, ...]:
        return tuple(move for move in self.moves if move.costly)

    @property
    def points_given_away(self) -> float:
        """Everything the seat's own moves gave away against the best ones, over the game."""
        return sum(move.given_away for move in self.moves if move.judged)

    @property
    def standins(self) -> tuple[ReviewedMove, ...]:
        """The moves a bot chose for the seat's person: shown, never counted."""
        return tuple(move for move in self.moves if not move.judged)

    def next_costly(self, after_step: int) -> ReviewedMove | None:
        """The first costly move after record step ``after_step``, else the first one at all."""
        costly = self.costly
        return next((m for m in costly if m.step > after_step), costly[0] if costly else None)


def review_game(record: Mapping[str, Any], seat: int) -> Review:
    """Judge every move ``seat`` made in ``record`` (raises ``ReplayDivergence`` on a bad
    record, as ``replay_steps`` does)."""
    if not 0 <= seat < len(record["seats"]):
        raise ValueError(f"no seat {seat} in a game of {len(record['seats'])}")
    settings = Settings.from_dict(record["settings"])
    reviewed: list[ReviewedMove] = []
    round_events: list[Event] = []
    before: PlayerView | None = None  # the seat's view after the last step, when it must act
    heard: list[Event] = []  # the public events until then
    turn = 0
    for index, step in enumerate(replay_steps(record)):
        if step.action is None:
            round_events, turn = [], 0
        action = step.action
        if action is not None and action.player == seat and action.kind is not ActionKind.FLIP:
            assert before is not None
            if action.kind in (ActionKind.DRAW, ActionKind.TAKE_DISCARD):
                turn += 1  # a turn begins (the drawn card's move is the same turn)
            if step.standin is not None:  # the bot's move: no advice asked, nothing held
                best, given_away = action, 0.0
            else:
                advice = advise(before, counter_for(heard), settings)
                best, given_away = advice.best.action, advice.given_away(action)
            reviewed.append(
                ReviewedMove(
                    index, step.round, turn, before, action, best, given_away, step.standin
                )
            )
        round_events += [public_event(event) for event in step.events]
        view = view_for(step.game, seat)
        before, heard = (view, list(round_events)) if view.legal_actions else (None, [])
    return Review(seat, tuple(reviewed))
