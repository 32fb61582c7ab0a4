"""Where a round's outcome leaves a player in the game: its chance to win the game.

A bot that minimises its own round score ignores the scoreboard. In the round
that ends the game only the lowest total wins, whatever the points; in the
other rounds, what counts is how far the totals leave us from the others with
the rounds still to play. ``win_chance`` turns a round's final scores into
that one number, so that moves can be judged by the game rather than the round.
"""

from __future__ import annotations

import math

from server.engine import Settings, settle_round

#: Points a round a strong player scores (expert against expert: about 13.1).
ROUND_POINTS = 13.0
#: The standard deviation of the difference of two players' scores in one round
#: (a round's score varies by about 10 points; two players' scores hardly correlate).
ROUND_SPREAD = 14.0


def win_chance(
    totals: tuple[int, ...], round_scores: tuple[int, ...], seat: int, settings: Settings
) -> float:
    """``seat``'s chance to win the game once a round ends with ``round_scores``.

    When the round ends the game (the engine's ``settle_round`` says), it is 1 for a
    winner (a shared win included) and 0 otherwise. Otherwise each other player's
    lead is judged against the spread of the rounds still to play (about as many as
    the highest total needs to reach the end score): a normal approximation, rough
    but rising with every point we gain on anyone."""
    settlement = settle_round(totals, round_scores, settings)
    if settlement.game_over:
        return 1.0 if seat in settlement.winners else 0.0
    new = settlement.totals
    rounds_left = max(1.0, (settings.end_score - max(new)) / ROUND_POINTS)
    spread = ROUND_SPREAD * math.sqrt(rounds_left)
    chance = 1.0
    for player, total in enumerate(new):
        if player != seat:
            chance *= _normal_cdf((total - new[seat]) / spread)
    return chance


def _normal_cdf(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))
