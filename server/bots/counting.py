"""Card counting from what a seat may see: public events and its own view.

The deck's composition is public, and so is every card that has ever been
face up: the cards face up on the tableaux (read from the view), the discard
pile (followed event by event: only its top is in the view) and the card in
the current player's hand. Whatever is left is *unseen*: the face-down cards
of every tableau and the draw pile. After a reshuffle the draw pile is exactly
the old discards, so its composition is known apart from the unseen cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from server.engine import DECK_COMPOSITION, Event, PlayerView
from server.engine.events import (
    CardDrawn,
    CardExchanged,
    ColumnRemoved,
    DiscardTaken,
    DrawnCardDiscarded,
    PileReshuffled,
    RoundStarted,
    TurnBegan,
)

LOWEST = min(DECK_COMPOSITION)
VALUES: tuple[int, ...] = tuple(sorted(DECK_COMPOSITION))  # -2 .. 12
#: Counts are lists indexed by ``value - LOWEST``.
Counts = list[int]


def full_deck() -> Counts:
    return [DECK_COMPOSITION[v] for v in VALUES]


def counts_of(cards: Sequence[int]) -> Counts:
    counts = [0] * len(VALUES)
    for card in cards:
        counts[card - LOWEST] += 1
    return counts


class CardCounter:
    """Follows the discard pile and the reshuffled pile of the current round."""

    def __init__(self) -> None:
        self.round = 0
        self.discards: list[int] = []  # bottom first; the top is discards[-1]
        self.known_pile: Counts | None = None  # the pile's cards after a reshuffle
        self.turns = 0  # turns begun in this round, everyone's

    def observe(self, events: Sequence[Event]) -> None:
        for event in events:
            self._follow(event)

    def _follow(self, event: Event) -> None:
        if isinstance(event, RoundStarted):
            self.round, self.discards, self.known_pile = event.round, [event.discard_top], None
            self.turns = 0
        elif isinstance(event, TurnBegan):
            self.turns += 1
        elif isinstance(event, DiscardTaken):
            if self.discards:
                self.discards.pop()
        elif isinstance(event, CardExchanged):
            self.discards.append(event.replaced)
        elif isinstance(event, DrawnCardDiscarded):
            self.discards.append(event.value)
        elif isinstance(event, ColumnRemoved) and not event.at_final_reveal:
            self.discards.extend([event.value] * 3)
        elif isinstance(event, PileReshuffled):
            self.known_pile = counts_of(self.discards[:-1])
            self.discards = self.discards[-1:]
        elif isinstance(event, CardDrawn) and self.known_pile is not None:
            index = event.value - LOWEST
            self.known_pile[index] = max(0, self.known_pile[index] - 1)

    def sync(self, view: PlayerView) -> None:
        """Start afresh from the view when events were missed (e.g. a bot seated mid-round)."""
        if view.round != self.round or not self.discards or self.discards[-1] != view.discard_top:
            self.round, self.discards, self.known_pile = view.round, [view.discard_top], None

    def remembered(self) -> list[int]:
        """The discards this counter takes into account (all of them)."""
        return self.discards

    def unseen(self, view: PlayerView) -> Counts:
        """What a face-down card may be: the deck less every card seen and still in play."""
        counts = full_deck()
        seen: list[int] = [c for t in view.tableaux for c in t.cards if c is not None]
        seen.extend(self.remembered())
        if view.drawn_card is not None:
            seen.append(view.drawn_card)
        for card in seen:
            counts[card - LOWEST] -= 1
        if self.known_pile is not None:
            counts = [c - k for c, k in zip(counts, self.known_pile, strict=True)]
        return [max(0, c) for c in counts]

    def draw_pile(self, view: PlayerView, unseen: Counts) -> Counts:
        """What the next drawn card may be."""
        if view.pile_size == 0:  # the next draw reshuffles the discards below the top
            return counts_of(self.discards[:-1]) if len(self.discards) > 1 else unseen
        if self.known_pile is not None and sum(self.known_pile) > 0:
            return self.known_pile
        return unseen
