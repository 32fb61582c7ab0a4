"""``greedy``: a simple, fair expected-value heuristic.

It estimates its score by counting every face-down card at the deck's mean
value, and plays the move that lowers that estimate the most right now: it
takes the discard when the exchange saves at least ``TAKE_MARGIN`` points,
otherwise it draws, keeps the drawn card where it lowers the estimate most,
and else discards it and turns up a card. The estimate knows two things a
beginner learns in the first game: a column of three equal cards scores
nothing, and a closer who is not the lowest is doubled (so it counts a move
that would close the round while its estimate is not below every opponent's
as doubled, until the round has lasted ``PATIENCE`` of its turns). It neither
counts cards nor looks further than this move, which makes it a fair
yardstick for ``expert``. In two-player self-play it scores about 23 points
a round.
"""

from __future__ import annotations

import random

from server.engine import MEAN_CARD_VALUE, Action, ActionKind, PlayerView, Settings, TableauView
from server.engine.cards import COLUMNS

from .base import Bot

#: Points an exchange must save before greedy takes the discard rather than draw.
TAKE_MARGIN = 2.0
#: Our turns in a round after which greedy stops putting off a doubled close.
PATIENCE = 30

Cards = tuple[int | None, ...]


class GreedyBot(Bot):
    level = "greedy"
    description = (
        "counts face-down cards at the deck's mean and makes the move that lowers "
        "that estimate of its score the most right now."
    )

    def __init__(self, seat: int, seed: int | str = 0, settings: Settings = Settings()) -> None:
        super().__init__(seat, seed, settings)
        self._rng = random.Random(f"greedy-bot/{seed}/{seat}")
        self._turns = 0  # our turns in this round

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal_actions
        kind = legal[0].kind
        if kind is ActionKind.FLIP:
            self._turns = 0
            return self._rng.choice(legal)
        if kind is ActionKind.DRAW:
            self._turns += 1
            return self._take_or_draw(view)
        return self._place_drawn(view)

    def _take_or_draw(self, view: PlayerView) -> Action:
        now = self._estimate(view.tableaux[self.seat])
        pos, after = self._best_exchange(view, view.discard_top)
        if after <= now - TAKE_MARGIN:
            return Action.take_discard(self.seat, pos)
        return Action.draw(self.seat)

    def _place_drawn(self, view: PlayerView) -> Action:
        assert view.drawn_card is not None
        pos, after = self._best_exchange(view, view.drawn_card)
        flips = [a for a in view.legal_actions if a.kind is ActionKind.DISCARD_AND_FLIP]
        if not flips:
            return Action.swap_drawn(self.seat, pos)
        now = self._estimate(view.tableaux[self.seat])
        flipped = now
        if len(flips) == 1:  # turning up the last card closes the round
            flipped = self._with_penalty(now, view)
        if self._turns > PATIENCE:
            # Keep the card only where it helps: no more putting off closing, or a table
            # where nobody wants to close would never end.
            flipped = min(now, flipped)
        if after < flipped:
            return Action.swap_drawn(self.seat, pos)
        return self._rng.choice(flips)

    def _best_exchange(self, view: PlayerView, value: int) -> tuple[int, float]:
        """The position where putting ``value`` leaves the lowest estimate, and that estimate."""
        mine = view.tableaux[self.seat]
        best_pos, best = -1, float("inf")
        for pos in range(len(mine.cards)):
            if pos // 3 in mine.removed_columns:
                continue
            changed = (*mine.cards[:pos], value, *mine.cards[pos + 1 :])
            after = _estimate(changed, mine.removed_columns, self.settings.clear_columns)
            if None not in changed[pos // 3 * 3 : pos // 3 * 3 + 3] and _closes(changed, mine):
                after = self._with_penalty(after, view)
            if after < best:
                best_pos, best = pos, after
        return best_pos, best

    def _estimate(self, tableau: TableauView) -> float:
        return _estimate(tableau.cards, tableau.removed_columns, self.settings.clear_columns)

    def _with_penalty(self, mine: float, view: PlayerView) -> float:
        """A closer whose estimate is not below every opponent's counts as doubled."""
        if not self.settings.closer_penalty or mine <= 0:
            return mine
        others = (self._estimate(t) for p, t in enumerate(view.tableaux) if p != self.seat)
        return mine if mine < min(others) else 2 * mine


def _estimate(cards: Cards, removed: tuple[int, ...], clear_columns: bool) -> float:
    """Face-up cards count for themselves, face-down ones for the deck's mean;
    removed columns and (with clear-columns) three equal face-up cards count nothing."""
    total = 0.0
    for column in range(COLUMNS):
        if column in removed:
            continue
        a, b, c = cards[column * 3 : column * 3 + 3]
        if clear_columns and a is not None and a == b == c:
            continue
        for card in (a, b, c):
            total += MEAN_CARD_VALUE if card is None else card
    return total


def _closes(cards: Cards, tableau: TableauView) -> bool:
    """True when no live face-down card is left."""
    return all(
        card is not None or pos // 3 in tableau.removed_columns for pos, card in enumerate(cards)
    )
