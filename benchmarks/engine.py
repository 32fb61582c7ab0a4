"""Rounds per second of random play: this engine's two paths against rlskyjo's, the same work.

    python benchmarks/engine.py [--rounds N] [--repeat R] [--seed S]

Every line plays whole rounds with the same policy, rlskyjo's random player:
at the start of a turn "draw from the pile" or "take the discard" at even
odds, then a uniform choice among the legal placements (after taking the
discard: any card still on the table; after a draw: exchange it anywhere, or
discard it and turn up a face-down card); the two initial flips are uniform.
A *turn* is counted alike on every line: one card placed (rlskyjo's place
actions, our take/swap/discard-and-flip); initial flips and rlskyjo's final
draw request are not turns.

Lines:
- ``skyjo full path``: ``Game.legal_actions``/``Game.apply`` over whole games
  (legality reasons, events, the move log that records are made of, totals);
- ``skyjo fast path``: what search rollouts run: ``rollout.dealt_round`` and
  ``Round.moves``/``Round.play`` (no events, no checks, no records);
- ``rlskyjo``: its numba engine (``SkyjoGame.reset``, ``_jit_action_mask``,
  ``act``) with only what the policy needs per step. It is no dependency of
  this project: ``pip install --no-deps rlskyjo numpy numba llvmlite`` into a
  throwaway environment and run this file with that environment's Python
  and ``PYTHONPATH=.``; without it, only this engine is timed.

Runs are interleaved (A, B, C, A, B, C, ...: ``--repeat`` runs of each, after
a warm-up), so drift of a shared machine's load hits every line alike; each
line shows the median and the range of its runs, and the ratio against
rlskyjo is the median of the ratios of runs made side by side. Time is CPU
time of this process (the machine is shared: wall-clock time would measure
the neighbours too).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from server.engine import Action, ActionKind, Game, GamePhase, Phase, Settings
from server.engine.rollout import dealt_round

_DRAW, _FLIP = ActionKind.DRAW, ActionKind.FLIP

# rlskyjo's actions: 0-11 place the hand card there, 12-23 discard it and turn
# that card up, 24 draw from the pile, 25 take the discard.
RL_DISCARD_AND_FLIP, RL_DRAW, RL_TAKE = 12, 24, 25

#: One timed run: plays ``rounds`` whole rounds, returns the turns played.
Run = Callable[[int], int]


@dataclass(frozen=True)
class Sample:
    seconds: float
    turns: int


@dataclass
class Line:
    label: str
    run: Run
    samples: list[Sample]

    def rates(self, rounds: int) -> list[float]:
        return [rounds / s.seconds for s in self.samples]


def source_first(legal: Sequence[Action], rng: random.Random) -> Action:
    """rlskyjo's random player: pile or discard at even odds, then a uniform placement."""
    if legal[0].kind is not _DRAW:  # initial flips, or a drawn card to place
        return rng.choice(legal)
    if rng.random() < 0.5:
        return legal[0]
    return legal[rng.randrange(1, len(legal))]  # take the discard, at a uniform position


def full_path(players: int, seed: int) -> Run:
    """Whole games through ``Game``: every move checked, its events built and logged."""
    rng = random.Random(seed)
    settings = Settings()
    playing, flipping, over = GamePhase.PLAYING, Phase.INITIAL_FLIPS, GamePhase.GAME_OVER
    games = 0

    def run(rounds: int) -> int:
        nonlocal games
        game = Game(players, settings, seed=f"bench/{seed}/{games}")
        turns = 0
        for _ in range(rounds):
            round_ = game.round
            while game.phase is playing:
                seat = round_.pending_flippers()[0] if round_.phase is flipping else round_.current
                action = source_first(game.legal_actions(seat), rng)
                turns += action.kind is not _DRAW and action.kind is not _FLIP
                game.apply(action)
            if game.phase is over:
                games += 1
                game = Game(players, settings, seed=f"bench/{seed}/{games}")
            else:
                game.next_round()
        return turns

    return run


