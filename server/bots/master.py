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

With two players (outside the endgame) the other's reply is the expert's, not
the cheap policy's, and the table it leaves is priced as our next turn
(``reply``): everything a two-player position shows is public, so the
expert's plan of each position is made once for the decision. That sharper
judge is dearer a candidate, and compares up to ``REPLY_CANDIDATES`` moves
within ``REPLY_MARGIN`` points.

The deals are imagined in batches (``BATCH``) and the search stops as soon as
the decision is settled (``settle``): when the best alternative beats the
model's choice by ``SETTLED`` standard errors, or when no alternative could
reach ``CONFIDENCE`` by the end of the budget even if its true gain were
``OPTIMISM`` standard errors above what was seen so far (such a hopeless
alternative is no longer played on the later deals). The thresholds are wide
because a few deals' standard error is itself noisy: stopping by 2.5 standard
errors and giving up at 1.0 changed 3% of the decisions the whole budget
makes on the same deals, these under 1% (docs/benchmarks.md). Each decision
deals from its own seed, so that how many deals one took does not change the
next one's.

The two-player search is also bounded by its work: its cost is the expert's plans
it makes for the public positions its deals meet (``PublicPlans``), and a decision
that meets many new ones (four close candidates on all 96 deals, many positions
that may close) cost up to five times the mean. Once the plans made reach
``PLANS`` (one that may close counting twice), no more deals are imagined and the
deals so far decide, by the same rule as at the end of the budget.

With ``endgame_rollouts`` (two players), once a tableau has at most
``ENDGAME_HIDDEN`` face-down cards, the reply search plays each candidate on
towards the round's end instead of stopping at our next turn: both players
take their turns as the expert's model would (``reply.expert_turn``, each
public position's plan still made once a decision), for at most
``ENDGAME_TURNS`` more of our turns, and a round that ends is judged by its
exact final scores, the closer's doubling applied by the engine. The model is
weakest there (its estimate of the turns left, of the closer's risk, of the
last turns). The play-outs make more plans a deal, so the same ``PLANS``
bound stops those searches after fewer deals.

With ``game_aware`` (off by default: measured, not clearly better), master
plays for the game, not only the round (``standing.win_chance``). On
its last turn (another player closed) each of the expert's best moves is
played to the round's end on imagined deals and judged by master's chance to
win the game from the totals it leaves: it sees the closer's score doubled
when it ends at or below it, and, in the round that ends the game, only
whether it finishes lowest. In a round that may end the game (a total within
``ENDGAME_REACH`` of the end score) its searched decisions are judged by that
chance too, and whether to close is always searched there (the best move that
closes against the best that does not).

The budget is a number of deals and of plans, not a clock: a decision is the
same whatever the machine's load, and a seed replays a game exactly.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from server.engine import Action, ActionKind, PlayerView, Round

from .expert import OVERDUE_TURNS, ExpertBot
from .model import column_cost
from .plan import Plan
from .reply import PublicPlans, reply_outcome, visible
from .simulation import copy_round, determinize, play_until_turn_of, rollout_policy, shown_columns
from .standing import win_chance

