"""The expert with some of its model's knobs changed, against the expert, round by round.

    python benchmarks/params.py [--deals 300] [--seed 200000] NAME=VALUE [NAME=VALUE ...]

Each deal is the first round of the two-player game seeded ``seed + i``,
played twice with the seats swapped: the changed expert (``Params`` with the
given fields) against the expert. Prints the mean over the deals of the
changed expert's round score less the expert's (above 0: the change scores
more, so it is worse) with its standard error. Rounds, not games: a round's
score varies by about 10 points, so a paired difference over many rounds
finds a change of a fraction of a point far sooner than win counts do; but
confirm a gain on fresh seeds (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from dataclasses import fields, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.bots.base import Bot
from server.bots.expert import ExpertBot
from server.bots.match import bot_move, seats_to_act, tell_bots
from server.bots.model import Params
from server.engine import Game, Settings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=200000)
    parser.add_argument("changes", nargs="+", metavar="NAME=VALUE")
    args = parser.parse_args()
    known = {f.name for f in fields(Params)}
    changes = {}
    for change in args.changes:
        name, _, value = change.partition("=")
        if name not in known:
            raise SystemExit(f"Params has no {name!r}; known: {', '.join(sorted(known))}")
        changes[name] = json.loads(value)
    params = replace(Params(), **changes)
    differences = [_paired(params, args.seed + i) for i in range(args.deals)]
    mean = statistics.mean(differences)
    error = statistics.stdev(differences) / math.sqrt(len(differences))
    print(
        f"{json.dumps(changes)}: {args.deals} deals, mean difference {mean:+.3f} (se {error:.3f})"
    )


def _paired(params: Params, seed: int) -> float:
    """The changed expert's score less the expert's on one deal, the mean of both seatings."""
    total = 0.0
    for changed in (0, 1):
        bots: list[Bot] = [
            ExpertBot(seat, f"{seed}/{seat}", Settings(), params if seat == changed else Params())
            for seat in (0, 1)
        ]
        scores = _first_round(bots, seed)
        total += scores[changed] - scores[1 - changed]
    return total / 2


def _first_round(bots: list[Bot], seed: int) -> tuple[int, ...]:
    game = Game(len(bots), Settings(), seed)
    tell_bots(bots, [game.round.start_event()])
    while seats := seats_to_act(game):
        for seat in seats:
            tell_bots(bots, game.apply(bot_move(bots[seat], game)))
    assert game.round.final_scores is not None
    return game.round.final_scores


if __name__ == "__main__":
    main()
