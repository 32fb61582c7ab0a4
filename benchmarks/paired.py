"""Two versions of master on the same games: which games only one of them won.

    python benchmarks/paired.py play OUT.jsonl [--table master-expert] [--games 200]
                                                [--seed 0] [--set NAME=VALUE ...]
    python benchmarks/paired.py compare BEFORE.jsonl AFTER.jsonl

``play`` plays the table's games ``seed .. seed+games-1`` (seats rotated, as
``benchmarks/bots.py`` plays them) in this process, one after another, with
``MasterBot``'s class attributes or its ``SearchRule``'s fields set by
``--set`` (``batch=96``, ``margin=2.0``, ...; values in JSON), and writes one
line per game: whether master won, its round scores and the others', the
CPU seconds of each of its decisions and its move at each (``kind:pos``).
``compare`` reads two such files of the same games and prints each version's
wins, the games only one of them won and a one-sided sign test of the
difference, both versions' mean, 99th percentile and max decision times,
master's CPU per game, master's points a round over the others' mean (for
files that hold the others' scores), and how many games master played move
for move alike (for files that hold its moves), with how soon the others part.
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
from server.bots.tournament import Series, percentile, play_series


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
    series = Series(tables()[table], seed=seed, record=True)
    with out.open("w") as file:
        for outcome in play_series(series, games):
            assert outcome.record is not None
            line = {
                "index": outcome.index,
                "won": outcome.won[0],
                "round_scores": outcome.round_scores[0],
                "others_round_scores": outcome.round_scores[1:],
                "times": outcome.decision_times[0],
                "moves": _moves(outcome.record, series.seating(outcome.index).index(0)),
            }
            file.write(json.dumps(line) + "\n")
            file.flush()


def _moves(record: dict, seat: int) -> list[str]:
    """The moves of ``seat`` in a game's record, in order (one per decision timed)."""
    return [
        f"{action['kind']}:{action.get('pos', '')}"
        for round_ in record["rounds"]
        for move in round_["moves"]
        if (action := move["action"])["player"] == seat
    ]


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
        times = sorted(t for i in common for t in version[i]["times"])
        rounds = [s for i in common for s in version[i]["round_scores"]]
        print(
            f"{name:<7} {wins:>4} wins {wins / games:6.1%} ({low:.1%}-{high:.1%})"
            f"  pts/round {sum(rounds) / len(rounds):5.2f}"
            f"  decision mean {1000 * sum(times) / len(times):6.2f} ms"
            f"  p99 {1000 * percentile(times, 0.99):7.2f} ms"
            f"  max {1000 * times[-1]:7.2f} ms  CPU/game {sum(times) / games:6.2f} s"
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
    moved = [i for i in common if "moves" in before[i] and "moves" in after[i]]
    if moved:
        parted = [_parting(before[i]["moves"], after[i]["moves"]) for i in moved]
        apart = sorted(k for k in parted if k is not None)
        print(f"master's moves alike in {len(moved) - len(apart)} of {len(moved)} games", end="")
        if apart:
            print(
                f"; the others part at master's decision {apart[0]} at the earliest,"
                f" {apart[len(apart) // 2]} in the median game",
                end="",
            )
        print()


def _parting(first: list[str], second: list[str]) -> int | None:
    """The first decision (counted from 1) at which two games' moves differ, if any."""
    # The shorter may be a prefix of the longer: they part where it ends.
    for k, (a, b) in enumerate(zip(first, second, strict=False), start=1):
        if a != b:
            return k
    return None if len(first) == len(second) else min(len(first), len(second)) + 1


def _sign_test(wins: int, losses: int) -> float:
    """P(at least ``wins`` of ``wins + losses`` fair coin tosses)."""
    n = wins + losses
    return sum(math.comb(n, k) for k in range(wins, n + 1)) / 2**n if n else 1.0


if __name__ == "__main__":
    main()
