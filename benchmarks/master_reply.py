"""A probe of master's two-player search: the expert's model as the other's reply.

    python benchmarks/master_reply.py OUT.jsonl [--games 100] [--seed 3000] [--set NAME=VALUE ...]
    python benchmarks/paired.py compare BEFORE.jsonl OUT.jsonl

Master's search (``server/bots/master.py``) lets the other player answer each
candidate with the cheap ``rollout_policy`` and prices the table that leaves by
the expert's model of face-up cards. This probe changes both, in two-player
searched decisions only, and plays ``benchmarks/paired.py``'s games with it:

- the other player answers as the expert's model would (``Plan.take_and_draw``,
  then ``Plan.best_with`` the card drawn), from what that player may see;
- the table is then priced as our next turn: the cost of our best way to begin
  it (take the discard or draw), by the same model, against the other's face-up
  cards priced as before (exact once that player has none face down).

Everything a player sees in a two-player round is public, so those plans
depend only on the public position: they are kept per position for the
decision, which is what makes the probe affordable. It is a probe, not a
level: it patches ``MasterBot`` in this process only (docs/benchmarks.md has
its figures).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from paired import _play

from server.bots.counting import LOWEST, Counts
from server.bots.master import MasterBot
from server.bots.model import column_cost, raw_score
from server.bots.plan import Plan
from server.bots.simulation import determinize, shown_columns
from server.engine import Action, Phase, PlayerView, Round
from server.engine.views import TableauView

#: Sampled deals of the others' face-down cards when a reply plan may close the round.
CLOSING_SAMPLES = 50

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
    """What ``seat`` sees of a simulated round at the start of its turn."""
    tableaux = []
    for p in range(round_.players):
        up, cards, live = round_.face_up[p], round_.cards[p], set(round_.live_positions[p])
        shown = tuple(cards[q] if q in live and up[q] else None for q in range(len(cards)))
        removed = tuple(c for c, gone in enumerate(round_.removed[p]) if gone)
        tableaux.append(TableauView(shown, removed, round_.visible_score(p)))
    return PlayerView(
        seat=seat,
        round=round_.number,
        phase=Phase.CHOOSE.value,
        current_player=seat,
        tableaux=tuple(tableaux),
        discard_top=round_.discard[-1],
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
    """One searched decision's plans of public positions, each made once."""

    def __init__(self, bot: MasterBot, unseen: Counts, start: Counter[int]) -> None:
        self.bot, self.unseen, self.start = bot, unseen, start
        self.plans: dict[object, Priced] = {}

    def priced(self, round_: Round, seat: int) -> Priced:
        # What is unseen now: what was at the decision, less what has been shown since.
        unseen = list(self.unseen)
        for card, shown in (visible(round_) - self.start).items():
            unseen[card - LOWEST] = max(0, unseen[card - LOWEST] - shown)
        view = public_view(round_, seat)
        key = (seat, view.tableaux, view.discard_top, view.closer, tuple(unseen))
        if key not in self.plans:
            bot = self.bot
            rng = random.Random(0)
            plan = Plan(view, unseen, unseen, bot.settings, bot.params, rng, CLOSING_SAMPLES)
            self.plans[key] = (plan, plan.take_and_draw(), {})
        return self.plans[key]


def patch_master() -> None:
    """Make ``MasterBot``'s two-player searched decisions use ``PublicPlans``."""
    searched = MasterBot._search
    outcome_before = MasterBot._outcome
    plans_of: dict[int, PublicPlans] = {}

    def search(
        bot: MasterBot, view: PlayerView, plan: Plan, candidates: list[Action], endgame: bool
    ) -> Action:
        if len(view.tableaux) != 2 or endgame:
            return searched(bot, view, plan, candidates, endgame)
        # What a simulated round of this decision shows, to tell what its moves reveal.
        probe = determinize(view, bot.counter, bot.settings, random.Random(1))
        plans_of[id(bot)] = PublicPlans(bot, bot.counter.unseen(view), visible(probe))
        try:
            return searched(bot, view, plan, candidates, endgame)
        finally:
            del plans_of[id(bot)]

    def outcome(bot: MasterBot, deal: Round, action: Action, plan: Plan) -> float:
        plans = plans_of.get(id(bot))
        if plans is None:
            return outcome_before(bot, deal, action, plan)
        return _outcome(bot, plans, deal, action, plan)

    setattr(MasterBot, "_search", search)  # noqa: B010 (a probe patches its class)
    setattr(MasterBot, "_outcome", outcome)  # noqa: B010


def _outcome(bot: MasterBot, plans: PublicPlans, deal: Round, action: Action, plan: Plan) -> float:
    """Our score less the other's, once ``action`` is played and the other has answered."""
    assert bot.seat is not None
    round_ = bot._played(deal, action, plan)
    if round_.final_scores is None:
        other = round_.current
        assert other is not None
        reply, ((take_cost, take), (draw_cost, draw)), replies = plans.priced(round_, other)
        if take_cost <= draw_cost:
            round_.play(take)
        else:
            round_.play(draw)
            card = round_.drawn
            assert card is not None
            if card not in replies:
                replies[card] = reply.best_with(card)[1]
            round_.play(replies[card])
    if round_.final_scores is not None:
        scores = round_.final_scores
        return scores[bot.seat] - scores[1 - bot.seat]
    _, ((take_cost, _), (draw_cost, _)), _ = plans.priced(round_, bot.seat)
    ours = min(take_cost, draw_cost)
    other = 1 - bot.seat
    columns = shown_columns(round_, other)
    if round_.face_down_count[other]:
        return ours - sum(column_cost(column, plan.o) for column in columns)
    theirs = float(raw_score(columns, bot.settings.clear_columns))
    if round_.closer == other and bot.settings.closer_penalty and theirs > 0 and ours <= theirs:
        theirs *= 2
    return ours - theirs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=3000)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()
    patch_master()
    _play(args.out, "master-expert", args.games, args.seed, args.set)


if __name__ == "__main__":
    main()
