"""Train the learned player's network from played games (``learned``, ``network``).

    python -m server.bots.learn generate WORK [--games 200] [--seed 1000000]
                                              [--lineup expert,expert] [--weights PATH]
    python -m server.bots.learn train WORK [WORK...] --out PATH [--epochs 40] [--games N]
                                        [--td-lambda 1.0]

``generate`` plays games ``seed .. seed+games-1`` between the line-up's bots
(``learned`` plays by ``--weights``, by default the shipped ones) and writes,
in chunks of ``CHUNK`` games, the features of every afterstate a player chose
(``afterstate``) with what followed: the round's outcome for that player in
points (its score less the others' mean) and whether it won the game (a
shared win counts half). A chunk already written is skipped, so generating can
be spread over several runs. Training seeds start at ``TRAINING_SEEDS``; the
benchmarks' evaluation games use the seeds below it, so the two never overlap.

``train`` fits a fresh network (or resumes its checkpoint in the first WORK,
written after every epoch) on the first ``--games`` games of the WORK folders
(all by default; ``--td-lambda`` below 1 bootstraps from the next afterstate),
holding out every tenth game to report the loss on games it never saw, and
writes the weights to ``--out`` with their record: the games and seeds, the
command, the CPU seconds of generating and training, and the git commit.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from server.engine import ActionKind, Game, GamePhase, Settings, public_event, view_for

from . import make_bot
from .afterstate import PRIOR, TOTALS
from .base import Bot
from .counting import CardCounter
from .learned import WEIGHTS, LearnedBot, afterstate_of
from .match import seats_to_act
from .network import HIDDEN, Network

#: The first seed of training games; evaluation plays the seeds below it.
TRAINING_SEEDS = 1_000_000
#: Games per file that ``generate`` writes.
CHUNK = 20
#: Every tenth game (by index from the first seed) is held out of training.
HELD_OUT = 10
#: Moves that end a turn: the player's choice of afterstate.
TURN_ENDS = frozenset({ActionKind.TAKE_DISCARD, ActionKind.SWAP_DRAWN, ActionKind.DISCARD_AND_FLIP})


@dataclass(slots=True)
class PlayedGame:
    """One game's afterstates (one row per turn) and what followed each."""

    inputs: list[np.ndarray]
    points: list[float]  # the round's score less the others' mean, for the row's player
    won: list[float]  # 1 when the row's player won the game, 0.5 shared, else 0
    seats: list[int]  # the row's player
    rounds: list[int]  # the row's round (from 0); rows are in the order they were played
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    round_scores: list[tuple[int, ...]]
    decision_times: list[list[float]]


def bots_for(
    lineup: Sequence[str], seed: int | str, settings: Settings, network: Network | None
) -> list[Bot]:
    """One bot per seat; ``learned`` plays by ``network`` (the shipped weights if None)."""
    return [
        LearnedBot(seat, f"{seed}/{seat}", settings, network)
        if level == "learned"
        else make_bot(level, seat, f"{seed}/{seat}", settings)
        for seat, level in enumerate(lineup)
    ]


