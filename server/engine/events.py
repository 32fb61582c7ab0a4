"""What happened: the events ``apply`` returns, in the order they happened.

Every event is public (every player and spectator of the table may see it)
except the draw pile order inside ``PileReshuffled``; ``views.public_event``
strips it. Events serialise to plain maps tagged with ``type``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from .errors import InvalidSetup


@dataclass(frozen=True, slots=True)
class Event:
    TYPE: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.TYPE}
        for f in fields(self):
            value = getattr(self, f.name)
            data[f.name] = list(value) if isinstance(value, tuple) else value
        return data


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """A new deal: 12 face-down cards each, and the first discard turned up."""

    TYPE: ClassVar[str] = "round_started"
    round: int
    discard_top: int
    pile_size: int


@dataclass(frozen=True, slots=True)
class CardFlipped(Event):
    """A face-down card turned face up, by an initial flip or a discard-and-flip."""

    TYPE: ClassVar[str] = "card_flipped"
    player: int
    pos: int
    value: int
    initial: bool


@dataclass(frozen=True, slots=True)
class TurnBegan(Event):
    TYPE: ClassVar[str] = "turn_began"
    player: int
    last_turn: bool  # the round was closed: this is the player's final turn


@dataclass(frozen=True, slots=True)
class DiscardTaken(Event):
    TYPE: ClassVar[str] = "discard_taken"
    player: int
    value: int


@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    """The drawer sees the card and so does the whole table."""

    TYPE: ClassVar[str] = "card_drawn"
    player: int
    value: int


@dataclass(frozen=True, slots=True)
class CardExchanged(Event):
    """``value`` went into the tableau at ``pos``; ``replaced`` went onto the discard."""

    TYPE: ClassVar[str] = "card_exchanged"
    player: int
    pos: int
    value: int
    replaced: int
    replaced_was_face_up: bool


@dataclass(frozen=True, slots=True)
class DrawnCardDiscarded(Event):
    TYPE: ClassVar[str] = "drawn_card_discarded"
    player: int
    value: int


@dataclass(frozen=True, slots=True)
class ColumnRemoved(Event):
    """Three equal face-up cards: the column leaves the tableau."""

    TYPE: ClassVar[str] = "column_removed"
    player: int
    column: int
    value: int
    at_final_reveal: bool


@dataclass(frozen=True, slots=True)
class PileReshuffled(Event):
    """The discards but the top one became the new draw pile.

    ``order`` (top first) is secret: only records keep it.
    """

    TYPE: ClassVar[str] = "pile_reshuffled"
    pile_size: int
    order: tuple[int, ...] | None = field(default=None)


@dataclass(frozen=True, slots=True)
class RoundClosed(Event):
    """``player`` has no face-down card left: everyone else plays one more turn."""

    TYPE: ClassVar[str] = "round_closed"
    player: int


@dataclass(frozen=True, slots=True)
class CardRevealed(Event):
    """A face-down card turned up by the final reveal."""

    TYPE: ClassVar[str] = "card_revealed"
    player: int
    pos: int
    value: int


@dataclass(frozen=True, slots=True)
class RoundScored(Event):
    TYPE: ClassVar[str] = "round_scored"
    raw_scores: tuple[int, ...]
    final_scores: tuple[int, ...]  # after the closer's penalty
    closer: int
    closer_doubled: bool


@dataclass(frozen=True, slots=True)
class TotalsUpdated(Event):
    TYPE: ClassVar[str] = "totals_updated"
    round: int
    totals: tuple[int, ...]
    game_over: bool
    winners: tuple[int, ...]  # empty until the game is over


EVENT_TYPES: dict[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (
        RoundStarted,
        CardFlipped,
        TurnBegan,
        DiscardTaken,
        CardDrawn,
        CardExchanged,
        DrawnCardDiscarded,
        ColumnRemoved,
        PileReshuffled,
        RoundClosed,
        CardRevealed,
        RoundScored,
        TotalsUpdated,
    )
}


def event_from_dict(data: dict[str, Any]) -> Event:
    try:
        cls = EVENT_TYPES[data["type"]]
        values = {
            f.name: tuple(data[f.name]) if isinstance(data.get(f.name), list) else data[f.name]
            for f in fields(cls)
            if f.name in data or f.default is not None
        }
        return cls(**values)
    except (KeyError, TypeError) as exc:
        raise InvalidSetup(f"not an event: {data!r}") from exc
