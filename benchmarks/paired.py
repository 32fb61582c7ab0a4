"""Two versions of master on the same games: which games only one of them won.

    python benchmarks/paired.py play OUT.jsonl [--table master-expert] [--games 200]
                                                [--seed 0] [--set NAME=VALUE ...]
    python benchmarks/paired.py compare BEFORE.jsonl AFTER.jsonl

``play`` plays the table's games ``seed .. seed+games-1`` (seats rotated, as
``benchmarks/bots.py`` plays them) in this process, one after another, with
``MasterBot``'s class attributes or its ``SearchRule``'s fields set by
``--set`` (``batch=96``, ``margin=2.0``, ...; values in JSON), and writes one
line per game: whether master won, its round scores and the others', and the
CPU seconds of each of its decisions. ``compare`` reads two such files of the
same games and prints each version's wins, the games only one of them won and
a one-sided sign test of the difference, both versions' mean and max decision
times, master's CPU per game, and master's points a round over the others' mean
(for files that hold the others' scores).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import fields, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bots import tables, wilson

from server.bots.master import MasterBot, SearchRule
from server.bots.tournament import Series, play_series


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    play = commands.add_parser("play", help="play a version's games into OUT")
    play.add_argument("out", type=Path)
    searched = [name for name in tables() if name.startswith("master")]
    play.add_argument("--table", default="master-expert", choices=searched)
    play.add_argument("--games", type=int, default=200)
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    compare = commands.add_parser("compare", help="compare two versions' files")
    compare.add_argument("before", type=Path)
    compare.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "play":
        _play(args.out, args.table, args.games, args.seed, args.set)
    else:
        _compare(_load(args.before), _load(args.after))


def _play(out: Path, table: str, games: int, seed: int, settings: list[str]) -> None:
    for setting in settings:
        name, _, value = setting.partition("=")
        if name in {f.name for f in fields(SearchRule)}:
            MasterBot.rule = replace(MasterBot.rule, **{name: json.loads(value)})
        elif hasattr(MasterBot, name):
            setattr(MasterBot, name, json.loads(value))
        else:
            raise SystemExit(f"neither MasterBot nor its SearchRule has {name!r}")
    lineup = tables()[table]
    with out.open("w") as file:
        for outcome in play_series(Series(lineup, seed=seed), games):
            line = {
                "index": outcome.index,
                "won": outcome.won[0],
                "round_scores": outcome.round_scores[0],
                "others_round_scores": outcome.round_scores[1:],
                "times": outcome.decision_times[0],
            }
            file.write(json.dumps(line) + "\n")
            file.flush()


def _load(path: Path) -> dict[int, dict]:
    return {game["index"]: game for game in map(json.loads, path.read_text().splitlines())}


def _compare(before: dict[int, dict], after: dict[int, dict]) -> None:
    common = sorted(before.keys() & after.keys())
    games = len(common)
    only_before = sum(before[i]["won"] and not after[i]["won"] for i in common)
    only_after = sum(after[i]["won"] and not before[i]["won"] for i in common)
    print(f"{games} games in both files")
    for name, version in (("before", before), ("after", after)):
        wins = sum(version[i]["won"] for i in common)
        low, high = wilson(wins, games)
        times = [t for i in common for t in version[i]["times"]]
        rounds = [s for i in common for s in version[i]["round_scores"]]
        print(
            f"{name:<7} {wins:>4} wins {wins / games:6.1%} ({low:.1%}-{high:.1%})"
            f"  pts/round {sum(rounds) / len(rounds):5.2f}"
            f"  decision mean {1000 * sum(times) / len(times):6.2f} ms"
            f"  max {1000 * max(times):7.2f} ms  CPU/game {sum(times) / games:6.2f} s"
        )
    margins = {
        name: [
            own - sum(others) / len(others)
            for i in common
            if "others_round_scores" in version[i]
            for own, *others in zip(
                version[i]["round_scores"], *version[i]["others_round_scores"], strict=True
            )
        ]
        for name, version in (("before", before), ("after", after))
    }
    if all(margins.values()):
        print(
            "points a round over the others' mean: "
            + ", ".join(f"{name} {sum(m) / len(m):+.2f}" for name, m in margins.items())
        )
    print(
        f"won by one only: before {only_before}, after {only_after};"
        f" one-sided sign test p = {_sign_test(only_after, only_before):.3f}"
    )


def _sign_test(wins: int, losses: int) -> float:
    """P(at least ``wins`` of ``wins + losses`` fair coin tosses)."""
    n = wins + losses
    return sum(math.comb(n, k) for k in range(wins, n + 1)) / 2**n if n else 1.0


if __name__ == "__main__":
    main()