def play(
    lineup: Sequence[str],
    seed: int,
    settings: Settings = Settings(),
    network: Network | None = None,
    *,
    learn: bool = True,
    explore: float = 0.0,
) -> PlayedGame:
    """Play one game; with ``learn``, keep each turn's afterstate and its outcome.

    With ``explore``, each move is instead one of the legal moves at random with that
    chance: the games then show afterstates the players would not choose, and
    what follows them, so that the network learns why they are worse."""
    bots = bots_for(lineup, seed, settings, network)
    chance = random.Random(f"explore/{seed}")
    counters = [CardCounter() for _ in bots]  # the learner's own count, as each seat saw
    game = Game(len(bots), settings, seed)
    played = PlayedGame([], [], [], [], [], (), (), [], [[] for _ in bots])

    def tell(events: Sequence[Any]) -> None:
        public = [public_event(e) for e in events]
        for bot, counter in zip(bots, counters, strict=True):
            bot.observe(public)
            counter.observe(public)

    tell([game.round.start_event()])
    while True:
        round_rows: list[tuple[int, np.ndarray]] = []
        while seats := seats_to_act(game):
            for seat in seats:
                view = view_for(game, seat)
                started = time.process_time()
                action = bots[seat].choose(view)
                if explore and chance.random() < explore and action.kind is not ActionKind.FLIP:
                    action = chance.choice(view.legal_actions)
                played.decision_times[seat].append(time.process_time() - started)
                if learn and action.kind in TURN_ENDS:
                    assert action.pos is not None
                    counters[seat].sync(view)
                    hidden = game.round.cards[seat][action.pos]
                    features = afterstate_of(view, counters[seat], settings, action, hidden)
                    round_rows.append((seat, features))
                tell(game.apply(action))
        scores = game.round.final_scores
        assert scores is not None
        played.round_scores.append(scores)
        for seat, features in round_rows:
            others = [s for p, s in enumerate(scores) if p != seat]
            played.inputs.append(features)
            played.points.append(scores[seat] - sum(others) / len(others))
            played.seats.append(seat)
            played.rounds.append(len(played.round_scores) - 1)
        if game.phase is GamePhase.GAME_OVER:
            break
        tell(game.next_round())
    share = 1.0 / len(game.winners)
    played.won = [share if seat in game.winners else 0.0 for seat in played.seats]
    played.totals, played.winners = game.totals, game.winners
    return played


# -- generate ------------------------------------------------------------------


def generate(
    work: Path,
    games: int,
    seed: int,
    lineup: Sequence[str],
    weights: Path | None,
    settings: Settings = Settings(),
    log: bool = True,
    explore: float = 0.0,
) -> None:
    """Write the chunks of games ``seed .. seed+games-1`` not written yet (see above)."""
    if seed < TRAINING_SEEDS:
        raise SystemExit(f"training seeds start at {TRAINING_SEEDS}: below are evaluation's")
    network = Network.load(weights) if weights is not None else None
    if "learned" in lineup and network is None:
        network = Network.load(WEIGHTS)
    work.mkdir(parents=True, exist_ok=True)
    name = "-".join(lineup) + (f"-explore{explore:g}" if explore else "")
    for first in range(seed, seed + games, CHUNK):
        last = min(seed + games, first + CHUNK) - 1
        path = work / f"games-{first}-{last}-{name}.npz"
        if path.exists():
            continue
        started = time.process_time()
        inputs, points, won, index, seats, rounds = [], [], [], [], [], []
        for game_seed in range(first, last + 1):
            played = play(lineup, game_seed, settings, network, explore=explore)
            inputs.extend(played.inputs)
            points.extend(played.points)
            won.extend(played.won)
            index.extend([game_seed] * len(played.points))
            seats.extend(played.seats)
            rounds.extend(played.rounds)
        cpu = time.process_time() - started
        partial = path.with_suffix(".part")
        with partial.open("wb") as file:
            np.savez_compressed(
                file,
                inputs=np.array(inputs),
                points=np.array(points),
                won=np.array(won),
                seed=np.array(index),
                seat=np.array(seats),
                round=np.array(rounds),
                cpu=np.array(cpu),
                weights=np.array(json.dumps(network.record if network else {})),
            )
        partial.replace(path)  # a chunk is written whole or not at all
        if log:
            print(f"{path.name}: {len(points)} afterstates, {cpu:.0f} s CPU", flush=True)


@dataclass(slots=True)
class Dataset:
    inputs: np.ndarray
    points: np.ndarray
    seeds: np.ndarray
    following: np.ndarray  # per row, the same player's next row in its round, or -1
    cpu: float
    files: list[str]


