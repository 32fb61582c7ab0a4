"""How often a game's last round decides it, and what playing for the game there changes.

    python benchmarks/last_round.py [--games 200] [--seed 50000] [--variant]

Plays two-player games of expert against expert (game ``i`` seeded ``seed + i``,
seats rotated as ``benchmarks/bots.py`` does) and prints how often the player
ahead before the game's last round lost the game, and how far ahead they were.

``--variant`` plays the same games again with the first seat of the line-up
taken by an expert that plays only master's game-aware decisions as master
does (``MasterBot``'s last turn, and whether to close in a round that may end
the game; every other move is the expert's), and prints the games only one
of the two won, with a one-sided sign test: the value of that part alone,
measured on games that part only where it decides otherwise.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from paired import _sign_test

from server.bots import BOT_LEVELS
from server.bots.advice import advise
from server.bots.expert import OVERDUE_TURNS, ExpertBot
from server.bots.master import MasterBot
from server.bots.plan import Plan
from server.bots.tournament import GameOutcome, Series, play_series
from server.engine import Action, ActionKind, PlayerView


class GameAwareExpert(MasterBot):
    """The expert, but for master's game-aware decisions."""

    level = "game-aware-expert"
    candidates = 1  # near-ties are the expert's: only closing or not is searched

    def choose(self, view: PlayerView) -> Action:
        self.counter.sync(view)
        overdue = self.counter.turns >= OVERDUE_TURNS * len(view.tableaux)
        if view.legal_actions[0].kind is ActionKind.FLIP or overdue:
            return ExpertBot.choose(self, view)
        unseen = self.counter.unseen(view)
        draws = self.counter.draw_pile(view, unseen)
        # Its own sampling stream: the expert's stays as in the expert's games.
        rng = random.Random(f"game-aware/{self.seed}/{view.round}/{self.counter.turns}")
        plan = Plan(view, unseen, draws, self.settings, self.params, rng)
        if view.closer is not None:
            return self._last_turn(view, plan)  # master's part, measured alone
        pick = advise(view, self.counter, self.settings, self.params, self._rng).best.action
        endgame = max(view.totals) + self.endgame_reach >= self.settings.end_score
        if not (endgame and plan.may_close):
            return pick
        extras = self._candidates(plan, view, endgame=True)
        candidates = [pick, *(a for a in extras if a != pick)]
        return self._search(view, plan, candidates, endgame=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=50000)
    parser.add_argument("--variant", action="store_true", help="also play the game-aware expert")
    args = parser.parse_args()
    base = list(play_series(Series(("expert", "expert"), seed=args.seed), args.games))
    _last_rounds(base)
    if args.variant:
        BOT_LEVELS[GameAwareExpert.level] = GameAwareExpert
        lineup = (GameAwareExpert.level, "expert")
        variant = list(play_series(Series(lineup, seed=args.seed), args.games))
        only_variant = sum(v.won[0] and not b.won[0] for b, v in zip(base, variant, strict=True))
        only_base = sum(b.won[0] and not v.won[0] for b, v in zip(base, variant, strict=True))
        print(
            f"game-aware expert {sum(v.won[0] for v in variant)} wins of {args.games}, the expert"
            f" in its seat {sum(b.won[0] for b in base)}; won by one only: game-aware"
            f" {only_variant}, expert {only_base}; one-sided sign test"
            f" p = {_sign_test(only_variant, only_base):.3f}"
        )


def _last_rounds(games: list[GameOutcome]) -> None:
    """How often the player ahead before the last round lost, and the lead then."""
    overturned, leads = 0, []
    for game in games:
        before = [sum(scores[:-1]) for scores in game.round_scores]
        lead = before[1] - before[0]  # above 0: the first entry was ahead
        leads.append(abs(lead))
        leader = 0 if lead > 0 else 1 if lead < 0 else None
        overturned += leader is not None and not game.won[leader]
    quartiles = statistics.quantiles(leads, n=4)
    print(
        f"{len(games)} games expert against expert: the player ahead before the last round"
        f" lost {overturned} ({overturned / len(games):.1%}); the lead then: quartiles"
        f" {quartiles[0]:.0f} / {quartiles[1]:.0f} / {quartiles[2]:.0f} points"
    )


if __name__ == "__main__":
    main()
