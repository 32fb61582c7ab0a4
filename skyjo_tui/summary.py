"""The end of a round in numbers: each player's cards, removed columns, scores.

``RoundTracker`` follows the events of a round (a view forgets the values of
removed columns; the events say them), and ``summarize`` puts a finished
round's view together with what the tracker saw. Pure: no Textual.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from server.engine import Event, PlayerView, ViewPhase
from server.engine.events import ColumnRemoved, RoundScored, RoundStarted


@dataclass(frozen=True, slots=True)
class PlayerResult:
    seat: int
    name: str
    cards: tuple[int | None, ...]  # 12 slots; None where a column was removed
    removed: tuple[tuple[int, int | None], ...]  # (column, its value when known)
    raw: int  # the sum of the cards left
    score: int  # after the closer's penalty
    doubled: bool
    total: int
    closer: bool
    winner: bool
    short: str = ""  # a shorter name for narrow tables ("Greedy 2"); "" when the same


@dataclass(frozen=True, slots=True)
class RoundSummary:
    round: int
    players: tuple[PlayerResult, ...]
    game_over: bool
    winners: tuple[int, ...]
    own_seat: int | None

    @property
    def closer(self) -> PlayerResult | None:
        return next((p for p in self.players if p.closer), None)


@dataclass(slots=True)
class RoundTracker:
    """What the events of the current round said that its views do not keep."""

    round: int = 0
    removed: dict[tuple[int, int], int] = field(default_factory=dict)  # (seat, column) -> value
    scored: RoundScored | None = None
    seen: int = 0  # events of this round fed so far (its start included)

    def feed(self, events: Iterable[Event]) -> None:
        for event in events:
            self.seen += 1
            if isinstance(event, RoundStarted):
                self.round, self.removed, self.scored, self.seen = event.round, {}, None, 1
            elif isinstance(event, ColumnRemoved):
                self.removed[(event.player, event.column)] = event.value
            elif isinstance(event, RoundScored):
                self.scored = event


def unseen(tracker: RoundTracker, round_: int, so_far: Sequence[Event]) -> Sequence[Event]:
    """Of a round's events so far (a server's catch-up), those ``tracker`` was not fed yet."""
    return so_far[tracker.seen :] if tracker.round == round_ else so_far


def summarize(
    view: PlayerView, names: Sequence[str], tracker: RoundTracker, shorts: Sequence[str] = ()
) -> RoundSummary | None:
    """The summary of the round ``view`` shows as finished, or None while it runs.

    ``names`` and ``shorts`` (shorter forms of them, for narrow tables) are by seat.
    """
    if view.round_scores is None:
        return None
    scored = tracker.scored if tracker.round in (0, view.round) else None
    players = tuple(
        replace(
            _result(view, names, tracker, scored, seat),
            short=shorts[seat] if seat < len(shorts) else "",
        )
        for seat in range(len(view.tableaux))
    )
    return RoundSummary(
        round=view.round,
        players=players,
        game_over=view.phase is ViewPhase.GAME_OVER,
        winners=view.winners,
        own_seat=view.seat,
    )


def _result(
    view: PlayerView,
    names: Sequence[str],
    tracker: RoundTracker,
    scored: RoundScored | None,
    seat: int,
) -> PlayerResult:
    tableau = view.tableaux[seat]
    assert view.round_scores is not None
    score = view.round_scores[seat]
    # The last view's visible score is the sum left on the table: the raw score.
    raw = scored.raw_scores[seat] if scored else tableau.visible_score
    closer = view.closer == seat
    return PlayerResult(
        seat=seat,
        name=names[seat] if seat < len(names) else f"#{seat + 1}",
        cards=tableau.cards,
        removed=tuple((c, tracker.removed.get((seat, c))) for c in tableau.removed_columns),
        raw=raw,
        score=score,
        doubled=closer and score != raw,
        total=view.totals[seat],
        closer=closer,
        winner=seat in view.winners,
    )
