"""The ladder of bots: each level against the one below it, and how fast each decides.

    python benchmarks/bots.py [--games 2000] [--workers 2] [--seed 0] [--pairs NAME,...]

Each table is ``--games`` whole games (default rules) with the seats rotated
every game (game ``i`` is seeded with ``seed + i``):
- every level of the ladder (``BOT_LEVELS``, weakest first) against the one
  below it in two-player play (``greedy-random``, ``casual-greedy``, ...);
- ``master-3expert``: master against three experts (par is a 25% win rate).
``--pairs`` plays only the tables named (``--list`` names them all).

For each bot: its win rate with a 95% interval (Wilson's; a shared win
counts for each winner), mean round score, and the CPU time of its
decisions (mean, 99th percentile, max), each measured around ``Bot.choose``
in the process that plays the game.

Targets (issue 12): each level wins over half of its games against the one
below; master wins >= 60% against expert and >= 30% against three experts,
deciding in under 100 ms on average and never over 500 ms.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.bots import BOT_LEVELS
from server.bots.tournament import EntryTally, Series, Tally, percentile, run_series


def tables() -> dict[str, tuple[str, ...]]:
    """Every table the benchmark knows, by name, in ladder order."""
    ladder = list(BOT_LEVELS)
    named: dict[str, tuple[str, ...]] = {
        f"{upper}-{lower}": (upper, lower) for lower, upper in itertools.pairwise(ladder)
    }
    named["master-3expert"] = ("master", "expert", "expert", "expert")
    return named


def main() -> None:
    known = tables()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per table (default 2000)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument(
        "--pairs", default=",".join(known), help="tables to play, comma-separated (default: all)"
    )
    parser.add_argument("--list", action="store_true", help="name every table and stop")
    args = parser.parse_args()
    if args.list:
        print("\n".join(f"{name}: {' vs '.join(lineup)}" for name, lineup in known.items()))
        return
    chosen = [name.strip() for name in args.pairs.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in known]
    if unknown:
        parser.error(f"unknown table {', '.join(unknown)}; known: {', '.join(known)}")
    print(f"{args.games} games per table, seats rotated, {args.workers} workers, seed {args.seed}")
    print(
        f"{'table':<16}{'bot':<8}{'games':>6}{'win rate':>10}{'95% interval':>16}"
        f"{'pts/round':>11}{'mean ms':>9}{'p99 ms':>8}{'max ms':>8}"
    )
    for name in chosen:
        started = time.perf_counter()
        tally = run_series(Series(known[name], seed=args.seed), args.games, args.workers)
        for row in _rows(name, tally):
            print(row, flush=True)
        print(f"{'':<16}({time.perf_counter() - started:.0f} s)", flush=True)


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a win rate of ``wins`` in ``games``."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def _rows(table: str, tally: Tally) -> list[str]:
    """One row per bot level: seats of the same level are pooled (their mean win rate;
    the interval of a pooled row treats its seats' games as independent)."""
    rows = []
    for level in dict.fromkeys(tally.lineup):
        entries = [e for e in tally.entries if e.bot == level]
        pooled = _pool(level, entries)
        times = pooled.decision_times
        played = tally.games * len(entries)
        low, high = wilson(pooled.wins, played)
        interval = f"{low:.1%}-{high:.1%}"
        rows.append(
            f"{table:<16}{level:<8}{tally.games:>6}{pooled.wins / played:>10.1%}{interval:>16}"
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