def fast_path(players: int, seed: int) -> Run:
    """Rollouts as search plays them: a fresh deal, then ``moves``/``play`` to the end."""
    rng = random.Random(seed)
    settings = Settings()

    def run(rounds: int) -> int:
        turns = 0
        for _ in range(rounds):
            round_ = dealt_round(players, rng, settings)
            moves, play = round_.moves, round_.play
            while round_.final_scores is None:
                action = source_first(moves(), rng)
                turns += action.kind is not _DRAW and action.kind is not _FLIP
                play(action)
        return turns

    return run


def rlskyjo_path(players: int, seed: int) -> Run | None:
    """rlskyjo's engine with the same policy; None when it is not installed."""
    try:
        import numpy
        from rlskyjo.game.skyjo import SkyjoGame
    except ImportError:
        return None
    rng = random.Random(seed)
    game = SkyjoGame(num_players=players)
    game.set_seed(seed)
    mask_of, flatnonzero = game._jit_action_mask, numpy.flatnonzero  # noqa: SLF001 - rlskyjo's, as its own code steps

    def run(rounds: int) -> int:
        turns = 0
        for _ in range(rounds):
            game.reset()  # deals and makes every seat's two initial flips
            took = False
            while not game.is_terminated:
                player_id, expected = game.expected_action
                allowed = flatnonzero(mask_of(game.players_masked, player_id, expected)).tolist()
                if took:  # its mask would let the taken discard go back: the rules do not
                    allowed = [a for a in allowed if a < RL_DISCARD_AND_FLIP]
                action = rng.choice(allowed)  # 24 draw / 25 take at even odds, or a placement
                took = action == RL_TAKE
                turns += action < RL_DRAW
                game.act(player_id, action)
        return turns

    return run


def timed(run: Run, rounds: int) -> Sample:
    start = time.process_time()
    turns = run(rounds)
    return Sample(time.process_time() - start, turns)


def measure(players: int, rounds: int, repeats: int, seed: int) -> list[Line]:
    lines = [
        Line("skyjo full path (Game.apply)", full_path(players, seed), []),
        Line("skyjo fast path (rollouts)", fast_path(players, seed), []),
    ]
    rival = rlskyjo_path(players, seed)
    if rival is not None:
        lines.append(Line("rlskyjo (numba)", rival, []))
    for line in lines:
        line.run(max(rounds // 10, 20))  # warm-up; numba compiles on first use
    for _ in range(repeats):
        for line in lines:
            line.samples.append(timed(line.run, rounds))
    return lines


def report(players: int, rounds: int, lines: list[Line]) -> None:
    rival = lines[-1] if lines[-1].label.startswith("rlskyjo") else None
    for line in lines:
        rates = line.rates(rounds)
        turns = statistics.mean(s.turns for s in line.samples) / rounds
        text = (
            f"{line.label:<30} {players} players: {statistics.median(rates):8,.0f} rounds/s"
            f" ({min(rates):,.0f}-{max(rates):,.0f})  {turns:5.1f} turns/round"
            f"  {statistics.median(rates) * turns / 1000:6,.1f}k turns/s"
        )
        if rival is not None and line is not rival:
            ratios = [a / b for a, b in zip(rates, rival.rates(rounds), strict=True)]
            text += (
                f"  x{statistics.median(ratios):.2f} rlskyjo ({min(ratios):.2f}-{max(ratios):.2f})"
            )
        print(text, flush=True)
    if rival is None:
        print("rlskyjo is not installed: comparison skipped", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1000, help="rounds per timed run")
    parser.add_argument("--repeat", type=int, default=7, help="timed runs of each line")
    parser.add_argument("--seed", type=int, default=1, help="seed of deals and random moves")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    args = parser.parse_args()
    if args.rounds < 1 or args.repeat < 1:
        parser.error("--rounds and --repeat must be at least 1")
    print(f"{args.repeat} interleaved runs of {args.rounds} rounds per line; CPU time", flush=True)
    for players in args.players:
        report(players, args.rounds, measure(players, args.rounds, args.repeat, args.seed))


if __name__ == "__main__":
    main()
