"""One round of Skyjo: the deal, the initial flips, the turns, the final reveal.

A ``Round`` is a mutable state machine in the OpenSpiel style: ask it for the
``phase``, the ``current_player`` and the ``legal_actions``; ``apply`` an
action and get back the events it caused. ``apply`` checks legality before it
touches anything, so an illegal action raises ``IllegalAction`` and changes
nothing. Chance is explicit: the deal is an input, and the order of a
reshuffled pile comes from a seeded generator or from a list given up front
(replays).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .actions import POSITIONAL, Action, ActionKind
from .cards import COLUMNS, DECK, ROWS, TABLEAU_SIZE, is_deck_multiset
from .errors import IllegalAction, InvalidSetup
from .events import (
    CardDrawn,
    CardExchanged,
    CardFlipped,
    CardRevealed,
    ColumnRemoved,
    DiscardTaken,
    DrawnCardDiscarded,
    Event,
    PileReshuffled,
    RoundClosed,
    RoundScored,
    RoundStarted,
    TurnBegan,
)
from .settings import MAX_PLAYERS, MIN_PLAYERS, Settings, Starter

INITIAL_FLIPS = 2


class Phase(str, Enum):
    INITIAL_FLIPS = "initial_flips"  # everyone turns up two cards, at the same time
    CHOOSE = "choose"  # the current player draws or takes the discard
    DRAWN = "drawn"  # the current player holds a drawn card: swap it or discard it
    ROUND_OVER = "round_over"


@dataclass(frozen=True, slots=True)
class Deal:
    """A round's chance outcome: every card's place before the first flip."""

    tableaux: tuple[tuple[int, ...], ...]  # per player, 12 cards, pos = column*3 + row
    discard: int  # the first discard, turned up from the pile
    pile: tuple[int, ...]  # the draw pile, top first

    @classmethod
    def shuffled(cls, players: int, rng: random.Random) -> Deal:
        cards = list(DECK)
        rng.shuffle(cards)
        tableaux = tuple(
            tuple(cards[i * TABLEAU_SIZE : (i + 1) * TABLEAU_SIZE]) for i in range(players)
        )
        rest = cards[players * TABLEAU_SIZE :]
        return cls(tableaux, rest[0], tuple(rest[1:]))

    def validate(self) -> None:
        if not MIN_PLAYERS <= len(self.tableaux) <= MAX_PLAYERS:
            raise InvalidSetup(f"a deal is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
        if any(len(t) != TABLEAU_SIZE for t in self.tableaux):
            raise InvalidSetup("each tableau holds 12 cards")
        everything = [c for t in self.tableaux for c in t] + [self.discard, *self.pile]
        if not is_deck_multiset(everything):
            raise InvalidSetup("a deal must use exactly the 150 cards of the deck")

    def to_dict(self) -> dict[str, Any]:
        return {
            "tableaux": [list(t) for t in self.tableaux],
            "discard": self.discard,
            "pile": list(self.pile),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Deal:
        try:
            deal = cls(
                tuple(tuple(t) for t in data["tableaux"]), data["discard"], tuple(data["pile"])
            )
        except (KeyError, TypeError) as exc:
            raise InvalidSetup(f"not a deal: {exc}") from exc
        deal.validate()
        return deal


class Round:
    """The state of one round. Seats are numbered 0..n-1 in play order."""

    def __init__(
        self,
        deal: Deal,
        settings: Settings = Settings(),
        *,
        number: int = 1,
        previous_closer: int | None = None,
        reshuffle_seed: str = "",
    ) -> None:
        deal.validate()
        self.settings = settings
        self.number = number
        self.previous_closer = previous_closer
        self.deal = deal
        players = len(deal.tableaux)
        self.players = players
        self.cards: list[list[int]] = [list(t) for t in deal.tableaux]
        self.face_up: list[list[bool]] = [[False] * TABLEAU_SIZE for _ in range(players)]
        self.removed: list[list[bool]] = [[False] * COLUMNS for _ in range(players)]
        self.face_down_count = [TABLEAU_SIZE] * players
        self.initial_flips = [0] * players
        # Piles keep their top at the end of the list, so a draw is a pop().
        self.pile: list[int] = list(reversed(deal.pile))
        self.discard: list[int] = [deal.discard]
        self.out_of_play: list[int] = []  # columns removed by the final reveal
        self.phase = Phase.INITIAL_FLIPS
        self.current: int | None = None
        self.starter: int | None = None
        self.drawn: int | None = None
        self.closer: int | None = None
        self.turns_left_after_close = 0
        self.raw_scores: tuple[int, ...] | None = None
        self.final_scores: tuple[int, ...] | None = None
        self.reshuffle_seed = reshuffle_seed
        self.reshuffles = 0
        self.forced_reshuffles: list[tuple[int, ...]] = []

    # -- queries --------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.ROUND_OVER

    @property
    def discard_top(self) -> int:
        return self.discard[-1]

    def is_live(self, player: int, pos: int) -> bool:
        """True when ``pos`` is still on the table (its column not removed)."""
        return not self.removed[player][pos // ROWS]

    def pending_flippers(self) -> list[int]:
        """Players who still owe initial flips."""
        if self.phase is not Phase.INITIAL_FLIPS:
            return []
        return [p for p in range(self.players) if self.initial_flips[p] < INITIAL_FLIPS]

    def visible_score(self, player: int) -> int:
        """The sum of the player's face-up cards still on the table."""
        cards, up, removed = self.cards[player], self.face_up[player], self.removed[player]
        return sum(cards[i] for i in range(TABLEAU_SIZE) if up[i] and not removed[i // ROWS])

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """The legal actions of ``player`` (default: the player whose turn it is)."""
        if player is None:
            player = self.current
        if player is None or not 0 <= player < self.players:
            return []
        phase = self.phase
        if phase is Phase.INITIAL_FLIPS:
            if self.initial_flips[player] >= INITIAL_FLIPS:
                return []
            return [Action.flip(player, p) for p in self._face_down(player)]
        if player != self.current:
            return []
        live = [p for p in range(TABLEAU_SIZE) if self.is_live(player, p)]
        if phase is Phase.CHOOSE:
            return [Action.draw(player)] + [Action.take_discard(player, p) for p in live]
        if phase is Phase.DRAWN:
            return [Action.swap_drawn(player, p) for p in live] + [
                Action.discard_and_flip(player, p) for p in self._face_down(player)
            ]
        return []

    def check(self, action: Action) -> None:
        """Raise ``IllegalAction`` with the reason when ``action`` is not legal now."""
        reason = self._illegal_reason(action)
        if reason:
            raise IllegalAction(f"{action}: {reason}")

    def is_legal(self, action: Action) -> bool:
        return self._illegal_reason(action) is None

    # -- the transition -------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Play ``action`` and return the events it caused, in order."""
        self.check(action)
        kind = action.kind
        if kind is ActionKind.FLIP:
            return self._initial_flip(action.player, action.pos)  # type: ignore[arg-type]
        if kind is ActionKind.DRAW:
            return self._draw(action.player)
        if kind is ActionKind.TAKE_DISCARD:
            value = self.discard.pop()
            events: list[Event] = [DiscardTaken(action.player, value)]
            return self._exchange(action.player, action.pos, value, events)  # type: ignore[arg-type]
        drawn = self.drawn
        assert drawn is not None
        self.drawn = None
        if kind is ActionKind.SWAP_DRAWN:
            return self._exchange(action.player, action.pos, drawn, [])  # type: ignore[arg-type]
        self.discard.append(drawn)
        events = [DrawnCardDiscarded(action.player, drawn)]
        return self._turn_up(action.player, action.pos, events)  # type: ignore[arg-type]

    def force_next_reshuffles(self, *orders: tuple[int, ...] | list[int]) -> None:
        """Make the next reshuffles produce these piles (top first), for replays."""
        self.forced_reshuffles.extend(tuple(order) for order in orders)

    def start_event(self) -> RoundStarted:
        return RoundStarted(self.number, self.deal.discard, len(self.deal.pile))

    # -- internals ------------------------------------------------------------

    def _face_down(self, player: int) -> list[int]:
        up = self.face_up[player]
        return [p for p in range(TABLEAU_SIZE) if not up[p] and self.is_live(player, p)]

    def _illegal_reason(self, action: Action) -> str | None:
        player, kind, pos = action.player, action.kind, action.pos
        if not 0 <= player < self.players:
            return "no such seat"
        if (pos is None) == (kind in POSITIONAL):
            return "this move needs a position" if pos is None else "this move takes no position"
        if self.phase is Phase.ROUND_OVER:
            return "the round is over"
        if pos is not None and not (0 <= pos < TABLEAU_SIZE and self.is_live(player, pos)):
            return "no card at that position"
        if self.phase is Phase.INITIAL_FLIPS:
            if kind is not ActionKind.FLIP:
                return "every player must first turn up two cards"
            if self.initial_flips[player] >= INITIAL_FLIPS:
                return "you have already turned up your two cards"
            return "that card is already face up" if self.face_up[player][pos] else None  # type: ignore[index]
        if player != self.current:
            return "it is not your turn"
        if self.phase is Phase.CHOOSE:
            if kind not in (ActionKind.DRAW, ActionKind.TAKE_DISCARD):
                return "draw a card or take the discard first"
            return None
        if kind is ActionKind.SWAP_DRAWN:
            return None
        if kind is ActionKind.DISCARD_AND_FLIP:
            return "that card is already face up" if self.face_up[player][pos] else None  # type: ignore[index]
        return "you hold a drawn card: exchange it or discard it"

    def _initial_flip(self, player: int, pos: int) -> list[Event]:
        self._reveal(player, pos)
        self.initial_flips[player] += 1
        events: list[Event] = [CardFlipped(player, pos, self.cards[player][pos], True)]
        if not self.pending_flippers():
            self.starter = self._choose_starter()
            events.append(self._begin_turn(self.starter))
        return events

    def _choose_starter(self) -> int:
        if self.settings.starter is Starter.CLOSER_STARTS and self.previous_closer is not None:
            return self.previous_closer
        sums = [self.visible_score(p) for p in range(self.players)]
        return sums.index(max(sums))  # index() finds the first in seat order: the tie-break

    def _draw(self, player: int) -> list[Event]:
        events: list[Event] = []
        if not self.pile:
            events.append(self._reshuffle())
        self.drawn = self.pile.pop()
        self.phase = Phase.DRAWN
        events.append(CardDrawn(player, self.drawn))
        return events

    def _reshuffle(self) -> PileReshuffled:
        kept = self.discard.pop()
        if self.forced_reshuffles:
            order = self.forced_reshuffles.pop(0)
            if sorted(order) != sorted(self.discard):
                raise InvalidSetup("a given reshuffle must hold exactly the discarded cards")
        else:
            cards = sorted(self.discard)
            random.Random(f"{self.reshuffle_seed}/{self.number}/{self.reshuffles}").shuffle(cards)
            order = tuple(cards)
        self.reshuffles += 1
        self.pile = list(reversed(order))
        self.discard = [kept]
        return PileReshuffled(len(order), tuple(order))

    def _exchange(self, player: int, pos: int, value: int, events: list[Event]) -> list[Event]:
        replaced = self.cards[player][pos]
        was_up = self.face_up[player][pos]
        self.cards[player][pos] = value
        if not was_up:
            self._reveal(player, pos)
        self.discard.append(replaced)
        events.append(CardExchanged(player, pos, value, replaced, was_up))
        return self._end_turn(player, pos, events)

    def _turn_up(self, player: int, pos: int, events: list[Event]) -> list[Event]:
        self._reveal(player, pos)
        events.append(CardFlipped(player, pos, self.cards[player][pos], False))
        return self._end_turn(player, pos, events)

    def _reveal(self, player: int, pos: int) -> None:
        self.face_up[player][pos] = True
        self.face_down_count[player] -= 1

    def _complete_column(self, player: int, column: int) -> int | None:
        """The shared value when ``column`` holds three equal face-up cards."""
        if not self.settings.clear_columns or self.removed[player][column]:
            return None
        base = column * ROWS
        up, cards = self.face_up[player], self.cards[player]
        if up[base] and up[base + 1] and up[base + 2]:
            if cards[base] == cards[base + 1] == cards[base + 2]:
                return cards[base]
        return None

    def _remove_column(self, player: int, column: int, value: int, at_reveal: bool) -> Event:
        self.removed[player][column] = True
        (self.out_of_play if at_reveal else self.discard).extend([value] * ROWS)
        return ColumnRemoved(player, column, value, at_reveal)

    def _end_turn(self, player: int, pos: int, events: list[Event]) -> list[Event]:
        column = pos // ROWS
        value = self._complete_column(player, column)
        if value is not None:
            events.append(self._remove_column(player, column, value, False))
        if self.closer is None:
            if self.face_down_count[player] == 0:
                self.closer = player
                self.turns_left_after_close = self.players - 1
                events.append(RoundClosed(player))
        else:
            self.turns_left_after_close -= 1
        if self.closer is not None and self.turns_left_after_close == 0:
            return self._finish(events)
        events.append(self._begin_turn((player + 1) % self.players))
        return events

    def _begin_turn(self, player: int) -> TurnBegan:
        self.current = player
        self.phase = Phase.CHOOSE
        return TurnBegan(player, self.closer is not None)

    def _finish(self, events: list[Event]) -> list[Event]:
        """The final reveal, its columns of three, and the scores."""
        self.phase = Phase.ROUND_OVER
        self.current = None
        for player in range(self.players):
            for pos in self._face_down(player):
                self._reveal(player, pos)
                events.append(CardRevealed(player, pos, self.cards[player][pos]))
            for column in range(COLUMNS):
                value = self._complete_column(player, column)
                if value is not None:
                    events.append(self._remove_column(player, column, value, True))
        raw = tuple(self.visible_score(p) for p in range(self.players))
        assert self.closer is not None
        final, doubled = closer_penalty(raw, self.closer, self.settings)
        self.raw_scores, self.final_scores = raw, final
        events.append(RoundScored(raw, final, self.closer, doubled))
        return events


def closer_penalty(
    raw: tuple[int, ...], closer: int, settings: Settings
) -> tuple[tuple[int, ...], bool]:
    """Double the closer's positive score unless it is strictly the lowest."""
    mine = raw[closer]
    strictly_lowest = all(mine < score for p, score in enumerate(raw) if p != closer)
    if not settings.closer_penalty or strictly_lowest or mine <= 0:
        return raw, False
    return raw[:closer] + (mine * 2,) + raw[closer + 1 :], True
