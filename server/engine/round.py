"""One round of Skyjo: the deal, the initial flips, the turns, the final reveal.

A ``Round`` is a mutable state machine in the OpenSpiel style: ask it for the
``phase``, the ``current_player`` and the ``legal_actions``; ``apply`` an
action and get back the events it caused. ``apply`` checks legality before it
touches anything, so an illegal action raises ``IllegalAction`` and changes
nothing. Chance is explicit: the deal is an input, and the order of a
reshuffled pile comes from a seeded generator or from a list given up front
(replays).

Search plays the same rules on the fast path: ``moves()`` lists the legal
actions of the seat to act and ``play`` makes one without checking it and
without building events. Both paths run the same transition (``play``): ``apply``
checks the action first and hands it a list to record events in.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import TypeVar

from .actions import MOVES, Action, ActionKind, LiveMoves, describe, live_moves, malformed
from .cards import COLUMNS, ROWS, TABLEAU_SIZE, positions_of_column
from .deal import Deal
from .errors import EngineError, IllegalAction, InvalidSetup
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
from .position import INITIAL_FLIPS, Phase, Position
from .settings import Settings, Starter

ALL_POSITIONS = tuple(range(TABLEAU_SIZE))

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

#: Where a transition records its events: a list on the full path, None on the fast one.
Sink = list[Event] | None


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
        self._load(Position.dealt(deal, previous_closer), settings, number, reshuffle_seed)
        self._deal: Deal | None = deal

    @classmethod
    def from_position(
        cls,
        position: Position,
        settings: Settings = Settings(),
        *,
        check: bool = True,
        number: int = 1,
        reshuffle_seed: str = "",
    ) -> Round:
        """A round in the state ``position`` describes (a search's sampled deal).

        ``check=False`` skips ``position.check()`` for positions the caller built
        consistent (a search's own samples, thousands a decision).
        """
        if check:
            position.check()
        round_ = cls.__new__(cls)
        round_._load(position, settings, number, reshuffle_seed)  # noqa: SLF001 - its own class, for a round built without __init__
        round_._deal = None  # noqa: SLF001 - its own class, for a round built without __init__
        return round_

    def _load(
        self, position: Position, settings: Settings, number: int, reshuffle_seed: str
    ) -> None:
        self.settings = settings
        self.number = number
        self.previous_closer = position.previous_closer
        players = len(position.tableaux)
        self.players = players
        self.cards: list[list[int]] = [list(t) for t in position.tableaux]
        self.face_up: list[list[bool]] = [list(up) for up in position.face_up]
        tables = [_columns_left(gone) for gone in position.removed_columns]
        self.removed: list[list[bool]] = [list(removed) for removed, _ in tables]
        # The positions still on the table and the moves they allow, kept up to
        # date as columns leave: legal-action lists are built on every move.
        self.live_positions: list[tuple[int, ...]] = [live for _, live in tables]
        self._live_moves: list[LiveMoves] = [
            live_moves(p, self.live_positions[p]) for p in range(players)
        ]
        self.face_down_count = [
            TABLEAU_SIZE - sum(up) if live is ALL_POSITIONS else sum(not up[p] for p in live)
            for up, live in zip(self.face_up, self.live_positions, strict=True)
        ]
        self.phase = position.phase
        flipping = self.phase is _FLIPPING
        self.initial_flips = [sum(up) if flipping else INITIAL_FLIPS for up in self.face_up]
        # Piles keep their top at the end of the list, so a draw is a pop().
        self.pile: list[int] = list(reversed(position.pile))
        self.discard: list[int] = list(position.discard)
        self.out_of_play: list[int] = []  # columns removed by the final reveal
        self.current: int | None = position.current
        self.starter: int | None = None
        self.drawn: int | None = position.drawn
        self.closer: int | None = position.closer
        # Seats yet to finish their last turn (the current one included).
        self.turns_left_after_close = (
            0
            if self.closer is None or self.current is None
            else (self.closer - self.current) % players
        )
        self.raw_scores: tuple[int, ...] | None = None
        self.final_scores: tuple[int, ...] | None = None
        self.reshuffle_seed = reshuffle_seed
        self.reshuffles = 0
        self.forced_reshuffles: list[tuple[int, ...]] = []

    # -- queries --------------------------------------------------------------

    @property
    def deal(self) -> Deal:
        """The deal this round started from (a round built from a position has none)."""
        if self._deal is None:
            raise EngineError("a round built from a position has no deal")
        return self._deal

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

    def actor(self) -> int | None:
        """The seat to act: the current player, or the first seat still owing flips."""
        if self.phase is not _FLIPPING:
            return self.current
        flips = self.initial_flips
        return next(p for p in range(self.players) if flips[p] < INITIAL_FLIPS)

    def visible_score(self, player: int) -> int:
        """The sum of the player's face-up cards still on the table."""
        cards, up, removed = self.cards[player], self.face_up[player], self.removed[player]
        return sum(cards[i] for i in range(TABLEAU_SIZE) if up[i] and not removed[i // ROWS])

    def position(self) -> Position:
        """This round's state as a ``Position`` (every card known: it is secret)."""
        if self.phase is _OVER:
            raise EngineError("a position is a round in progress: this one is over")
        return Position(
            tuple(tuple(cards) for cards in self.cards),
            tuple(tuple(up) for up in self.face_up),
            tuple(tuple(c for c in range(COLUMNS) if gone[c]) for gone in self.removed),
            tuple(self.discard),
            tuple(reversed(self.pile)),
            self.phase,
            self.current,
            self.drawn,
            self.closer,
            self.previous_closer,
        )

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
            return self._flips(player)
        if player != self.current:
            return []
        if phase is _CHOOSING:
            return list(self._live_moves[player].choose)
        if phase is _HOLDING:
            return self._placements(player)
        return []

    def moves(self) -> Sequence[Action]:
        """The fast path's legal actions: those of ``actor()``, empty once the round is over.

        The sequence may be shared with later calls: read it, do not change it.
        """
        phase = self.phase
        if phase is _CHOOSING:
            return self._live_moves[self.current].choose  # type: ignore[index]  # a seat plays
        if phase is _HOLDING:
            return self._placements(self.current)  # type: ignore[arg-type]  # a seat plays
        if phase is _FLIPPING:
            return self._flips(self.actor())  # type: ignore[arg-type]  # someone owes flips
        return ()

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
        reason = self._illegal_reason(action)  # check() inlined: a call less on every move
        if reason is not None:
            raise IllegalAction(f"{describe(action)}: {reason}")
        events: list[Event] = []
        self.play(action, events)
        return events

    def play(self, action: Action, events: Sink = None) -> None:
        """The fast path: play ``action``, one of ``moves()``, unchecked; events only into ``events``.

        This is the one transition of both paths: ``apply`` checks the action and
        passes a list for the events. An action that is not legal now leaves the
        round in no defined state: the fast path is for search, which plays only
        the moves it was given.
        """
        kind, player, pos = action.kind, action.player, action.pos
        if kind is _DRAW:
            self._draw(player, events)
            return
        assert pos is not None  # every other kind names a position
        if kind is _TAKE:
            value = self.discard.pop()
            if events is not None:
                events.append(DiscardTaken(player, value))
            self._exchange(player, pos, value, events)
        elif kind is _FLIP:
            self._initial_flip(player, pos, events)
        else:
            drawn = self.drawn
            assert drawn is not None
            self.drawn = None
            if kind is _SWAP:
                self._exchange(player, pos, drawn, events)
            else:
                self.discard.append(drawn)
                if events is not None:
                    events.append(DrawnCardDiscarded(player, drawn))
                self._turn_up(player, pos, events)

    def force_next_reshuffles(self, *orders: tuple[int, ...] | list[int]) -> None:
        """Make the next reshuffles produce these piles (top first), for replays."""
        self.forced_reshuffles.extend(tuple(order) for order in orders)

    def start_event(self) -> RoundStarted:
        return RoundStarted(self.number, self.deal.discard, len(self.deal.pile))

    # -- internals ------------------------------------------------------------

    def _face_down(self, player: int) -> list[int]:
        up = self.face_up[player]
        return [p for p in self.live_positions[player] if not up[p]]

    def _flips(self, player: int) -> list[Action]:
        flip = MOVES[player].flip
        return [flip[p] for p in self._face_down(player)]

    def _placements(self, player: int) -> list[Action]:
        """What the holder of a drawn card may do: swap it anywhere, or discard it and flip."""
        discard_and_flip = MOVES[player].discard_and_flip
        up = self.face_up[player]
        live = self.live_positions[player]
        return [
            *self._live_moves[player].swap_drawn,
            *[discard_and_flip[p] for p in live if not up[p]],
        ]

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

    def _initial_flip(self, player: int, pos: int, events: Sink) -> None:
        self._reveal(player, pos)
        self.initial_flips[player] += 1
        if events is not None:
            events.append(CardFlipped(player, pos, self.cards[player][pos], True))
        if min(self.initial_flips) >= INITIAL_FLIPS:
            self.starter = self._choose_starter()
            self._begin_turn(self.starter, events)

    def _choose_starter(self) -> int:
        if self.settings.starter is Starter.CLOSER_STARTS and self.previous_closer is not None:
            return self.previous_closer
        sums = [self.visible_score(p) for p in range(self.players)]
        return sums.index(max(sums))  # index() finds the first in seat order: the tie-break

    def _draw(self, player: int, events: Sink) -> None:
        if not self.pile:
            self._reshuffle(events)
        self.drawn = drawn = self.pile.pop()
        self.phase = _HOLDING
        if events is not None:
            events.append(CardDrawn(player, drawn))

    def _reshuffle(self, events: Sink) -> None:
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
        if events is not None:
            events.append(PileReshuffled(len(order), tuple(order)))

    def _exchange(self, player: int, pos: int, value: int, events: Sink) -> None:
        cards = self.cards[player]
        replaced = cards[pos]
        cards[pos] = value
        was_up = self.face_up[player][pos]
        if not was_up:
            self._reveal(player, pos)
        self.discard.append(replaced)
        if events is not None:
            events.append(CardExchanged(player, pos, value, replaced, was_up))
        self._end_turn(player, pos, events)

    def _turn_up(self, player: int, pos: int, events: Sink) -> None:
        self._reveal(player, pos)
        if events is not None:
            events.append(CardFlipped(player, pos, self.cards[player][pos], False))
        self._end_turn(player, pos, events)

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

    def _remove_column(
        self, player: int, column: int, value: int, at_reveal: bool, events: Sink
    ) -> None:
        self.removed[player][column] = True
        gone = positions_of_column(column)
        live = tuple(p for p in self.live_positions[player] if p not in gone)
        self.live_positions[player] = live
        self._live_moves[player] = live_moves(player, live)
        (self.out_of_play if at_reveal else self.discard).extend([value] * ROWS)
        if events is not None:
            events.append(ColumnRemoved(player, column, value, at_reveal))

    def _end_turn(self, player: int, pos: int, events: Sink) -> None:
        column = pos // ROWS
        value = self._complete_column(player, column)
        if value is not None:
            self._remove_column(player, column, value, False, events)
        if self.closer is not None:
            self.turns_left_after_close -= 1
            if self.turns_left_after_close == 0:
                self._finish(events)
                return
        elif self.face_down_count[player] == 0:
            self.closer = player
            self.turns_left_after_close = self.players - 1
            if events is not None:
                events.append(RoundClosed(player))
        self._begin_turn((player + 1) % self.players, events)

    def _begin_turn(self, player: int, events: Sink) -> None:
        self.current = player
        self.phase = _CHOOSING
        if events is not None:
            events.append(TurnBegan(player, self.closer is not None))

    def _finish(self, events: Sink) -> None:
        """The final reveal, its columns of three, and the scores."""
        self.phase = _OVER
        self.current = None
        for player in range(self.players):
            for pos in self._face_down(player):
                self._reveal(player, pos)
                if events is not None:
                    events.append(CardRevealed(player, pos, self.cards[player][pos]))
            for column in range(COLUMNS):
                value = self._complete_column(player, column)
                if value is not None:
                    self._remove_column(player, column, value, True, events)
        raw = tuple(self.visible_score(p) for p in range(self.players))
        assert self.closer is not None
        final, doubled = closer_penalty(raw, self.closer, self.settings)
        self.raw_scores, self.final_scores = raw, final
        if events is not None:
            events.append(RoundScored(raw, final, self.closer, doubled))


@cache  # 16 sets of removed columns
def _columns_left(gone: tuple[int, ...]) -> tuple[tuple[bool, ...], tuple[int, ...]]:
    """Per column whether it is removed, and the positions left on the table."""
    removed = tuple(column in gone for column in range(COLUMNS))
    if not any(removed):
        return removed, ALL_POSITIONS
    return removed, tuple(pos for pos in ALL_POSITIONS if not removed[pos // ROWS])


#: A score: exact (``int``) at a round's end, or a bot's estimate (``float``) of one.
Score = TypeVar("Score", int, float)


def closer_penalty(
    raw: tuple[Score, ...], closer: int, settings: Settings
) -> tuple[tuple[Score, ...], bool]:
    """Double the closer's positive score unless it is strictly the lowest."""
    mine = raw[closer]
    strictly_lowest = all(mine < score for p, score in enumerate(raw) if p != closer)
    if not settings.closer_penalty or strictly_lowest or mine <= 0:
        return raw, False
    doubled = list(raw)
    doubled[closer] = mine * 2
    return tuple(doubled), True