#: Deals imagined for a searched decision, at most.
DEALS = 96
#: Deals imagined at a time, between two looks at whether the decision is settled.
BATCH = 16
#: How many of the expert's best moves are compared, at most.
CANDIDATES = 3
#: Moves priced more than this over the expert's best (in points) are not searched.
MARGIN = 1.5
#: With two players, where the other's reply is the expert's (``reply``): the search
#: is dearer a candidate but sharper, so it compares more and wider (docs/benchmarks.md).
REPLY_CANDIDATES = 4
REPLY_MARGIN = 3.0
#: On our last turn: how many of the expert's best moves are played to the round's end,
#: and how far (in points of our own score) behind its best they may be.
LAST_CANDIDATES = 4
LAST_MARGIN = 8.0
#: A round is played for the game once a total is this close to the end score.
ENDGAME_REACH = 25
#: In such a round, the best move that closes it and the best that does not are searched
#: when within this many points (of our own score) of the expert's best.
ENDGAME_MARGIN = 8.0
#: What one face-down card may still move a tableau's final score by (one standard
#: deviation, in points), for judging a round that is not over by the scoreboard.
HIDDEN_SPREAD = 3.0
#: How many standard errors (over the same deals) another candidate must beat the
#: model's first choice by to be played instead: the search overrules the model on evidence.
CONFIDENCE = 1.0
#: Standard errors an alternative must beat the model's choice by to end the search early.
SETTLED = 4.0
#: An alternative is given up once, even with its gain this many standard errors above
#: what the deals so far show, it could not reach ``CONFIDENCE`` by the end of the budget.
OPTIMISM = 2.0
#: With two players, the plans of public positions (``PublicPlans.built``; one that may
#: close counts twice) a searched decision may make: once its deals have made this many,
#: it decides on the deals so far as at the end of the budget. Making those plans is most
#: of its CPU, and a few decisions meet many new positions: 4 candidates on all 96 deals
#: make about 440, up to 578 when many may close. 384 (4 candidates' plan a deal over the
#: budget) stopped 303 of the 4,957 decisions of 20 games early, changed 36 and cut the
#: most work a decision does by a third (docs/benchmarks.md). A count, not a clock, so a
#: seed replays a game whatever the load; ``benchmarks/paired.py --set plans=1000000000``
#: plays without it.
PLANS = 384
#: With two players, when a tableau has at most this many face-down cards at a searched
#: decision, each candidate is played out towards the round's end (``endgame_rollouts``).
ENDGAME_HIDDEN = 2
#: How many more of our turns such a play-out plays (the other answering each) before the
#: table is priced by the model as our next turn, if the round has not ended by then.
ENDGAME_TURNS = 6


@dataclass(frozen=True, slots=True)
class SearchRule:
    """When a search stops, and what it then plays (``settle``)."""

    deals: int
    batch: int
    confidence: float
    settled: float
    optimism: float
    #: The work (``settle``'s ``spent``: with two players, ``PublicPlans.built``) after
    #: which the deals so far decide.
    plans: int = PLANS

    def hopeless(self, first: list[float], other: list[float]) -> bool:
        """``other`` could not reach ``confidence`` by the end of the budget, even were its
        mean gain ``optimism`` standard errors better than seen on the deals so far."""
        mean, spread = _gain(first, other)
        if spread == 0.0:
            return mean <= 0.0
        hoped = mean + self.optimism * spread / math.sqrt(len(first))
        return hoped / (spread / math.sqrt(self.deals)) < self.confidence


