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
from enum import Enum

from .actions import MOVES, Action, ActionKind, LiveMoves, describe, live_moves, malformed
from .cards import COLUMNS, ROWS, TABLEAU_SIZE, positions_of_column
from .deal import Deal
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
from .settings import Settings, Starter

INITIAL_FLIPS = 2
ALL_POSITIONS = tuple(range(TABLEAU_SIZE))


class Phase(str, Enum):
    INITIAL_FLIPS = "initial_flips"  # everyone turns up two cards, at the same time
    CHOOSE = "choose"  # the current player draws or takes the discard
    DRAWN = "drawn"  # the current player holds a drawn card: swap it or discard it
    ROUND_OVER = "round_over"


# Naming an enum member (Phase.CHOOSE) costs a metaclass attribute lookup, about
# 60 ns on Python 3.11, and every move names several: the per-move code below
# compares with these module-level aliases instead.
_FLIPPING, _CHOOSING, _HOLDING, _OVER = (
    Phase.INITIAL_FLIPS,
    Phase.CHOOSE,
    Phase.DRAWN,
    Phase.ROUND_OVER,
)
_FLIP, _TAKE, _DRAW, _SWAP, _DISCARD_FLIP = (
    ActionKind.FLIP,
    ActionKind.TAKE_DISCARD,
    ActionKind.DRAW,
    ActionKind.SWAP_DRAWN,
    ActionKind.DISCARD_AND_FLIP,
)


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
        # The positions still on the table and the moves they allow, kept up to
        # date as columns leave: legal-action lists are built on every move.
        self.live_positions: list[tuple[int, ...]] = [ALL_POSITIONS] * players
        self._live_moves: list[LiveMoves] = [live_moves(p, ALL_POSITIONS) for p in range(players)]
        self.face_down_count = [TABLEAU_SIZE] * players
        self.initial_flips = [0] * players
        # Piles keep their top at the end of the list, so a draw is a pop().
        self.pile: list[int] = list(reversed(deal.pile))
        self.discard: list[int] = [deal.discard]
        self.out_of_play: list[int] = []  # columns removed by the final reveal
        self.phase = _FLIPPING
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
        return self.phase is _OVER

    @property
    def discard_top(self) -> int:
        return self.discard[-1]

    def is_live(self, player: int, pos: int) -> bool:
        """True when ``pos`` is still on the table (its column not removed)."""
        return not self.removed[player][pos // ROWS]

    def pending_flippers(self) -> list[int]:
        """Players who still owe initial flips."""
        if self.phase is not _FLIPPING:
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
        if type(player) is not int or not 0 <= player < self.players:
            return []
        phase = self.phase
        if phase is _FLIPPING:
            if self.initial_flips[player] >= INITIAL_FLIPS:
                return []
            flip = MOVES[player].flip
            return [flip[p] for p in self._face_down(player)]
        if player != self.current:
            return []
        if phase is _CHOOSING:
            return list(self._live_moves[player].choose)
        if phase is _HOLDING:
            discard_and_flip = MOVES[player].discard_and_flip
            return [
                *self._live_moves[player].swap_drawn,
                *[discard_and_flip[p] for p in self._face_down(player)],
            ]
        return []

    def check(self, action: Action) -> None:
        """Raise ``IllegalAction`` with the reason when ``action`` is not legal now."""
        reason = self._illegal_reason(action)
        if reason is not None:
            raise IllegalAction(f"{describe(action)}: {reason}")

    def is_legal(self, action: Action) -> bool:
        return self._illegal_reason(action) is None

    # -- the transition -------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Play ``action`` and return the events it caused, in order."""
        reason = self._illegal_reason(action)
        if reason is not None:
            raise IllegalAction(f"{describe(action)}: {reason}")
        kind, player, pos = action.kind, action.player, action.pos
        if kind is _DRAW:
            return self._draw(player)
        assert pos is not None  # every other kind names a position
        if kind is _TAKE:
            value = self.discard.pop()
            return self._exchange(player, pos, value, [DiscardTaken(player, value)])
        if kind is _FLIP:
            return self._initial_flip(player, pos)
        drawn = self.drawn
        assert drawn is not None
        self.drawn = None
        if kind is _SWAP:
            return self._exchange(player, pos, drawn, [])
        self.discard.append(drawn)
        return self._turn_up(player, pos, [DrawnCardDiscarded(player, drawn)])

    def force_next_reshuffles(self, *orders: tuple[int, ...] | list[int]) -> None:
        """Make the next reshuffles produce these piles (top first), for replays."""
        self.forced_reshuffles.extend(tuple(order) for order in orders)

    def start_event(self) -> RoundStarted:
        return RoundStarted(self.number, self.deal.discard, len(self.deal.pile))

    # -- internals ------------------------------------------------------------

    def _face_down(self, player: int) -> list[int]:
        up = self.face_up[player]
        return [p for p in self.live_positions[player] if not up[p]]

    def _illegal_reason(self, action: Action) -> str | None:
        """Why ``action`` is not legal now, or None when it is."""
        if action.__class__ is not Action or action.kind.__class__ is not ActionKind:
            shape = malformed(action)  # the usual move skips the call: this runs on every move
            if shape is not None:
                return shape
        player, kind, pos = action.player, action.kind, action.pos
        if type(player) is not int or not 0 <= player < self.players:
            return "no such seat"
        if kind is _DRAW:
            if pos is not None:
                return "this move takes no position"
        elif pos is None:
            return "this move needs a position"
        elif type(pos) is not int or not 0 <= pos < TABLEAU_SIZE:
            return "no card at that position"
        elif self.removed[player][pos // ROWS]:
            return "no card at that position: its column is gone"
        phase = self.phase
        if phase is _FLIPPING:
            if kind is not _FLIP:
                return "every player must first turn up two cards"
            if self.initial_flips[player] >= INITIAL_FLIPS:
                return "you have already turned up your two cards"
            up = self.face_up[player][pos]  # type: ignore[index]  # a position, checked above
            return "that card is already face up" if up else None
        if phase is _OVER:
            return "the round is over"
        if player != self.current:
            return "it is not your turn"
        if phase is _CHOOSING:
            if kind is _TAKE or kind is _DRAW:
                return None
            return "draw a card or take the discard first"
        if kind is _SWAP:
            return None
        if kind is _DISCARD_FLIP:
            up = self.face_up[player][pos]  # type: ignore[index]  # a position, checked above
            return "that card is already face up" if up else None
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
        self.phase = _HOLDING
        events.append(CardDrawn(player, self.drawn))
        return events

    def _reshuffle(self) -> PileReshuffled:
        under_top = self.discard[:-1]
        if self.forced_reshuffles:
            order = self.forced_reshuffles[0]
            if sorted(order) != sorted(under_top):
                # Checked before anything moves, so a bad replay changes nothing.
                raise InvalidSetup("a given reshuffle must hold exactly the discarded cards")
            self.forced_reshuffles.pop(0)
        else:
            cards = sorted(under_top)
            random.Random(f"{self.reshuffle_seed}/{self.number}/{self.reshuffles}").shuffle(cards)
            order = tuple(cards)
        kept = self.discard[-1]
        self.reshuffles += 1
        self.pile = list(reversed(order))
        self.discard = [kept]
        return PileReshuffled(len(order), tuple(order))

    def _exchange(self, player: int, pos: int, value: int, events: list[Event]) -> list[Event]:
        cards = self.cards[player]
        replaced = cards[pos]
        cards[pos] = value
        was_up = self.face_up[player][pos]
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
        if (
            up[base]
            and up[base + 1]
            and up[base + 2]
            and cards[base] == cards[base + 1] == cards[base + 2]
        ):
            return cards[base]
        return None

    def _remove_column(self, player: int, column: int, value: int, at_reveal: bool) -> Event:
        self.removed[player][column] = True
        gone = positions_of_column(column)
        live = tuple(p for p in self.live_positions[player] if p not in gone)
        self.live_positions[player] = live
        self._live_moves[player] = live_moves(player, live)
        (self.out_of_play if at_reveal else self.discard).extend([value] * ROWS)
        return ColumnRemoved(player, column, value, at_reveal)

    def _end_turn(self, player: int, pos: int, events: list[Event]) -> list[Event]:
        column = pos // ROWS
        value = self._complete_column(player, column)
        if value is not None:
            events.append(self._remove_column(player, column, value, False))
        if self.closer is not None:
            self.turns_left_after_close -= 1
            if self.turns_left_after_close == 0:
                return self._finish(events)
        elif self.face_down_count[player] == 0:
            self.closer = player
            self.turns_left_after_close = self.players - 1
            events.append(RoundClosed(player))
        events.append(self._begin_turn((player + 1) % self.players))
        return events

    def _begin_turn(self, player: int) -> TurnBegan:
        self.current = player
        self.phase = _CHOOSING
        return TurnBegan(player, self.closer is not None)

    def _finish(self, events: list[Event]) -> list[Event]:
        """The final reveal, its columns of three, and the scores."""
        self.phase = _OVER
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
    return (*raw[:closer], mine * 2, *raw[closer + 1 :]), True
