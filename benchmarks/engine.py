"""How many complete random-play rounds per second the engine plays.

    python benchmarks/engine.py [--rounds N] [--seed S]

Each round is played through the public API only (``Game.legal_actions``,
``Game.apply``, ``Game.next_round``): every seat, including its two initial
flips, picks uniformly among its legal actions, and whole games are played
(a new game starts when one ends), so dealing and scoring are counted too.

Two policies are timed, because the work in a round depends on the policy:
- ``uniform``: one draw among all legal actions. In the choose phase that is
  "draw" or one of 12 "take the discard at pos", so most turns take the discard.
- ``source-first``: the policy of rlskyjo's random player (its action mask
  weighs "draw" and "take" at 1/2 each, then a position): pick the pile or
  the discard at even odds, then a position uniformly.

When the ``rlskyjo`` package is importable (it is not a dependency of this
project: ``pip install --no-deps rlskyjo numpy numba llvmlite`` into a
throwaway environment), its numba engine is timed side by side in two ways:
its own sample loop (``rlskyjo.game.sample_game.sample_run``: an observation
and an action mask per step, and ``numpy.random.choice``), and a lean loop
that does only what ours does per step: the action mask, a uniform choice
among the allowed actions, and ``act``. Its rounds flip the two initial cards
inside ``reset`` and end without a final reveal; the per-round figures below
say how much each engine does per round.
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


def time_engine(label: str, policy: Policy, players: int, rounds: int, seed: int) -> Result:
    play_rounds(players, max(rounds // 20, 5), policy, seed)  # warm-up
    start = time.perf_counter()
    actions = play_rounds(players, rounds, policy, seed)
    return Result(label, players, rounds, actions, time.perf_counter() - start)


def time_rlskyjo(players: int, rounds: int, seed: int) -> list[Result]:
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
        return rng.choice(numpy.flatnonzero(mask).tolist())  # type: ignore[no-any-return]

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
        start = time.perf_counter()
        actions = play(step, rounds)
        results.append(Result(label, players, rounds, actions, time.perf_counter() - start))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2000, help="rounds per measurement")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for players in (2, 4):
        for label, policy in (("skyjo engine, uniform", uniform), ("skyjo engine, source-first", source_first)):
            print(time_engine(label, policy, players, args.rounds, args.seed).line(), flush=True)
        rivals = time_rlskyjo(players, args.rounds, args.seed)
        if not rivals:
            print("rlskyjo is not installed: comparison skipped", flush=True)
        for result in rivals:
            print(result.line(), flush=True)


if __name__ == "__main__":
    main()
