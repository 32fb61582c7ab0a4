"""Master's stopping rules replayed on the same deals as its whole budget.

    python benchmarks/search_rules.py [--games 8] [--seed 0]

Plays ``--games`` two-player games of master against expert (seats rotated)
with every candidate of every searched decision played on all ``DEALS``
deals, records those outcomes, then replays ``settle`` under each rule on
the recorded deals: how many decisions it changes against the whole
budget's, and its cost (candidates played on deals, as a share of the whole
budget's).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.bots import master
from server.bots.master import MasterBot, SearchRule, settle
from server.bots.match import play_game

OneDeal = Callable[[Sequence[int]], list[float]]
Settle = Callable[[OneDeal, int, SearchRule], tuple[int, int]]
Spent = Callable[[], int]

#: (stop when beaten by, give up at) standard errors, each rule replayed.
RULES = [(2.5, 1.0), (2.5, 2.0), (3.5, 1.0), (4.0, 2.0), (99.0, 2.0), (99.0, 3.0)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    recorded = _record(args.games, args.seed)
    whole = dataclasses.replace(MasterBot.rule, batch=MasterBot.rule.deals)
    reference = [_replay(whole, rows) for rows in recorded]
    whole_cost = sum(cost for _, cost in reference)
    print(f"{len(recorded)} searched decisions, {sum(c > 0 for c, _ in reference)} overruled")
    for settled, optimism in RULES:
        rule = dataclasses.replace(MasterBot.rule, settled=settled, optimism=optimism)
        replayed = [_replay(rule, rows) for rows in recorded]
        changed = sum(a[0] != b[0] for a, b in zip(replayed, reference, strict=True))
        cost = sum(c for _, c in replayed) / whole_cost
        print(f"stop at {settled:4.1f}, give up at {optimism:3.1f}: {changed:3} changed", end="")
        print(f", cost {cost:.2f}")


def _record(games: int, seed: int) -> list[list[list[float]]]:
    """Every searched decision's outcomes: per deal, per candidate."""
    recorded: list[list[list[float]]] = []
    played = master.settle

    def recording(
        one_deal: OneDeal, candidates: int, rule: SearchRule, spent: Spent | None = None
    ) -> tuple[int, int]:
        # Every candidate on every deal, whatever the plans they make (``PLANS`` is not
        # replayed: the stopping rules are compared on the whole budget's deals).
        rows = [one_deal(list(range(candidates))) for _ in range(rule.deals)]
        recorded.append(rows)
        return _replay(rule, rows, played)[0], rule.deals

    master.settle = recording
    try:
        for game in range(games):
            lineup = ["master", "expert"] if game % 2 == 0 else ["expert", "master"]
            play_game(lineup, seed=seed + game)
    finally:
        master.settle = played
    return recorded


def _replay(rule: SearchRule, rows: list[list[float]], decide: Settle = settle) -> tuple[int, int]:
    """The candidate ``rule`` plays on the recorded deals, and how many candidates it played."""
    deals = iter(rows)
    cost = 0

    def one_deal(tried: Sequence[int]) -> list[float]:
        nonlocal cost
        cost += len(tried)
        row = next(deals)
        return [row[i] for i in tried]

    chosen, _ = decide(one_deal, len(rows[0]), rule)
    return chosen, cost


if __name__ == "__main__":
    main()
