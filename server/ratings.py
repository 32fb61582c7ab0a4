"""Skill ratings: every person and every bot level, updated after each rated game.

A rating is openskill's Plackett-Luce model's belief about a skill: a mean
``mu`` and an uncertainty ``sigma`` (everyone starts at 25 and 25/3). One
game is a free-for-all: each seat is its own team, ranked by its final total
(lower is better in Skyjo; equal totals share a rank). What is shown and what
orders the leaderboard is the conservative *ordinal* ``mu - 3 * sigma``: a
skill the player very probably has at least, so a lucky first win does not
top the board. It starts at 0 and is shown rounded.

Pure computation, no I/O: the store (``server.store``) keeps the ratings and
calls ``rate`` in its writer thread, in the same transaction that stores the
game, and ``rate`` again for every stored game, in order, to rebuild them:
the same games in the same order give the same ratings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # the library's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
Z = 3.0  # how many sigmas the ordinal stays below the mean

PLAYER, BOT = "player:", "bot:"


def player_subject(player_id: int) -> str:
    """Who a person's rating belongs to: their player id (a rename keeps it)."""
    return f"{PLAYER}{player_id}"


def bot_subject(level: str) -> str:
    """A bot's rating is its level's: every greedy bot shares one."""
    return f"{BOT}{level}"


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float
    games: int  # rated games played

    @property
    def ordinal(self) -> float:
        """The conservative skill, ``mu - 3 sigma``: what the leaderboard orders by."""
        return self.mu - Z * self.sigma

    @property
    def shown(self) -> int:
        """The ordinal as people see it: rounded."""
        return round(self.ordinal)


INITIAL = Rating(MODEL.mu, MODEL.sigma, 0)


def ranks(totals: Sequence[int]) -> list[int]:
    """Each seat's place by final total, lowest first, ties sharing (1, 2, 2, 4)."""
    return [1 + sum(1 for other in totals if other < total) for total in totals]


def rate(
    current: Mapping[str, Rating], subjects: Sequence[str | None], totals: Sequence[int]
) -> dict[str, Rating]:
    """The new ratings after one game, by subject.

    ``subjects`` and ``totals`` are by seat; a seat whose subject is None (a
    person who left, whose game a bot finished) is not rated, and neither is
    a game with fewer than two rated seats. A subject on several seats (two
    bots of one level) is rated on each seat from its rating before the game,
    and gets the mean of those results.
    """
    seats = [(s, t) for s, t in zip(subjects, totals, strict=True) if s is not None]
    if len(seats) < 2:
        return {}
    before = [current.get(subject, INITIAL) for subject, _ in seats]
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = MODEL.rate(teams, ranks=[float(rank) for rank in ranks([t for _, t in seats])])
    results: dict[str, list[tuple[float, float]]] = {}
    for (subject, _), (new,) in zip(seats, after, strict=True):
        results.setdefault(subject, []).append((new.mu, new.sigma))
    rated = {}
    for subject, values in results.items():
        mu = sum(v[0] for v in values) / len(values)
        sigma = sum(v[1] for v in values) / len(values)
        rated[subject] = Rating(mu, sigma, current.get(subject, INITIAL).games + 1)
    return rated


__all__ = ["INITIAL", "Rating", "bot_subject", "player_subject", "ranks", "rate"]
