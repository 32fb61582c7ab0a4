"""Series of games between a fixed line-up of bots, with seats rotated.

``skyjo-sim`` and ``benchmarks/bots.py`` both play series through here. Game
``i`` of a series seats the line-up rotated by ``i`` places, so that every
entry of the line-up plays from every seat equally often, and is seeded with
``seed + i`` so a series replays exactly. Games can be spread over worker
processes; the tally is the same whatever their number.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from server.engine import Settings

from .match import play_game


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One game of a series, told per line-up entry (not per seat)."""

    index: int
    won: tuple[bool, ...]
    round_scores: tuple[tuple[int, ...], ...]  # per entry, its score in each round
    decision_times: tuple[tuple[float, ...], ...]  # per entry, CPU seconds per decision
    record: dict[str, Any] | None


@dataclass(slots=True)
class EntryTally:
    bot: str
    wins: int = 0
    round_score_sum: int = 0
    rounds: int = 0
    decision_times: list[float] = field(default_factory=list)

    def mean_round_score(self) -> float:
        return self.round_score_sum / self.rounds if self.rounds else 0.0


@dataclass(slots=True)
class Tally:
    lineup: tuple[str, ...]
    games: int = 0
    entries: list[EntryTally] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.entries:
            self.entries = [EntryTally(bot) for bot in self.lineup]

    def add(self, outcome: GameOutcome) -> None:
        self.games += 1
        for entry, won, scores, times in zip(
            self.entries, outcome.won, outcome.round_scores, outcome.decision_times, strict=True
        ):
            entry.wins += won
            entry.round_score_sum += sum(scores)
            entry.rounds += len(scores)
            entry.decision_times.extend(times)

    def summary(self) -> dict[str, Any]:
        """``{"games": N, "seats": [{"bot", "wins", "win_rate", "mean_round_score"}, ...]}``;
        a shared win counts for each winner."""
        return {
            "games": self.games,
            "seats": [
                {
                    "bot": e.bot,
                    "wins": e.wins,
                    "win_rate": round(e.wins / self.games, 4) if self.games else 0.0,
                    "mean_round_score": round(e.mean_round_score(), 2),
                }
                for e in self.entries
            ],
        }


@dataclass(frozen=True, slots=True)
class Series:
    lineup: tuple[str, ...]
    settings: Settings = Settings()
    seed: int = 0
    record: bool = False

    def seating(self, index: int) -> list[int]:
        """Which line-up entry sits in each seat for game ``index``."""
        n = len(self.lineup)
        return [(seat + index) % n for seat in range(n)]

    def play(self, index: int) -> GameOutcome:
        entry_of_seat = self.seating(index)
        levels = [self.lineup[e] for e in entry_of_seat]
        result = play_game(levels, self.settings, self.seed + index, record=self.record)
        seat_of_entry = {entry: seat for seat, entry in enumerate(entry_of_seat)}
        seats = [seat_of_entry[e] for e in range(len(self.lineup))]
        return GameOutcome(
            index=index,
            won=tuple(seat in result.winners for seat in seats),
            round_scores=tuple(tuple(r[seat] for r in result.round_scores) for seat in seats),
            decision_times=tuple(tuple(result.decision_times[seat]) for seat in seats),
            record=result.record,
        )


def play_series(series: Series, games: int, workers: int = 1) -> Iterator[GameOutcome]:
    """The outcomes of games ``0..games-1``, in order, over ``workers`` processes."""
    if workers <= 1 or games <= 1:
        yield from map(series.play, range(games))
        return
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        yield from pool.imap(series.play, range(games), chunksize=4)


def run_series(
    series: Series,
    games: int,
    workers: int = 1,
    on_game: Callable[[GameOutcome], None] | None = None,
) -> Tally:
    """Play a whole series and tally it; ``on_game`` sees each outcome as it arrives."""
    tally = Tally(series.lineup)
    for outcome in play_series(series, games, workers):
        tally.add(outcome)
        if on_game is not None:
            on_game(outcome)
    return tally


def percentile(values: Sequence[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (nearest rank)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))
    return ordered[rank]
