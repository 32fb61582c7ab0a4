"""``master``: the expert's judgement, checked by playing the round out.

On every decision the expert's model (``plan``) names the few best moves. When
they are close, ``master`` settles between them by determinized Monte Carlo:
it deals the cards it cannot see at random, consistent with everything it has
seen (``simulation.determinize``), plays each candidate in that deal and the
rest of the round out with a cheap policy for every seat, and keeps the
candidate with the best average outcome (its score less the others' mean).
Every candidate is tried on the same deals, so their difference is measured
with far less noise than their values. The budget is a number of deals, not a
clock, so a decision is the same whatever the machine's load (and a seed
replays a game exactly).
"""

from __future__ import annotations

from server.engine import Action, ActionKind, PlayerView, Round

from .expert import OVERDUE_TURNS, ExpertBot
from .plan import Plan
from .simulation import copy_round, determinize, play_out, rollout_policy

#: Deals imagined for each searched decision.
DEALS = 12
#: How many of the expert's best moves are compared.
CANDIDATES = 3
#: Moves costing more than this over the expert's best (in points) are not searched.
MARGIN = 2.0


class MasterBot(ExpertBot):
    level = "master"
    description = (
        "thinks like the expert, then settles its close calls by playing the rest of "
        "the round out on many imagined deals of the cards it has not seen."
    )

    deals = DEALS

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
        """The expert's best moves, cheapest first, within ``MARGIN`` of the best."""
        if view.drawn_card is None:
            take_cost, pos = min(plan.swap_costs(view.discard_top))
            draw_cost = (
                sum(count * plan.best_with(v)[0] for v, count in _pile(plan) if count)
                / plan.draw_total
            )
            take, draw = Action.take_discard(self.seat, pos), Action.draw(self.seat)
            ranked = [(take_cost, take), (draw_cost, draw)]
        else:
            ranked = plan.options_with(view.drawn_card)
        ranked.sort(key=lambda option: option[0])
        best = ranked[0][0]
        return [a for cost, a in ranked[:CANDIDATES] if cost - best < MARGIN]

    def _search(self, view: PlayerView, plan: Plan, candidates: list[Action]) -> Action:
        totals = [0.0] * len(candidates)
        for _ in range(self.deals):
            deal = determinize(view, self.counter, self.settings, self._rng)
            for i, action in enumerate(candidates):
                totals[i] += self._outcome(deal, action, plan)
        best = min(range(len(candidates)), key=lambda i: totals[i])
        return candidates[best]

    def _outcome(self, deal: Round, action: Action, plan: Plan) -> float:
        """Our score less the others' mean, when ``action`` is played in ``deal``."""
        round_ = copy_round(deal)
        round_.apply(action)
        if action.kind is ActionKind.DRAW and round_.drawn is not None:
            round_.apply(plan.best_with(round_.drawn)[1])  # we play the drawn card as the expert
        scores = play_out(round_, rollout_policy)
        others = [s for p, s in enumerate(scores) if p != self.seat]
        return scores[self.seat] - sum(others) / len(others)


def _pile(plan: Plan) -> list[tuple[int, int]]:
    from .counting import VALUES

    return list(zip(VALUES, plan.draws, strict=True))
