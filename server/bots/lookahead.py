"""``expert``'s lookahead on close calls: judge a move by our next turn.

When the cheapest ways to play a drawn card are nearly level, each is judged
by what it leaves for our next turn: the expected cost of the best way to
play the card we will draw then, over what the move leaves (and, for a flip,
every card it may show). A move that closes the round keeps its exact
closing cost: there is no next turn.
"""

from __future__ import annotations

import random
from dataclasses import replace

from server.engine import Action, ActionKind, TableauView

from .counting import LOWEST, VALUES, Counts
from .plan import Plan

#: Sampled deals when a lookahead imagines a position where we could close.
LOOKAHEAD_SAMPLES = 50

#: When the two cheapest ways to play a drawn card are this close, look one turn further.
CLOSE_CALL = 0.75
SEARCHED_OPTIONS = 2


def is_close_call(plan: Plan, options: list[tuple[float, Action]]) -> bool:
    if plan.last_turn or len(options) < 2:
        return False
    return options[1][0] - options[0][0] < CLOSE_CALL


def look_ahead(
    plan: Plan,
    options: list[tuple[float, Action]],
    unseen: Counts,
    draws: Counts,
    rng: random.Random,
) -> Action:
    """Judge each option by our next turn: the expected cost of the best way to play
    the card we will draw then, over what the option leaves (and what a flip shows)."""
    best_value, best_action = float("inf"), options[0][1]
    for cost, action in options:
        if plan.may_close and _closes(plan, action):
            value = cost  # the round ends: the closing cost is already exact
        else:
            value = sum(
                outcome[0] * _next_turn_cost(plan, outcome, unseen, draws, rng)
                for outcome in _outcomes(plan, action)
            ) + _discard_feed(plan, action)
        if value < best_value:
            best_value, best_action = value, action
    return best_action


def _closes(plan: Plan, action: Action) -> bool:
    """True when ``action`` settles our last face-down card."""
    return action.pos in plan.hidden


Outcome = tuple[float, tuple[int | None, ...], tuple[int, ...], int | None]


def _outcomes(plan: Plan, action: Action) -> list[Outcome]:
    """What ``action`` may leave: (chance, our cards, removed columns, card it reveals)."""
    assert action.pos is not None and plan.view.drawn_card is not None
    if action.kind is ActionKind.SWAP_DRAWN:
        return [(1.0, *_placed(plan, action.pos, plan.view.drawn_card), None)]
    return [
        (p, *_placed(plan, action.pos, value), value)
        for p, value in zip(plan.o.p_face_down, VALUES, strict=True)
        if p
    ]


def _placed(plan: Plan, pos: int, card: int) -> tuple[tuple[int | None, ...], tuple[int, ...]]:
    cards = list(plan.cards)
    cards[pos] = card
    removed = [c for c in range(4) if c not in plan.live]
    column = pos // 3
    top = column * 3
    if plan.settings.clear_columns and cards[top] == cards[top + 1] == cards[top + 2]:
        cards[top : top + 3] = [None, None, None]
        removed.append(column)
    return tuple(cards), tuple(sorted(removed))


def _next_turn_cost(
    plan: Plan,
    outcome: Outcome,
    unseen: Counts,
    draws: Counts,
    rng: random.Random,
) -> float:
    _, cards, removed, seen = outcome
    if seen is not None:  # a flip showed this card: it is no longer unseen
        shown = list(unseen)
        shown[seen - LOWEST] -= 1
        draws = shown if draws is unseen else draws
        unseen = shown
    tableaux = list(plan.view.tableaux)
    tableaux[plan.seat] = TableauView(cards, removed, 0)
    after = replace(plan.view, tableaux=tuple(tableaux), drawn_card=None, legal_actions=())
    ahead = Plan(after, unseen, draws, plan.settings, plan.params, rng, LOOKAHEAD_SAMPLES)
    if not ahead.hidden and not ahead.last_turn:
        return ahead.total
    return ahead.draw_cost()


def _discard_feed(plan: Plan, action: Action) -> float:
    """What the card ``action`` puts on the discard hands the next player."""
    assert action.pos is not None and plan.view.drawn_card is not None
    if action.kind is ActionKind.DISCARD_AND_FLIP:
        return plan.feed[plan.view.drawn_card - LOWEST]
    replaced = plan.cards[action.pos]
    return plan.feed_hidden if replaced is None else plan.feed[replaced - LOWEST]
