"""How many complete random-play rounds per second the engine plays.

    python benchmarks/engine.py [--rounds N] [--repeat R] [--seed S]

Rounds are played through the public API only (``Game.legal_actions``,
``Game.apply``, ``Game.next_round``): every seat picks a random legal action,
its two initial flips included, and whole games are played (a new game starts
when one ends), so dealing, the final reveal, scoring and totals are counted.
Each figure is the best of ``--repeat`` runs, in CPU seconds of this process
(the machine is shared: wall-clock time would also measure the neighbours).

Two random policies are timed, because the work in a round depends on it:
- ``uniform``: one choice among all legal actions. At the start of a turn that
  is "draw" or one of 12 "take the discard at pos", so most turns take the
  discard and take one action.
- ``source-first``: the policy of rlskyjo's random player, whose action mask
  offers "draw from the pile" and "take the discard" first: one of the two at
  even odds, then a position (or, after a draw, swap or discard-and-flip).

When the ``rlskyjo`` package is importable (it is not a dependency of this
project: ``pip install --no-deps rlskyjo numpy numba llvmlite`` into a
throwaway environment), its numba engine is timed side by side in two ways:
the loop of its own ``rlskyjo.game.sample_game.sample_run`` (an observation
and an action mask per step, ``numpy.random.choice`` over the mask, ``act``),
and a lean loop that does only what ours does per step: the action mask, a
uniform choice among the allowed actions, and ``act``. Its rounds make the
initial flips inside ``reset`` and end without a final reveal; the actions per
round printed beside each figure show how much each engine does per round.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from server.engine import Action, ActionKind, Game, GamePhase, Phase, Settings

Policy = Callable[[list[Action], random.Random], Action]


@dataclass(frozen=True)
class Result:
    label: str
    players: int
    rounds: int
    actions: int
    seconds: float

    def line(self) -> str:
        return (
            f"{self.label:<34} {self.players} players: {self.rounds / self.seconds:8,.0f} rounds/s"
            f"  {self.actions / self.rounds:6.1f} actions/round"
            f"  {self.actions / self.seconds / 1000:6,.0f}k actions/s"
        )


def uniform(legal: list[Action], rng: random.Random) -> Action:
    return rng.choice(legal)


def source_first(legal: list[Action], rng: random.Random) -> Action:
    """rlskyjo's random player: pile or discard at even odds, then a position."""
    if legal[0].kind is not ActionKind.DRAW:  # initial flips, or a drawn card to place
        return rng.choice(legal)
    if rng.random() < 0.5:
        return legal[0]
    return rng.choice(legal[1:])  # take the discard, at a uniform position


def play_rounds(players: int, rounds: int, policy: Policy, seed: int) -> int:
    """Play ``rounds`` complete rounds of random play; return the actions applied."""
    rng = random.Random(seed)
    settings = Settings()
    game = Game(players, settings, seed=f"bench/{seed}/0")
    playing, flipping = GamePhase.PLAYING, Phase.INITIAL_FLIPS  # enum lookups out of the loop
    played = actions = 0
    while played < rounds:
        round_ = game.round
        while game.phase is playing:
            seat = round_.pending_flippers()[0] if round_.phase is flipping else round_.current
            game.apply(policy(game.legal_actions(seat), rng))
            actions += 1
        played += 1
        if game.phase is GamePhase.GAME_OVER:
            game = Game(players, settings, seed=f"bench/{seed}/{played}")
        else:
            game.next_round()
    return actions


def best_of(repeats: int, label: str, players: int, rounds: int, run: Callable[[], int]) -> Result:
    """The fastest of ``repeats`` timed runs; ``run`` plays ``rounds`` rounds and
    returns the actions. Time is this process's CPU time: the machine is shared,
    and wall-clock time would measure the neighbours too."""
    timings = []
    for _ in range(repeats):
        start = time.process_time()
        actions = run()
        timings.append((time.process_time() - start, actions))
    seconds, actions = min(timings)
    return Result(label, players, rounds, actions, seconds)


def time_engine(
    label: str, policy: Policy, players: int, rounds: int, seed: int, repeats: int
) -> Result:
    play_rounds(players, max(rounds // 20, 5), policy, seed)  # warm-up
    return best_of(
        repeats, label, players, rounds, lambda: play_rounds(players, rounds, policy, seed)
    )


def time_rlskyjo(players: int, rounds: int, seed: int, repeats: int) -> list[Result]:
    """rlskyjo's engine with its own loop and with a lean one; [] when it is absent."""
    try:
        import numpy
        from rlskyjo.game.skyjo import SkyjoGame
        from rlskyjo.models.random_admissible_policy import policy_ra
    except ImportError:
        return []
    rng = random.Random(seed)

    def own_step(game: SkyjoGame, player_id: int, expected: str) -> int:
        """The body of rlskyjo.game.sample_game.sample_run, verbatim in effect."""
        observation, mask = game.collect_observation(player_id)
        return int(policy_ra(observation, mask))

    def lean_step(game: SkyjoGame, player_id: int, expected: str) -> int:
        mask = game._jit_action_mask(game.players_masked, player_id, expected)
        return rng.choice(numpy.flatnonzero(mask).tolist())

    def play(step: Callable[[SkyjoGame, int, str], int], games: int) -> int:
        game = SkyjoGame(num_players=players)
        game.set_seed(seed)
        actions = 0
        for _ in range(games):
            game.reset()
            while not game.is_terminated:
                player_id, expected = game.expected_action
                game.act(player_id, step(game, player_id, expected))
                actions += 1
        return actions

    results = []
    for label, step in (
        ("rlskyjo, its sample_run loop", own_step),
        ("rlskyjo, lean loop", lean_step),
    ):
        play(step, max(rounds // 20, 5))  # numba compiles on first use
        results.append(best_of(repeats, label, players, rounds, lambda: play(step, rounds)))  # noqa: B023 - run in this turn
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2000, help="rounds per measurement")
    parser.add_argument("--seed", type=int, default=1, help="seed of deals and random moves")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs; the best is shown")
    args = parser.parse_args()
    if args.rounds < 1 or args.repeat < 1:
        parser.error("--rounds and --repeat must be at least 1")
    for players in (2, 4):
        for label, policy in (
            ("skyjo engine, uniform", uniform),
            ("skyjo engine, source-first", source_first),
        ):
            result = time_engine(label, policy, players, args.rounds, args.seed, args.repeat)
            print(result.line(), flush=True)
        rivals = time_rlskyjo(players, args.rounds, args.seed, args.repeat)
        if not rivals:
            print("rlskyjo is not installed: comparison skipped", flush=True)
        for result in rivals:
            print(result.line(), flush=True)


if __name__ == "__main__":
    main()
