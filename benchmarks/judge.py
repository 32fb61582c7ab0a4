"""How well the expert's model judges a two-player round, against values fitted to outcomes.

    python benchmarks/judge.py [--games 400] [--seed 100000] [--workers 2]

Plays two-player games expert against expert (game ``i`` seeded ``seed + i``)
and, at the start of every turn that is not a last turn, notes from the mover's
view what master's search judges a table by: the model's expected final score
of the mover's tableau (``m``) and of the other's (``q``), both tableaux's
face-down cards, and what the discard now on top would save the mover. The
target is the round's outcome, the mover's final score less the other's.

The games are split by seed (every fifth game is kept out of the fitting) and
the kept-out positions are predicted by ``m - q`` as the search uses it, and by
least-squares fits of ever richer value functions on the other games' positions.
If no fit predicts the outcome clearly better than ``m - q``, a value learnt
from these features cannot make the search a better judge than the model.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.bots.counting import LOWEST
from server.bots.expert import ExpertBot
from server.bots.match import bot_move, seats_to_act, tell_bots
from server.bots.model import column_cost, turn_gains
from server.bots.plan import Plan
from server.engine import Action, ActionKind, Game, GamePhase, PlayerView, Settings


@dataclass(frozen=True, slots=True)
class Position:
    """What the search could judge a table by, at the start of the mover's turn."""

    game: int
    round: int
    seat: int
    mine: float  # the model's expected final score of the mover's tableau
    theirs: float  # and of the other's, priced with the mover's outlook
    hidden_mine: int
    hidden_theirs: int
    discard_gain: float  # what the discard on top would save the mover, at best


class NotingExpert(ExpertBot):
    """The expert, noting each position it begins a turn in (not its last turn)."""

    def __init__(self, seat: int, game: int) -> None:
        super().__init__(seat, f"judge/{game}/{seat}")
        self.game = game
        self.positions: list[Position] = []

    def choose(self, view: PlayerView) -> Action:
        if (
            view.legal_actions[0].kind is not ActionKind.FLIP
            and view.drawn_card is None
            and view.closer is None
        ):
            self.positions.append(self._noted(view))
        return super().choose(view)

    def _noted(self, view: PlayerView) -> Position:
        self.counter.sync(view)
        unseen = self.counter.unseen(view)
        draws = self.counter.draw_pile(view, unseen)
        plan = Plan(view, unseen, draws, self.settings, self.params, self._rng, closing_samples=1)
        other = plan._columns_of(1 - self.seat)  # noqa: SLF001 - the module's own part, measured alone
        gains = turn_gains(plan._columns_of(self.seat), plan.o.mean, self.settings.clear_columns)  # noqa: SLF001 - the module's own part, measured alone
        return Position(
            game=self.game,
            round=view.round,
            seat=self.seat,
            mine=plan.total,
            theirs=sum(column_cost(column, plan.o) for column in other),
            hidden_mine=len(plan.hidden),
            hidden_theirs=sum(1 for column in other for v in column if v is None),
            discard_gain=max(0.0, gains[view.discard_top - LOWEST]),
        )


def play(game_seed: int) -> list[tuple[Position, int]]:
    """One game's positions, each with its round's outcome for the mover."""
    bots = [NotingExpert(seat, game_seed) for seat in (0, 1)]
    game = Game(2, Settings(), game_seed)
    tell_bots(bots, [game.round.start_event()])
    finals: dict[int, tuple[int, ...]] = {}
    while True:
        while seats := seats_to_act(game):
            for seat in seats:
                tell_bots(bots, game.apply(bot_move(bots[seat], game)))
        assert game.round.final_scores is not None
        finals[game.round.number] = game.round.final_scores
        if game.phase is GamePhase.GAME_OVER:
            break
        tell_bots(bots, game.next_round())
    return [
        (p, finals[p.round][p.seat] - finals[p.round][1 - p.seat])
        for bot in bots
        for p in bot.positions
    ]


Features = Callable[[Position], list[float]]


