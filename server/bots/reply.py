"""Master's two-player search: the other player answers as the expert's model would.

With two players everything a player sees is public: the tableaux' face-up
cards and the discard pile. So the expert's plan for a position (what it would
take or draw, and where it would put each card it may draw) depends only on
that public position, and one searched decision meets the same positions again
and again across its imagined deals. ``PublicPlans`` makes each position's plan
once for the decision. ``reply_outcome`` prices a candidate with it: the other
player answers the candidate as the expert would, and the table that leaves is
priced as our next turn (our best way to begin it against the other's face-up
cards). Near the round's end ``reply_outcome`` may play on for more turns, both
players as the expert's model (``expert_turn``), to judge by the exact final
scores. On the paired games that chose it this won 145 of 222 where the cheap
rollout policy's reply won 116; on 200 fresh seeds it won 109 of 200 against the
expert (docs/benchmarks.md).
"""

from __future__ import annotations

import random
from collections import Counter

from server.engine import (
    Action,
    PlayerView,
    Round,
    Settings,
    ViewPhase,
    closer_penalty,
    tableau_view,
)

from .counting import LOWEST, Counts
from .model import Params, column_cost, raw_score
from .plan import Plan
from .simulation import shown_columns

#: Sampled deals of the others' face-down cards when a reply plan may close the round.
CLOSING_SAMPLES = 50
#: What one plan that may close counts in ``PublicPlans.built``, against 1 for any other:
#: its sampled deals cost about as much as the rest of the plan (0.47 against 0.26 ms of
#: CPU a plan measured over 20 games), and the count stands for a decision's CPU.
CLOSING_WORK = 2

#: A public position's plan, its two ways to begin a turn (cost, action) for taking the
#: discard and for drawing, and its answer to each card drawn, filled in as met.
Priced = tuple[Plan, tuple[tuple[float, Action], tuple[float, Action]], dict[int, Action]]


def visible(round_: Round) -> Counter[int]:
    """Every card of the round that everyone has seen and that is still in play."""
    seen: Counter[int] = Counter(round_.discard)
    for p in range(round_.players):
        up, cards = round_.face_up[p], round_.cards[p]
        seen.update(cards[q] for q in round_.live_positions[p] if up[q])
    if round_.drawn is not None:
        seen[round_.drawn] += 1
    return seen


def public_view(round_: Round, seat: int) -> PlayerView:
    """What ``seat`` sees of a simulated round at the start of its turn (the totals,
    which a round does not hold, as zeros: the plan does not read them)."""
    return PlayerView(
        seat=seat,
        round=round_.number,
        phase=ViewPhase.CHOOSE,
        current_player=seat,
        tableaux=tuple(tableau_view(round_, p) for p in range(round_.players)),
        discard_top=round_.discard_top,
        pile_size=len(round_.pile),
        drawn_card=None,
        closer=round_.closer,
        initial_flips_pending=(),
        totals=(0,) * round_.players,
        round_scores=None,
        winners=(),
        legal_actions=(),
    )


class PublicPlans:
    """One searched decision's plans of public positions, each made once.

    ``unseen`` is what the deciding player had not seen at the decision, and
    ``start`` what a simulated round of the decision shows: a position's unseen
    cards are ``unseen`` less what its round shows beyond ``start``. ``built`` counts the
    plans made so far, one that may close as ``CLOSING_WORK``: making them is most of a
    searched decision's CPU, so master's search stops on it (``SearchRule.plans``)."""

    def __init__(
        self, unseen: Counts, start: Counter[int], settings: Settings, params: Params
    ) -> None:
        self.unseen, self.start = unseen, start
        self.settings, self.params = settings, params
        self.plans: dict[object, Priced] = {}
        self.built = 0

    def priced(self, round_: Round, seat: int) -> Priced:
        unseen = list(self.unseen)
        for card, shown in (visible(round_) - self.start).items():
            unseen[card - LOWEST] = max(0, unseen[card - LOWEST] - shown)
        view = public_view(round_, seat)
        key = (seat, view.tableaux, view.discard_top, view.closer, tuple(unseen))
        if key not in self.plans:
            rng = random.Random(0)
            plan = Plan(view, unseen, unseen, self.settings, self.params, rng, CLOSING_SAMPLES)
            self.plans[key] = (plan, plan.take_and_draw(), {})
            self.built += CLOSING_WORK if plan.may_close else 1
        return self.plans[key]


def expert_turn(round_: Round, mover: int, plans: PublicPlans) -> None:
    """Play ``mover``'s whole turn in ``round_`` as the expert's model would: take the
    discard or draw, and play a drawn card, by the plan of the public position."""
    reply, ((take_cost, take), (draw_cost, draw)), replies = plans.priced(round_, mover)
    if take_cost <= draw_cost:
        round_.play(take)
        return
    round_.play(draw)
    card = round_.drawn
    assert card is not None
    if card not in replies:
        replies[card] = reply.best_with(card)[1]
    round_.play(replies[card])


def reply_outcome(
    round_: Round, seat: int, plans: PublicPlans, plan: Plan, turns: int = 0
) -> float:
    """Our score less the other's, in ``round_`` (our move just played): the other
    answers as the expert's model would, then the table is priced as our next turn.

    ``turns`` more of our turns, and the other's answers to them, are first played as
    the expert's model would (``expert_turn``): near the round's end that plays it out,
    and a round that ends is judged by its exact final scores, the closer's doubling as
    the engine applies it, where the model only estimates the turns left and the risk."""
    for played in range(turns + 1):
        if round_.final_scores is not None:
            break
        other = round_.current
        assert other is not None and other != seat
        expert_turn(round_, other, plans)
        if played == turns or round_.final_scores is not None:
            break
        expert_turn(round_, seat, plans)
    if round_.final_scores is not None:
        scores = round_.final_scores
        return scores[seat] - scores[1 - seat]
    _, ((take_cost, _), (draw_cost, _)), _ = plans.priced(round_, seat)
    ours = min(take_cost, draw_cost)
    other = 1 - seat
    columns = shown_columns(round_, other)
    if round_.face_down_count[other]:
        return ours - sum(column_cost(column, plan.o) for column in columns)
    theirs: float = raw_score(columns, plan.settings.clear_columns)
    if round_.closer == other:
        raw = (ours, theirs) if seat == 0 else (theirs, ours)
        theirs = closer_penalty(raw, other, plan.settings)[0][other]
    return ours - theirs
