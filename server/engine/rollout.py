"""Rollouts for search: whole rounds played on the fast path, from a deal or a position.

The rules are ``Round``'s (``Round.moves``, ``Round.play``): this module only
loops over them and deals, so a search plays exactly the game the table plays.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .actions import Action
from .cards import DECK, TABLEAU_SIZE
from .deal import Deal
from .position import Position
from .round import Round
from .settings import Settings

#: A rollout policy: given the round and its legal moves, the move to play.
RolloutPolicy = Callable[[Round, Sequence[Action]], Action]


def shuffled_deal(players: int, rng: random.Random) -> Deal:
    """A uniformly random deal, quicker than ``Deal.shuffled`` (which replays rely on).

    Sorting by random keys is a uniform shuffle (keys tie with probability
    about 2**-40) in one C-level sort instead of 149 Python-level draws.
    """
    key = rng.random
    cards = sorted(DECK, key=lambda _: key())
    dealt = players * TABLEAU_SIZE
    tableaux = tuple(
        tuple(cards[i * TABLEAU_SIZE : (i + 1) * TABLEAU_SIZE]) for i in range(players)
    )
    return Deal(tableaux, cards[dealt], tuple(cards[dealt + 1 :]))


def dealt_round(
    players: int,
    rng: random.Random,
    settings: Settings = Settings(),
    previous_closer: int | None = None,
) -> Round:
    """A fresh round for a rollout, dealt from ``rng`` (its deal is not re-checked);
    its reshuffles are seeded from ``rng`` too."""
    position = Position.dealt(shuffled_deal(players, rng), previous_closer)
    seed = str(rng.getrandbits(64))
    return Round.from_position(position, settings, check=False, reshuffle_seed=seed)


def play_out(round_: Round, policy: RolloutPolicy) -> tuple[int, ...]:
    """Play ``round_`` to its end on the fast path; its final scores."""
    moves, play = round_.moves, round_.play
    while round_.final_scores is None:
        play(policy(round_, moves()))
    return round_.final_scores