class MasterBot(ExpertBot):
    level = "master"
    description = (
        "thinks like the expert, then settles its close calls by trying each on many "
        "imagined deals of the cards it has not seen and playing the others' replies."
    )

    candidates = CANDIDATES
    margin = MARGIN
    #: True: with two players and outside the endgame, the other answers each candidate
    #: as the expert's model would (``reply``); False: by the cheap rollout policy, as
    #: with more players (``benchmarks/paired.py --set reply_search=false``).
    reply_search = True
    reply_candidates = REPLY_CANDIDATES
    reply_margin = REPLY_MARGIN
    #: True: play for the game as well as the round (the module's docstring). Off: on
    #: paired games it was not clearly better (docs/benchmarks.md); ``benchmarks/paired.py
    #: --set game_aware=true`` plays it.
    game_aware = False
    #: A round not over by our next turn is judged as ``judge_slope`` times the model's
    #: difference plus ``judge_offset``; one that is over, by its exact scores. Fitted to
    #: two-player rounds' outcomes (``benchmarks/judge.py``: about 0.9 and -0.95: the player
    #: to move ends about a point better than the model says), the two are on one scale;
    #: on paired games that was not clearly better (docs/benchmarks.md), so it is off:
    #: ``benchmarks/paired.py --set judge_slope=0.864 --set judge_offset=-0.95``.
    judge_slope = 1.0
    judge_offset = 0.0
    #: True: with two players, once a tableau has at most ``endgame_hidden`` face-down
    #: cards, a searched candidate is judged by playing the round on to its end (at most
    #: ``endgame_turns`` more of our turns), both players as the expert's model, by its
    #: exact final scores: the model is weakest there (the turns left, the closer's
    #: doubling, the last turns). ``benchmarks/paired.py --set endgame_rollouts=true``.
    endgame_rollouts = False
    endgame_hidden = ENDGAME_HIDDEN
    endgame_turns = ENDGAME_TURNS
    endgame_reach = ENDGAME_REACH
    endgame_margin = ENDGAME_MARGIN
    last_candidates = LAST_CANDIDATES
    last_margin = LAST_MARGIN
    rule = SearchRule(DEALS, BATCH, CONFIDENCE, SETTLED, OPTIMISM, PLANS)

    def choose(self, view: PlayerView) -> Action:
        self.counter.sync(view)
        kind = view.legal_actions[0].kind
        overdue = self.counter.turns >= OVERDUE_TURNS * len(view.tableaux)
        if kind is ActionKind.FLIP or overdue:
            return super().choose(view)
        unseen = self.counter.unseen(view)
        draws = self.counter.draw_pile(view, unseen)
        plan = Plan(view, unseen, draws, self.settings, self.params, self._rng)
        if view.closer is not None and self.game_aware:
            return self._last_turn(view, plan)
        endgame = (
            self.game_aware and max(view.totals) + self.endgame_reach >= self.settings.end_score
        )
        candidates = self._candidates(plan, view, endgame)
        if len(candidates) == 1:
            return candidates[0]
        return self._search(view, plan, candidates, endgame)

    def _last_turn(self, view: PlayerView, plan: Plan) -> Action:
        """Our last turn (another player closed): judge the moves by the game.

        The model minimises our own score; here each of the expert's best moves is
        played on imagined deals to the round's end, and judged by our chance to win
        the game (``win_chance``): it sees the closer's score doubled when we end at or
        below it, and, in the round that ends the game, only whether we finish lowest."""
        if view.drawn_card is None:
            ranked = plan.take_or_draw_costs()
        else:
            ranked = plan.options_with(view.drawn_card)
        best = ranked[0][0]
        candidates = [
            a for cost, a in ranked[: self.last_candidates] if cost - best < self.last_margin
        ]
        if len(candidates) == 1:
            return candidates[0]
        decision = f"master-last/{self.seed}/{self.seat}/{view.round}/{self.counter.turns}"
        deals = random.Random(f"{decision}/{view.drawn_card}")

        def one_deal(tried: Sequence[int]) -> list[float]:
            deal = determinize(view, self.counter, self.settings, deals)
            return [-self._final_chance(deal, candidates[i], plan, view) for i in tried]

        chosen, _ = settle(one_deal, len(candidates), self.rule)
        return candidates[chosen]

    def _final_chance(self, deal: Round, action: Action, plan: Plan, view: PlayerView) -> float:
        """Our chance to win the game once ``action`` is played in ``deal`` and the round
        is played out (the others' last turns by the rollout policy)."""
        round_ = self._played(deal, action, plan)
        play_until_turn_of(round_, None, rollout_policy)
        assert round_.final_scores is not None
        return win_chance(view.totals, round_.final_scores, self.seat, self.settings)

    def _played(self, deal: Round, action: Action, plan: Plan) -> Round:
        """A copy of ``deal`` with ``action`` played (a drawn card then played as the expert)."""
        round_ = copy_round(deal)
        round_.play(action)
        if action.kind is ActionKind.DRAW and round_.drawn is not None:
            round_.play(plan.best_with(round_.drawn)[1])
        return round_

    def _candidates(self, plan: Plan, view: PlayerView, endgame: bool) -> list[Action]:
        """The expert's best moves, cheapest first, within ``margin`` of the best; when
        the round may end the game and we may close it, also the best move that closes
        and the best that does not, within ``endgame_margin`` (to close or not is then
        a question of the scoreboard more than of points)."""
        if view.drawn_card is None:
            ranked = list(plan.take_and_draw())
        else:
            ranked = plan.options_with(view.drawn_card)
        ranked.sort(key=lambda option: option[0])
        best = ranked[0][0]
        wide, margin = self.candidates, self.margin
        if self._replies(view, endgame):
            wide, margin = self.reply_candidates, self.reply_margin
        chosen = [a for cost, a in ranked[:wide] if cost - best < margin]
        if endgame and plan.may_close:
            for closes in (True, False):
                extra = next(
                    (
                        a
                        for cost, a in ranked
                        if _closes(plan, a) is closes and cost - best < self.endgame_margin
                    ),
                    None,
                )
                if extra is not None and extra not in chosen:
                    chosen.append(extra)
        return chosen

    def _search(
        self, view: PlayerView, plan: Plan, candidates: list[Action], endgame: bool
    ) -> Action:
        # Each decision deals from its own seed: the deals of a decision do not depend on
        # how many deals earlier decisions took, so versions of the rule compared on the
        # same games imagine the same deals wherever they reach the same position.
        decision = f"master-search/{self.seed}/{self.seat}/{view.round}/{self.counter.turns}"
        deals = random.Random(f"{decision}/{view.drawn_card}")
        if self._replies(view, endgame):
            return candidates[self._search_replies(view, plan, candidates, deals)]

        def one_deal(tried: Sequence[int]) -> list[float]:
            deal = determinize(view, self.counter, self.settings, deals)
            if not endgame:
                return [self._outcome(deal, candidates[i], plan) for i in tried]
            # What the rest of the round brings each player, the same for every candidate.
            luck = [deals.gauss(0.0, 1.0) for _ in view.tableaux]
            return [-self._standing(deal, candidates[i], plan, view, luck) for i in tried]

        chosen, _ = settle(one_deal, len(candidates), self.rule)
        return candidates[chosen]

    def _replies(self, view: PlayerView, endgame: bool) -> bool:
        """True when the other answers a searched candidate as the expert would."""
        return self.reply_search and len(view.tableaux) == 2 and not endgame

    def _search_replies(
        self, view: PlayerView, plan: Plan, candidates: list[Action], deals: random.Random
    ) -> int:
        """``_search`` with the expert's model as the other's reply (``reply``)."""
        assert self.seat is not None
        seat = self.seat
        # What a simulated round of this decision shows, to tell what its moves reveal.
        probe = determinize(view, self.counter, self.settings, random.Random(1))
        plans = PublicPlans(self.counter.unseen(view), visible(probe), self.settings, self.params)
        turns = self.endgame_turns if self._near_the_end(view) else 0

        def one_deal(tried: Sequence[int]) -> list[float]:
            deal = determinize(view, self.counter, self.settings, deals)
            return [
                reply_outcome(self._played(deal, candidates[i], plan), seat, plans, plan, turns)
                for i in tried
            ]

        chosen, _ = settle(one_deal, len(candidates), self.rule, spent=lambda: plans.built)
        return chosen

    def _near_the_end(self, view: PlayerView) -> bool:
        """True when the reply search plays its candidates on to the round's end: a
        tableau has at most ``endgame_hidden`` face-down cards (or a player has closed)."""
        if not self.endgame_rollouts:
            return False
        fewest = min(
            sum(
                1
                for pos, card in enumerate(t.cards)
                if card is None and pos // 3 not in t.removed_columns
            )
            for t in view.tableaux
        )
        return view.closer is not None or fewest <= self.endgame_hidden

    def _standing(
        self, deal: Round, action: Action, plan: Plan, view: PlayerView, luck: list[float]
    ) -> float:
        """Our chance to win the game once ``action`` is played in ``deal`` and the others
        have had their turns: exact when the round is over by then, else each tableau's
        expected final score (the expert's model) moved by ``luck`` standard deviations of
        what its face-down cards may still bring."""
        round_ = self._played(deal, action, plan)
        play_until_turn_of(round_, self.seat, rollout_policy)
        if round_.final_scores is not None:
            return win_chance(view.totals, round_.final_scores, self.seat, self.settings)
        finals = []
        for p, z in enumerate(luck):
            columns = shown_columns(round_, p)
            hidden = sum(1 for column in columns for v in column if v is None)
            expected = sum(column_cost(column, plan.o) for column in columns)
            finals.append(round(expected + z * HIDDEN_SPREAD * math.sqrt(hidden)))
        return win_chance(view.totals, tuple(finals), self.seat, self.settings)

    def _outcome(self, deal: Round, action: Action, plan: Plan) -> float:
        """Our expected score less the others' mean, once ``action`` is played in ``deal``
        and the others have had their turns (exact when the round is over by then)."""
        round_ = self._played(deal, action, plan)
        play_until_turn_of(round_, self.seat, rollout_policy)
        if round_.final_scores is not None:
            return _against_the_others(list(round_.final_scores), self.seat)
        expected = [
            sum(column_cost(column, plan.o) for column in shown_columns(round_, p))
            for p in range(round_.players)
        ]
        return self.judge_slope * _against_the_others(expected, self.seat) + self.judge_offset