def load(works: Sequence[Path], games: int | None = None) -> Dataset:
    """The chunks in ``works``, in seed order; only the first ``games`` games if given."""
    found = [path for work in works for path in work.glob("games-*.npz")]
    chunks = sorted(found, key=lambda p: (int(p.name.split("-")[1]), p.name))
    inputs, points, seeds, seats, rounds, files, cpu = [], [], [], [], [], [], 0.0
    taken: set[int] = set()
    for path in chunks:
        with np.load(path) as data:
            chunk_seeds = data["seed"]
            keep = np.ones(len(chunk_seeds), dtype=bool)
            if games is not None:
                room = games - len(taken)
                if room <= 0:
                    break
                allowed = sorted(set(chunk_seeds.tolist()) - taken)[:room]
                keep = np.isin(chunk_seeds, allowed)
            taken |= set(chunk_seeds[keep].tolist())
            inputs.append(data["inputs"][keep])
            points.append(data["points"][keep])
            seeds.append(chunk_seeds[keep])
            seats.append(data["seat"][keep])
            rounds.append(data["round"][keep])
            cpu += float(data["cpu"])
            files.append(path.name)
    if not inputs:
        raise SystemExit(f"no games in {', '.join(map(str, works))}: run generate first")
    all_seeds = np.concatenate(seeds)
    return Dataset(
        np.concatenate(inputs),
        np.concatenate(points),
        all_seeds,
        _following(all_seeds, np.concatenate(seats), np.concatenate(rounds)),
        cpu,
        files,
    )


def _following(seeds: np.ndarray, seats: np.ndarray, rounds: np.ndarray) -> np.ndarray:
    following = np.full(len(seeds), -1)
    last: dict[tuple[int, int, int], int] = {}
    for row in range(len(seeds) - 1, -1, -1):
        key = (int(seeds[row]), int(rounds[row]), int(seats[row]))
        following[row] = last.get(key, -1)
        last[key] = row
    return following


def td_targets(data: Dataset, predicted: np.ndarray, trace: float) -> np.ndarray:
    """TD(lambda) returns: each afterstate's target mixes the value predicted for the
    same player's next afterstate with that one's own target, by ``trace`` (1: the
    round's actual outcome, 0: the next prediction alone); the last is the outcome."""
    targets = data.points.astype(np.float64).copy()
    following = data.following
    for row in range(len(targets) - 1, -1, -1):
        nxt = following[row]
        if nxt >= 0:
            targets[row] = (1.0 - trace) * predicted[nxt] + trace * targets[nxt]
    return targets


# -- train ---------------------------------------------------------------------


