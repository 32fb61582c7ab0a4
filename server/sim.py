"""``skyjo-sim``: headless games between bots.

    skyjo-sim --players expert,greedy --games 200 --seed 7 --set end-score=50 --json

Game ``i`` seats the players rotated by ``i`` places and is seeded with
``seed + i``, so every player starts from every seat equally often and a run
replays exactly. The summary is per player of ``--players`` (in that order);
a shared win counts for each winner.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from contextlib import ExitStack
from typing import IO

from server.bots import BOT_LEVELS
from server.bots.tournament import GameOutcome, Series, Tally, percentile, run_series
from server.engine import MAX_PLAYERS, MIN_PLAYERS, OPTIONS, EngineError, Settings
from server.engine.records import record_line

#: Below this many games a run is quick enough to need no progress bar.
PROGRESS_FROM = 20


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="skyjo-sim",
        description="Play Skyjo games between bots, headless, and report who wins.",
        epilog="Variants: "
        + "; ".join(f"{name} = {allowed}" for name, allowed in OPTIONS.items())
        + ". Bot levels: "
        + "; ".join(f"{name}: {cls.description.rstrip('.')}" for name, cls in BOT_LEVELS.items())
        + ".",  # each description is a sentence: its own full stop would read ".;"
    )
    parser.add_argument(
        "--players",
        type=_lineup,
        default=("expert", "greedy"),
        metavar="BOT,BOT,...",
        help=f"the bots at the table, {MIN_PLAYERS} to {MAX_PLAYERS} of: "
        f"{', '.join(BOT_LEVELS)} (default: expert,greedy)",
    )
    parser.add_argument("--games", type=_positive, default=100, help="games to play (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument(
        "--set",
        dest="options",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a variant, e.g. --set closer-penalty=off (repeatable)",
    )
    parser.add_argument("--record", metavar="FILE", help="write each game's record (JSON lines)")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--workers", type=_positive, default=1, help="worker processes (default 1)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    settings = _settings(parser, args.options)
    series = Series(args.players, settings, args.seed, record=args.record is not None)
    with ExitStack() as stack:
        out = _open_record(parser, stack, args.record)
        tally = _run(series, args.games, args.workers, out, show=not args.quiet)
    if args.json:
        print(json.dumps(tally.summary()))
    else:
        print(format_table(tally, settings))
    return 0


def format_table(tally: Tally, settings: Settings) -> str:
    variants = ", ".join(f"{k}={v}" for k, v in settings.to_dict().items())
    lines = [
        f"{tally.games} games ({variants})",
        f"{'seat':<5}{'bot':<10}{'wins':>7}{'win rate':>10}{'pts/round':>11}{'ms/move':>9}"
        f"{'p99 ms':>8}",
    ]
    for number, entry in enumerate(tally.entries, 1):
        times = entry.decision_times
        mean_ms = 1000 * sum(times) / len(times) if times else 0.0
        lines.append(
            f"{number:<5}{entry.bot:<10}{entry.wins:>7}{entry.wins / tally.games:>10.1%}"
            f"{entry.mean_round_score():>11.2f}{mean_ms:>9.2f}"
            f"{1000 * percentile(times, 0.99):>8.1f}"
        )
    return "\n".join(lines)


def _run(series: Series, games: int, workers: int, out: IO[str] | None, show: bool) -> Tally:
    def keep(outcome: GameOutcome) -> None:
        if out is not None and outcome.record is not None:
            out.write(record_line(outcome.record) + "\n")

    if not (show and games >= PROGRESS_FROM and sys.stderr.isatty()):
        return run_series(series, games, workers, keep)
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("playing", total=games)

        def step(outcome: GameOutcome) -> None:
            keep(outcome)
            progress.advance(task)

        return run_series(series, games, workers, step)


def _lineup(text: str) -> tuple[str, ...]:
    players = tuple(name.strip() for name in text.split(","))
    unknown = [name for name in players if name not in BOT_LEVELS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown bot {unknown[0]!r}; choose from {', '.join(BOT_LEVELS)}"
        )
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(
            f"a table seats {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}"
        )
    return players


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _settings(parser: argparse.ArgumentParser, options: list[str]) -> Settings:
    settings = Settings()
    for option in options:
        name, sep, value = option.partition("=")
        if not sep:
            parser.error(f"--set wants NAME=VALUE, got {option!r}")
        try:
            settings = settings.with_option(name.strip(), value)
        except EngineError as exc:
            parser.error(f"--set {option}: {exc}")
    return settings


def _open_record(
    parser: argparse.ArgumentParser, stack: ExitStack, path: str | None
) -> IO[str] | None:
    if path is None:
        return None
    try:
        return stack.enter_context(open(path, "w", encoding="utf-8"))
    except OSError as exc:
        parser.error(f"--record: cannot write {path}: {exc.strerror}")
    return None  # not reached: parser.error exits


if __name__ == "__main__":
    sys.exit(main())
