"""The learned player (``server/bots/learned.py``) against the expert, on paired deals.

    python benchmarks/learned.py OUT.jsonl [--deals 200] [--seed 0] [--players 2]
                                           [--weights PATH] [--report]

Each deal (game seed ``seed .. seed+deals-1``, all below the training seeds of
``server.bots.learn``) is played once with the learned player in each seat and
experts in the others: the same cards, seats swapped, so luck of the deal
cancels. One line per game goes to OUT (a file already holding some games is
continued, not restarted): whether the learned player won, its round scores
and the others', and the CPU seconds of each of its decisions.

Printed: its win rate with the 95% interval (Wilson's; par is one in
``--players``), its points a round over the others' mean with a 95% interval
over the deals, its decision times (mean, 99th percentile, max), and the CPU
the games took. ``--report`` only prints the figures of OUT.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bots import wilson

from server.bots.learn import TRAINING_SEEDS, play
from server.bots.network import Network
from server.bots.tournament import percentile


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--weights", type=Path, default=None, help="default: the shipped ones")
    parser.add_argument("--report", action="store_true", help="only print OUT's figures")
    args = parser.parse_args()
    if not args.report:
        if args.seed + args.deals > TRAINING_SEEDS:
            parser.error(f"evaluation seeds stay below the training seeds ({TRAINING_SEEDS})")
        network = Network.load(args.weights) if args.weights else None
        _play(args.out, args.deals, args.seed, args.players, network)
    _report(args.out)


def _play(out: Path, deals: int, seed: int, players: int, network: Network | None) -> None:
    done = {(g["seed"], g["seat"]) for g in _load(out)} if out.exists() else set()
    with out.open("a") as file:
        for game_seed in range(seed, seed + deals):
            for seat in range(players):
                if (game_seed, seat) in done:
                    continue
                lineup = ["expert"] * players
                lineup[seat] = "learned"
                started = time.process_time()
                game = play(lineup, game_seed, network=network, learn=False)
                line = {
                    "seed": game_seed,
                    "seat": seat,
                    "won": seat in game.winners,
                    "round_scores": [r[seat] for r in game.round_scores],
                    "others_round_scores": [
                        [s for p, s in enumerate(r) if p != seat] for r in game.round_scores
                    ],
                    "times": game.decision_times[seat],
                    "cpu": time.process_time() - started,
                }
                file.write(json.dumps(line) + "\n")
                file.flush()


def _load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _report(out: Path) -> None:
    games = _load(out)
    players = 1 + len(games[0]["others_round_scores"][0])
    wins = sum(g["won"] for g in games)
    low, high = wilson(wins, len(games))
    by_deal: dict[int, list[float]] = {}
    rounds = 0
    for g in games:
        margins = [
            own - sum(others) / len(others)
            for own, others in zip(g["round_scores"], g["others_round_scores"], strict=True)
        ]
        rounds += len(margins)
        by_deal.setdefault(g["seed"], []).append(sum(margins) / len(margins))
    deal_means = [sum(m) / len(m) for m in by_deal.values()]
    mean = sum(deal_means) / len(deal_means)
    spread = math.sqrt(sum((m - mean) ** 2 for m in deal_means) / max(1, len(deal_means) - 1))
    half = 1.96 * spread / math.sqrt(len(deal_means))
    times = sorted(t for g in games for t in g["times"])
    cpu = sum(g["cpu"] for g in games)
    print(
        f"learned against {players - 1} expert(s): {len(games)} games on {len(by_deal)} deals"
        f" (seeds {min(by_deal)}-{max(by_deal)}), {rounds} rounds"
    )
    print(f"wins {wins} = {wins / len(games):.1%} ({low:.1%}-{high:.1%}), par {1 / players:.0%}")
    print(
        f"points a round over the others' mean: {mean:+.2f} ({mean - half:+.2f} to"
        f" {mean + half:+.2f}; negative is better)"
    )
    print(
        f"decisions: mean {1000 * sum(times) / len(times):.1f} ms,"
        f" p99 {1000 * percentile(times, 0.99):.1f} ms, max {1000 * times[-1]:.1f} ms"
    )
    print(f"CPU: {cpu:.0f} s for the games ({cpu / len(games):.2f} s a game)")


if __name__ == "__main__":
    main()