def _bucketed(cap: int) -> Features:
    """Per pair of face-down counts (each capped at ``cap``): a constant, m, q and the discard."""
    cells = (cap + 1) ** 2

    def features(p: Position) -> list[float]:
        row = [0.0] * (4 * cells)
        cell = 4 * (min(p.hidden_mine, cap) * (cap + 1) + min(p.hidden_theirs, cap))
        row[cell : cell + 4] = [1.0, p.mine, p.theirs, p.discard_gain]
        return row

    return features


FITS: dict[str, Features] = {
    "a (m - q) + b": lambda p: [1.0, p.mine - p.theirs],
    "m, q apart": lambda p: [1.0, p.mine, p.theirs],
    "m, q, the discard's gain": lambda p: [1.0, p.mine, p.theirs, p.discard_gain],
    "... and both face-down counts": lambda p: [
        1.0,
        p.mine,
        p.theirs,
        p.discard_gain,
        p.hidden_mine,
        p.hidden_theirs,
    ],
    "per face-down counts (up to 2)": _bucketed(2),
    "per face-down counts (up to 4)": _bucketed(4),
}


def least_squares(rows: Sequence[list[float]], targets: Sequence[float]) -> list[float]:
    """The weights minimising the squared error (normal equations, a small ridge for the
    columns a bucket never fills)."""
    n = len(rows[0])
    a = [[0.0] * n for _ in range(n)]
    b = [0.0] * n
    for row, target in zip(rows, targets, strict=True):
        nonzero = [(i, x) for i, x in enumerate(row) if x]
        for i, x in nonzero:
            b[i] += x * target
            for j, z in nonzero:
                a[i][j] += x * z
    for i in range(n):
        a[i][i] += 1e-6
    return _solve(a, b)


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting."""
    n = len(b)
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot], b[col], b[pivot] = a[pivot], a[col], b[pivot], b[col]
        for r in range(col + 1, n):
            factor = a[r][col] / a[col][col]
            if factor:
                for c in range(col, n):
                    a[r][c] -= factor * a[col][c]
                b[r] -= factor * b[col]
    weights = [0.0] * n
    for r in reversed(range(n)):
        weights[r] = (b[r] - sum(a[r][c] * weights[c] for c in range(r + 1, n))) / a[r][r]
    return weights


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=100000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    seeds = range(args.seed, args.seed + args.games)
    with get_context("fork").Pool(args.workers) as pool:
        noted = [pair for game in pool.imap(play, seeds, chunksize=4) for pair in game]
    fitting = [(p, y) for p, y in noted if (p.game - args.seed) % 5]
    kept_out = [(p, y) for p, y in noted if not (p.game - args.seed) % 5]
    outcomes = [y for _, y in kept_out]
    mean = sum(outcomes) / len(outcomes)
    spread = math.sqrt(sum((y - mean) ** 2 for y in outcomes) / len(outcomes))
    print(
        f"{len(noted)} positions of {args.games} games; {len(kept_out)} kept out, "
        f"where the outcome has a standard deviation of {spread:.3f}"
    )
    print(f"{'judge':34s} {'error (rms)':>12s} {'explained':>10s}  weights")

    def report(name: str, predict: Callable[[Position], float], weights: str = "") -> None:
        error = math.sqrt(sum((predict(p) - y) ** 2 for p, y in kept_out) / len(kept_out))
        print(f"{name:34s} {error:12.3f} {1 - (error / spread) ** 2:10.1%}  {weights}")

    report("m - q, the search's judge", lambda p: p.mine - p.theirs)
    for name, features in FITS.items():
        weights = least_squares([features(p) for p, _ in fitting], [y for _, y in fitting])
        shown = ", ".join(f"{w:.3f}" for w in weights) if len(weights) <= 6 else ""
        report(name, _linear(features, weights), shown)


def _linear(features: Features, weights: list[float]) -> Callable[[Position], float]:
    return lambda p: sum(x * w for x, w in zip(features(p), weights, strict=True))


if __name__ == "__main__":
    main()
