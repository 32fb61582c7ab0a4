"""The expert's judgement of every legal move: one evaluation for the bot, the hint and the review.

``advise`` takes what a seat may know (its ``PlayerView``, a ``CardCounter``
that followed the round's public events, the table's ``Settings``) and ranks
every legal move by its *cost*: the points it is expected to add to this
seat's final round score, as the expert's model (``plan``, ``model``) prices
it. The first move is the one ``expert`` plays; the difference between a
move's cost and the first one's is what that move gives away.

On close calls (``lookahead``) the expert judges the nearly level options by
the next turn instead; its pick then comes first even when the model's
one-turn cost put it a fraction of a point behind, and no move is said to
give away anything against a cheaper one.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from server.engine import Action, ActionKind, Event, PlayerView, Settings

from .counting import CardCounter
from .lookahead import SEARCHED_OPTIONS, is_close_call, look_ahead
from .model import Params
from .plan import Plan

#: Turns each, after which a round has gone on too long (a table where nobody
#: wants to close): the expert then settles a face-down card every turn until it closes.
OVERDUE_TURNS = 40

#: The seed of the sampling done for a hint or a review (the bot has its own).
ADVICE_SEED = "skyjo-advice"


@dataclass(frozen=True, slots=True)
class MoveCost:
    """One legal move and what the model expects it to add to the round's final score."""

    action: Action
    cost: float


@dataclass(frozen=True, slots=True)
class Advice:
    """Every legal move of one decision, the expert's choice first, then cheapest first."""

    moves: tuple[MoveCost, ...]

    @property
    def best(self) -> MoveCost:
        return self.moves[0]

    def given_away(self, action: Action) -> float:
        """The points ``action`` is expected to cost against the best move (never below 0)."""
        cost = next(m.cost for m in self.moves if m.action == action)
        return max(0.0, cost - self.best.cost)

    def alternative(self) -> MoveCost | None:
        """The best move of another kind than the best (draw rather than take, keep the
        drawn card rather than discard it...), else the next best; None when there is none."""
        kind = self.best.action.kind
        other = next((m for m in self.moves[1:] if m.action.kind is not kind), None)
        if other is None and len(self.moves) > 1:
            return self.moves[1]
        return other


def counter_for(events: Iterable[Event]) -> CardCounter:
    """A card counter that followed ``events`` (public ones: what the table saw)."""
    counter = CardCounter()
    counter.observe(list(events))
    return counter


def advise(
    view: PlayerView,
    counter: CardCounter,
    settings: Settings,
    params: Params = Params(),
    rng: random.Random | None = None,
) -> Advice:
    """Rank every legal move of ``view``'s seat (see the module's docstring).

    ``counter`` must have followed the round's public events; it is brought in
    step with ``view`` first. ``rng`` drives the model's sampling (the bot
    passes its own; by default each call samples alike, so advice repeats).
    """
    assert view.seat is not None and view.legal_actions, "advice is for a seat that must act"
    rng = rng if rng is not None else random.Random(ADVICE_SEED)
    counter.sync(view)
    kind = view.legal_actions[0].kind
    if kind is ActionKind.FLIP:
        return _initial_flip(view, rng)
    unseen = counter.unseen(view)
    draws = counter.draw_pile(view, unseen)
    plan = Plan(view, unseen, draws, settings, params, rng)
    overdue = counter.turns >= OVERDUE_TURNS * len(view.tableaux)
    if kind is ActionKind.DRAW:
        options = plan.take_or_draw_costs()
        if overdue:
            pick = Action.draw(view.seat)
            return _with_first(options, pick)
        return _advice(options)
    assert view.drawn_card is not None
    options = plan.options_with(view.drawn_card)
    if overdue:  # settle a face-down card every turn: the round must end
        pick = next((a for _, a in options if a.pos in plan.hidden), options[0][1])
        return _with_first(options, pick)
    if is_close_call(plan, options):
        pick = look_ahead(plan, options[:SEARCHED_OPTIONS], unseen, draws, rng)
        return _with_first(options, pick)
    return _advice(options)


def _advice(options: Sequence[tuple[float, Action]]) -> Advice:
    return Advice(tuple(MoveCost(action, cost) for cost, action in options))


def _with_first(options: Sequence[tuple[float, Action]], pick: Action) -> Advice:
    """``options`` (cheapest first) with ``pick`` moved to the front."""
    chosen = [option for option in options if option[1] == pick]
    return _advice(chosen + [option for option in options if option[1] != pick])


def _initial_flip(view: PlayerView, rng: random.Random) -> Advice:
    """Spread the two flips over different columns: each tells about its own column.

    The model prices every first flip alike (nothing is known yet); the pick is
    one of the columns not opened yet, at random.
    """
    assert view.seat is not None
    cards = view.tableaux[view.seat].cards
    opened = {pos // 3 for pos, card in enumerate(cards) if card is not None}
    fresh = [a for a in view.legal_actions if a.pos is not None and a.pos // 3 not in opened]
    pick = rng.choice(fresh or list(view.legal_actions))
    return _with_first([(0.0, a) for a in view.legal_actions], pick)
