"""The score sheet of a game: every round's scores, the closer's, and the totals after each.

Built only from what the server says: each round's ``round_scored`` event (the
scores before and after the closer's penalty, who closed) and the
``totals_updated`` event that follows it (the totals, the round's number). A
client that joins or comes back gets the earlier rounds' two events in the
catch-up (``earlier_scores``); a replay has them in its record. No rule is
worked out here: a doubled score is the one the event says was doubled, and a
total is the one the server added up. Pure: no Textual.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from server.engine import Event
from server.engine.events import RoundScored, RoundStarted, TotalsUpdated


@dataclass(frozen=True, slots=True)
class SheetRound:
    round: int
    scores: tuple[int, ...]  # after the closer's penalty
    raw: tuple[int, ...]  # the cards left, before it
    closer: int
    doubled: bool  # the closer's score was doubled (the penalty)
    totals: tuple[int, ...]  # after this round

    def penalised(self, seat: int) -> bool:
        return self.doubled and seat == self.closer


@dataclass(slots=True)
class ScoreSheet:
    """Fed with a game's events in order (any others are ignored); one line per scored round."""

    rounds: dict[int, SheetRound] = field(default_factory=dict)
    _scored: RoundScored | None = None

    def feed(self, events: Iterable[Event]) -> None:
        for event in events:
            if isinstance(event, RoundStarted) and event.round == 1:
                self.rounds.clear()  # a new game at this table (a rematch): a new sheet
            elif isinstance(event, RoundScored):
                self._scored = event
            elif isinstance(event, TotalsUpdated) and self._scored is not None:
                scored, self._scored = self._scored, None
                # Keyed by round: a catch-up may repeat a round already seen live.
                self.rounds[event.round] = SheetRound(
                    event.round,
                    scored.final_scores,
                    scored.raw_scores,
                    scored.closer,
                    scored.closer_doubled,
                    event.totals,
                )

    @property
    def lines(self) -> list[SheetRound]:
        return [self.rounds[number] for number in sorted(self.rounds)]


@dataclass(frozen=True, slots=True)
class SheetShown:
    """What the score sheet widgets show: the lines, the names by seat, the game's target."""

    lines: tuple[SheetRound, ...]
    names: tuple[str, ...]
    end_score: int
    own_seat: int | None = None

    @classmethod
    def of(
        cls, sheet: ScoreSheet, names: Sequence[str], end_score: int, own_seat: int | None = None
    ) -> SheetShown:
        return cls(tuple(sheet.lines), tuple(names), end_score, own_seat)

    def totals(self, seat: int) -> list[int]:
        return [0, *(line.totals[seat] for line in self.lines)]
