"""The bot tournament: how strong ``expert`` is against ``greedy``, and how fast.

    python benchmarks/bots.py [--games 2000] [--workers 2] [--seed 0]

Two tables, each of ``--games`` whole games (default rules) with the seats
rotated every game (game ``i`` is seeded with ``seed + i``):
- 2 players: expert vs greedy;
- 4 players: expert vs three greedy (par is a 25% win rate).
For each bot: win rate (a shared win counts for each winner), mean round
score, and the CPU time of its decisions (mean, 99th percentile, max), each
measured around ``Bot.choose`` in the process that plays the game.

Targets (issue 2): expert wins >= 85% (2 players) and >= 45% (4 players),
scores <= 16 points a round, decides in under 50 ms on average and never
over 500 ms.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.bots.tournament import EntryTally, Series, Tally, percentile, run_series

TABLES: dict[str, tuple[str, ...]] = {
    "2 players": ("expert", "greedy"),
    "4 players": ("expert", "greedy", "greedy", "greedy"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per table (default 2000)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    args = parser.parse_args()
    print(f"{args.games} games per table, seats rotated, {args.workers} workers, seed {args.seed}")
    print(
        f"{'table':<11}{'bot':<8}{'games':>6}{'win rate':>10}{'pts/round':>11}"
        f"{'mean ms':>9}{'p99 ms':>8}{'max ms':>8}"
    )
    for name, lineup in TABLES.items():
        started = time.perf_counter()
        tally = run_series(Series(lineup, seed=args.seed), args.games, args.workers)
        for row in _rows(name, tally):
            print(row)
        print(f"{'':<11}({time.perf_counter() - started:.0f} s)")


def _rows(table: str, tally: Tally) -> list[str]:
    """One row per bot level: seats of the same level are pooled (their mean win rate)."""
    rows = []
    for level in dict.fromkeys(tally.lineup):
        entries = [e for e in tally.entries if e.bot == level]
        pooled = _pool(level, entries)
        times = pooled.decision_times
        win_rate = pooled.wins / (tally.games * len(entries))
        rows.append(
            f"{table:<11}{level:<8}{tally.games:>6}{win_rate:>10.1%}"
            f"{pooled.mean_round_score():>11.2f}{1000 * sum(times) / len(times):>9.2f}"
            f"{1000 * percentile(times, 0.99):>8.2f}{1000 * max(times):>8.2f}"
        )
    return rows


def _pool(level: str, entries: list[EntryTally]) -> EntryTally:
    pooled = EntryTally(level)
    for e in entries:
        pooled.wins += e.wins
        pooled.round_score_sum += e.round_score_sum
        pooled.rounds += e.rounds
        pooled.decision_times.extend(e.decision_times)
    return pooled


if __name__ == "__main__":
    main()
