"""``master``: the expert's judgement, checked on imagined deals.

On every turn the expert's model (``plan``) prices the moves. When its few
best moves are close, ``master`` settles between them by determinized Monte
Carlo: it deals the cards it cannot see at random, consistent with everything
it has seen (``simulation.determinize``), plays each candidate in that deal,
lets the others play their turns (a cheap policy that sees what they would
see: whether they take what we threw away, whether our closing leaves us
lowest), and judges where that leaves the table: each tableau priced by the
expert's model from its face-up cards, or the exact scores when the round is
over. It keeps the candidate that leaves it best placed against the others'
mean. Every candidate is tried on the same deals, so their difference is
measured with less noise than their values; the model's first choice is
kept unless another candidate beats it by ``CONFIDENCE`` standard errors of
that difference (with 24 deals and no such rule, half of the search's changes
to the model's choice were by less than one standard error: noise).

The budget is a number of deals, not a clock: a decision is the same whatever
the machine's load, and a seed replays a game exactly.
"""

from __future__ import annotations

import math

from server.engine import Action, ActionKind, PlayerView, Round

from .expert import OVERDUE_TURNS, ExpertBot
from .model import column_cost
from .plan import Plan
from .simulation import copy_round, determinize, play_until_turn_of, rollout_policy, shown_columns

#: Deals imagined for each searched decision.
DEALS = 96
#: How many of the expert's best moves are compared, at most.
CANDIDATES = 3
#: Moves priced more than this over the expert's best (in points) are not searched.
MARGIN = 1.5
#: How many standard errors (over the same deals) another candidate must beat the
#: model's first choice by to be played instead: the search overrules the model on evidence.
CONFIDENCE = 1.0


class MasterBot(ExpertBot):
    level = "master"
    description = (
        "thinks like the expert, then settles its close calls by trying each on many "
        "imagined deals of the cards it has not seen and playing the others' replies."
    )

    deals = DEALS
    candidates = CANDIDATES
    margin = MARGIN
    confidence = CONFIDENCE

    def choose(self, view: PlayerView) -> Action:
        self.counter.sync(view)
        kind = view.legal_actions[0].kind
        overdue = self.counter.turns >= OVERDUE_TURNS * len(view.tableaux)
        if kind is ActionKind.FLIP or overdue:
            return super().choose(view)
        unseen = self.counter.unseen(view)
        draws = self.counter.draw_pile(view, unseen)
        plan = Plan(view, unseen, draws, self.settings, self.params, self._rng)
        candidates = self._candidates(plan, view)
        if len(candidates) == 1:
            return candidates[0]
        return self._search(view, plan, candidates)

    def _candidates(self, plan: Plan, view: PlayerView) -> list[Action]:
        """The expert's best moves, cheapest first, within ``margin`` of the best."""
        if view.drawn_card is None:
            ranked = list(plan.take_and_draw())
        else:
            ranked = plan.options_with(view.drawn_card)
        ranked.sort(key=lambda option: option[0])
        best = ranked[0][0]
        return [a for cost, a in ranked[: self.candidates] if cost - best < self.margin]

    def _search(self, view: PlayerView, plan: Plan, candidates: list[Action]) -> Action:
        outcomes: list[list[float]] = [[] for _ in candidates]
        for _ in range(self.deals):
            deal = determinize(view, self.counter, self.settings, self._rng)
            for i, action in enumerate(candidates):
                outcomes[i].append(self._outcome(deal, action, plan))
        best = min(range(len(candidates)), key=lambda i: sum(outcomes[i]))
        if best and _significance(outcomes[0], outcomes[best]) < self.confidence:
            best = 0
        return candidates[best]

    def _outcome(self, deal: Round, action: Action, plan: Plan) -> float:
        """Our expected score less the others' mean, once ``action`` is played in ``deal``
        and the others have had their turns (exact when the round is over by then)."""
        round_ = copy_round(deal)
        round_.play(action)
        if action.kind is ActionKind.DRAW and round_.drawn is not None:
            round_.play(plan.best_with(round_.drawn)[1])  # we play the drawn card as the expert
        play_until_turn_of(round_, self.seat, rollout_policy)
        if round_.final_scores is not None:
            scores: list[float] = list(round_.final_scores)
        else:
            scores = [
                sum(column_cost(column, plan.o) for column in shown_columns(round_, p))
                for p in range(round_.players)
            ]
        others = [s for p, s in enumerate(scores) if p != self.seat]
        return scores[self.seat] - sum(others) / len(others)


def _significance(first: list[float], other: list[float]) -> float:
    """How many standard errors ``other`` is better than ``first`` on the same deals."""
    gains = [a - b for a, b in zip(first, other, strict=True)]
    n = len(gains)
    mean = sum(gains) / n
    spread = sum((g - mean) ** 2 for g in gains) / max(1, n - 1)
    return mean / max(1e-9, math.sqrt(spread / n))