def _against_the_others(scores: list[float], seat: int) -> float:
    """``seat``'s score less the others' mean."""
    others = [s for p, s in enumerate(scores) if p != seat]
    return scores[seat] - sum(others) / len(others)


def _closes(plan: Plan, action: Action) -> bool:
    """True when ``action`` settles our last face-down card (a draw may or may not)."""
    return plan.may_close and action.kind is not ActionKind.DRAW and action.pos in plan.hidden


def settle(
    one_deal: Callable[[Sequence[int]], list[float]],
    candidates: int,
    rule: SearchRule,
    spent: Callable[[], int] | None = None,
) -> tuple[int, int]:
    """Which candidate to play (0: the model's first choice), and after how many deals.

    ``one_deal(tried)`` imagines one more deal and returns the outcome (lower is
    better) of each candidate in ``tried`` on it; candidate 0 is always tried.
    ``spent()``, when given, is the work the deals have cost so far: once it reaches
    ``rule.plans`` no more deals are imagined (not even the rest of the batch), and the
    deals so far decide as the whole budget's would. A count, not a clock: the same
    decision stops on the same deal whatever the machine's load."""
    outcomes: list[list[float]] = [[] for _ in range(candidates)]
    alive = list(range(1, candidates))

    def exhausted() -> bool:
        return spent is not None and spent() >= rule.plans

    while alive:
        for _ in range(min(rule.batch, rule.deals - len(outcomes[0]))):
            for i, value in zip([0, *alive], one_deal([0, *alive]), strict=True):
                outcomes[i].append(value)
            if exhausted():
                break
        seen = len(outcomes[0])
        over = seen >= rule.deals or exhausted()
        alive = [i for i in alive if not rule.hopeless(outcomes[0], outcomes[i])]
        if not alive:
            break
        best = min(alive, key=lambda i: sum(outcomes[i]))
        beaten_by = _significance(outcomes[0], outcomes[best])
        if beaten_by >= rule.settled or (over and beaten_by >= rule.confidence):
            return best, seen
        if over:
            break
    return 0, len(outcomes[0])


def _gain(first: list[float], other: list[float]) -> tuple[float, float]:
    """The mean and the standard deviation of what ``other`` saves over ``first``."""
    gains = [a - b for a, b in zip(first, other, strict=True)]
    n = len(gains)
    mean = sum(gains) / n
    return mean, math.sqrt(sum((g - mean) ** 2 for g in gains) / max(1, n - 1))


def _significance(first: list[float], other: list[float]) -> float:
    """How many standard errors ``other`` is better than ``first`` on the same deals."""
    mean, spread = _gain(first, other)
    return mean / max(1e-9, spread / math.sqrt(len(first)))
