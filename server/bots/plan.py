"""One decision of ``expert``: the cost of every move from one view.

A move's *cost* is what it is expected to add to our final round score
(``model``), plus what it gives away: the card it leaves on the discard for
the next player and, when it would close the round, the closer's penalty
risk (judged on sampled deals of the others' face-down cards) less what the
others lose by having no more turns. A draw is valued by averaging the best
reply over every card the pile may hold.
"""

from __future__ import annotations

import bisect
import random
from functools import cached_property
from itertools import accumulate

from server.engine import Action, PlayerView, Settings

from .counting import LOWEST, VALUES, Counts
from .model import (
    Column,
    Outlook,
    Params,
    column_cost,
    expected_gain,
    outlook,
    raw_score,
    turn_gains,
)

#: Deals of the others' face-down cards sampled to judge whether closing leaves us lowest.
CLOSING_SAMPLES = 200


class Plan:
    """One decision: the costs of every move from one view."""

    def __init__(
        self,
        view: PlayerView,
        unseen: Counts,
        draws: Counts,
        settings: Settings,
        params: Params,
        rng: random.Random,
        closing_samples: int = CLOSING_SAMPLES,
    ) -> None:
        assert view.seat is not None
        self.view, self.seat, self.settings, self.params = view, view.seat, settings, params
        mine = view.tableaux[self.seat]
        self.cards = list(mine.cards)
        self.live = [c for c in range(4) if c not in mine.removed_columns]
        self.hidden = [p for p in range(12) if self.cards[p] is None and p // 3 in self.live]
        self.last_turn = view.closer is not None
        self.draws = draws
        self.draw_total = sum(self.draws) or 1
        self.turns_left = 0.0 if self.last_turn else self._turns_left()
        clear = settings.clear_columns
        self.o: Outlook = outlook(unseen, self.draws, self.turns_left, clear, params)
        self.column_costs = [self._column_cost(c) for c in range(4)]
        self.total = sum(self.column_costs)
        self.feed = self._feed_costs()
        self.feed_hidden = sum(p * f for p, f in zip(self.o.p_face_down, self.feed, strict=True))
        self.may_close = not self.last_turn and len(self.hidden) == 1
        self.lowest_other_samples: list[float] = []  # sorted; filled when we may close
        self.denied = 0.0  # what closing now takes from the others' remaining turns
        if self.may_close:
            self._prepare_closing(unseen, rng, closing_samples)

    # -- the decisions --------------------------------------------------------

    def take_or_draw_costs(self) -> list[tuple[float, Action]]:
        """Every way to begin a turn: take the discard to each position, or draw;
        cheapest first (a take before an equal draw, the lowest position first)."""
        discard = self.view.discard_top
        options = [
            (cost, pos, Action.take_discard(self.seat, pos))
            for cost, pos in self.swap_costs(discard)
        ]
        options.append((self.draw_cost(), len(self.cards), Action.draw(self.seat)))
        options.sort(key=lambda option: option[:2])
        return [(cost, action) for cost, _, action in options]

    def draw_cost(self) -> float:
        """The expected cost of drawing: the best way to play each card the pile may hold."""
        return (
            sum(count * self.best_with(VALUES[i])[0] for i, count in enumerate(self.draws) if count)
            / self.draw_total
        )

    def take_or_draw(self) -> Action:
        (take_cost, take), (draw_cost, draw) = self.take_and_draw()
        return take if take_cost <= draw_cost else draw

    def take_and_draw(self) -> tuple[tuple[float, Action], tuple[float, Action]]:
        """(cost, move) of taking the discard to its best place, and of drawing."""
        take_cost, pos = min(self.swap_costs(self.view.discard_top))
        return (take_cost, Action.take_discard(self.seat, pos)), (
            self.draw_cost(),
            Action.draw(self.seat),
        )

    def options_with(self, card: int) -> list[tuple[float, Action]]:
        """Every way to play a drawn ``card``, cheapest first."""
        options = [(cost, Action.swap_drawn(self.seat, p)) for cost, p in self.swap_costs(card)]
        feed = self.feed[card - LOWEST]
        options += [
            (cost + feed, Action.discard_and_flip(self.seat, p)) for cost, p in self.flip_costs
        ]
        options.sort(key=lambda option: option[0])
        return options

    def best_with(self, card: int) -> tuple[float, Action]:
        """The cheapest way to play a drawn ``card``, and its cost."""
        best = min(self.swap_costs(card))
        action = Action.swap_drawn(self.seat, best[1])
        cost = best[0]
        if self.hidden:
            flip_cost, pos = self.best_flip
            flip_cost += self.feed[card - LOWEST]
            if flip_cost < cost:
                return flip_cost, Action.discard_and_flip(self.seat, pos)
        return cost, action

    # -- costs of moves -------------------------------------------------------

    @cached_property
    def flip_costs(self) -> list[tuple[float, int]]:
        """(cost, pos) of turning up each face-down card; the same whatever was drawn."""
        return [(self.flip_cost(p), p) for p in self.hidden]

    @cached_property
    def best_flip(self) -> tuple[float, int]:
        return min(self.flip_costs)

    def swap_costs(self, card: int) -> list[tuple[float, int]]:
        """(cost, pos) of putting ``card`` at each live position; what it replaces
        goes onto the discard."""
        costs = []
        cards, feed, o = self.cards, self.feed, self.o
        for column in self.live:
            top = column * 3
            a, b, c = cards[top], cards[top + 1], cards[top + 2]
            rest = self.total - self.column_costs[column]
            changes = ((top, (card, b, c)), (top + 1, (a, card, c)), (top + 2, (a, b, card)))
            for pos, changed in changes:
                old = cards[pos]
                if old is None:
                    if self.may_close:
                        cost = self._closing_cost({pos: card})
                    else:
                        cost = rest + column_cost(changed, o)
                    costs.append((cost + self.feed_hidden, pos))
                else:
                    costs.append((rest + column_cost(changed, o) + feed[old - LOWEST], pos))
        return costs

    def flip_cost(self, pos: int) -> float:
        """Turn up the face-down card at ``pos`` (the drawn card's feed is added by the caller)."""
        p_values = self.o.p_face_down
        if self.may_close:
            return sum(
                p * self._closing_cost({pos: v}) for p, v in zip(p_values, VALUES, strict=True) if p
            )
        column = pos // 3
        rest = self.total - self.column_costs[column]
        return rest + sum(
            p * column_cost(self._column_with(column, pos, v), self.o)
            for p, v in zip(p_values, VALUES, strict=True)
            if p
        )

    def _closing_cost(self, changes: dict[int, int]) -> float:
        """Our last card is settled: our score is known, the others get one turn each."""
        cards = [changes.get(p, c) for p, c in enumerate(self.cards)]
        columns = [(cards[c * 3], cards[c * 3 + 1], cards[c * 3 + 2]) for c in self.live]
        score = raw_score(columns, self.settings.clear_columns)
        expected = float(score)
        if self.settings.closer_penalty and score > 0:
            samples = self.lowest_other_samples
            strictly_lowest = (len(samples) - bisect.bisect_right(samples, score)) / len(samples)
            expected = score * (2.0 - strictly_lowest)
        return expected - self.denied

    # -- the model's pieces ---------------------------------------------------

    def _column_with(self, column: int, pos: int, card: int | None) -> Column:
        cells = self.cards[column * 3 : column * 3 + 3]
        cells[pos - column * 3] = card
        return (cells[0], cells[1], cells[2])

    def _column_cost(self, column: int) -> float:
        if column not in self.live:
            return 0.0
        return column_cost(self._column_with(column, column * 3, self.cards[column * 3]), self.o)

    def _turns_left(self) -> float:
        """Our turns after this one: the round ends when the quickest player runs out."""
        fewest = min(_hidden_count(t.cards, t.removed_columns) for t in self.view.tableaux)
        return fewest / self.params.fd_per_turn

    def _others(self) -> list[int]:
        players = len(self.view.tableaux)
        return [p for p in range(players) if p != self.seat]

    def _columns_of(self, player: int) -> list[Column]:
        t = self.view.tableaux[player]
        return [
            (t.cards[c * 3], t.cards[c * 3 + 1], t.cards[c * 3 + 2])
            for c in range(4)
            if c not in t.removed_columns
        ]

    def _feed_costs(self) -> list[float]:
        """Per value index: what leaving that card on the discard hands the next player."""
        nxt = (self.seat + 1) % len(self.view.tableaux)
        if self.last_turn and nxt == self.view.closer:
            return [0.0] * len(VALUES)
        gains = turn_gains(self._columns_of(nxt), self.o.mean, self.settings.clear_columns)
        usual = expected_gain(gains, self.draws)
        weight = self.params.feed_weight * self._share_of_one_opponent()
        return [weight * max(0.0, g - usual) for g in gains]

    def _share_of_one_opponent(self) -> float:
        """One opponent's gain matters less when there are several to beat."""
        return 2.0 / len(self.view.tableaux)

    def _prepare_closing(self, unseen: list[int], rng: random.Random, samples: int) -> None:
        """Sample the others' final scores if we close now, and what closing denies them."""
        clear = self.settings.clear_columns
        cumulative = list(accumulate(unseen))
        lowest: list[float] = []
        others = [(self._columns_of(p), p) for p in self._others()]
        last_gains = {
            p: expected_gain(turn_gains(cols, self.o.mean, clear), self.draws) for cols, p in others
        }
        for _ in range(samples):
            finals = []
            for cols, p in others:
                dealt = [
                    tuple(
                        rng.choices(VALUES, cum_weights=cumulative)[0] if v is None else v
                        for v in col
                    )
                    for col in cols
                ]
                finals.append(raw_score(dealt, clear) - last_gains[p])  # type: ignore[arg-type]
            lowest.append(min(finals))
        lowest.sort()
        self.lowest_other_samples = lowest
        # Not closing now would give each of them about one more turn per card we keep.
        denied_turns = 1.0 / self.params.fd_per_turn
        weight = self.params.close_weight * self._share_of_one_opponent()
        self.denied = weight * sum(last_gains.values()) * denied_turns


def _hidden_count(cards: tuple[int | None, ...], removed: tuple[int, ...]) -> int:
    return sum(1 for p, c in enumerate(cards) if c is None and p // 3 not in removed)