def train(
    works: Sequence[Path],
    out: Path,
    epochs: int,
    games: int | None = None,
    batch: int = 256,
    rate: float = 1e-3,
    trace: float = 1.0,
    unused: frozenset[int] = TOTALS,
    hidden: tuple[int, int] = HIDDEN,
    decay: float = 1e-4,
    command: str = "",
    log: bool = True,
) -> Network:
    """Fit (or go on fitting) a network on the games in ``works`` and write to ``out``
    the weights of the epoch that predicted the held-out games' outcomes best
    (checkpoints go in the first of ``works``)."""
    data = load(works, games)
    held = data.seeds % HELD_OUT == 0
    fit_x = data.inputs[~held]
    test_x, test_y = data.inputs[held], data.points[held]
    name = f"{games or 'all'}-{trace:g}"
    checkpoint = works[0] / f"{out.stem}-checkpoint-{name}.npz"
    best_path = works[0] / f"{out.stem}-best-{name}.npz"
    rng = np.random.default_rng(0)
    if checkpoint.exists():
        network = Network.load(checkpoint)
    else:
        network = Network.fresh(data.inputs.shape[1], rng, unused, hidden, PRIOR)
        network.standardize_on(fit_x)
        network.record = {"epochs": 0, "train_cpu_s": 0.0, "losses": [], "td_lambda": trace}
    best = Network.load(best_path) if best_path.exists() else None
    done = int(network.record["epochs"])
    for epoch in range(done, epochs):
        started = time.process_time()
        # The first epoch learns the outcomes; later ones bootstrap from the predictions.
        targets = data.points if epoch == 0 else td_targets(data, network.value(data.inputs), trace)
        fit_y = targets[~held]
        order = np.random.default_rng(epoch).permutation(len(fit_y))
        for first in range(0, len(order), batch):
            pick = order[first : first + batch]
            network.train_step(fit_x[pick], fit_y[pick], rate, decay)
        fit_loss = network.loss(fit_x, data.points[~held])
        test_loss = network.loss(test_x, test_y) if len(test_y) else 0.0
        network.record["epochs"] = epoch + 1
        network.record["train_cpu_s"] += time.process_time() - started
        network.record["losses"].append([round(fit_loss, 4), round(test_loss, 4)])
        network.save(checkpoint, with_moments=True)
        if best is None or test_loss <= best.record["held_out_loss"]:
            record = {"held_out_loss": test_loss, "best_epoch": epoch + 1}
            weights = [w.copy() for w in network.weights]
            best = Network(
                weights, network.used, network.prior, network.shift, network.spread, record
            )
            best.save(best_path)
        if log:
            print(
                f"epoch {epoch + 1}: loss {fit_loss:.4f} on {len(fit_y)} afterstates,"
                f" {test_loss:.4f} on {len(test_y)} held out (the rounds' outcomes)",
                flush=True,
            )
    assert best is not None
    network.record |= best.record
    network.weights = best.weights
    seeds = np.unique(data.seeds)
    network.record |= {
        "games": len(seeds),
        "seeds": [int(seeds.min()), int(seeds.max())],
        "held_out": f"games whose seed % {HELD_OUT} == 0",
        "afterstates": len(data.points),
        "files": data.files,
        "generate_cpu_s": round(data.cpu, 1),
        "command": command,
        "commit": _commit(),
        "weights": network.size,
    }
    network.record["train_cpu_s"] = round(network.record["train_cpu_s"], 1)
    network.save(out)
    return network


def _commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).parent,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    gen = commands.add_parser("generate", help="play games and keep their afterstates")
    gen.add_argument("work", type=Path)
    gen.add_argument("--games", type=int, default=200)
    gen.add_argument("--seed", type=int, default=TRAINING_SEEDS)
    gen.add_argument("--lineup", default="expert,expert")
    gen.add_argument("--weights", type=Path, default=None)
    gen.add_argument("--explore", type=float, default=0.0, help="chance of a random move")
    fit = commands.add_parser("train", help="fit the network on WORK's games")
    fit.add_argument("work", type=Path, nargs="+")
    fit.add_argument("--out", type=Path, required=True)
    fit.add_argument("--epochs", type=int, default=40)
    fit.add_argument("--games", type=int, default=None, help="only the first N games")
    fit.add_argument("--td-lambda", type=float, default=1.0, help="1: learn the outcomes")
    fit.add_argument("--hidden", default=",".join(map(str, HIDDEN)), help="two layers' widths")
    fit.add_argument("--decay", type=float, default=1e-4, help="weight decay")
    args = parser.parse_args(argv)
    command = " ".join(["python -m server.bots.learn", *(argv or sys.argv[1:])])
    if args.command == "generate":
        lineup = [level.strip() for level in args.lineup.split(",")]
        generate(args.work, args.games, args.seed, lineup, args.weights, explore=args.explore)
    else:
        network = train(
            args.work,
            args.out,
            args.epochs,
            args.games,
            trace=args.td_lambda,
            hidden=tuple(int(w) for w in args.hidden.split(",")),  # type: ignore[arg-type]
            decay=args.decay,
            command=command,
        )
        print(json.dumps(network.record, indent=1))


if __name__ == "__main__":
    main()
