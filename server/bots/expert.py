"""``expert``: card counting, an expected-value model of the round, and a look at the table.

Every decision weighs each legal move by its *cost*: what it is expected to
add to the bot's final round score (``model``), plus what it gives away:
the card it leaves on the discard for the next player, and, when the move
would close the round, the risk of the closer's penalty against how much
the opponents lose by having no more turns. The draw is valued by averaging
the best reply over every card the pile may hold (the unseen cards, counted
from the events the bot has observed).
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Sequence

from server.engine import Action, ActionKind, Event, PlayerView, Settings

from .base import Bot
from .counting import LOWEST, VALUES, CardCounter
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

#: Opponent deals sampled to judge whether closing now leaves us strictly lowest.
CLOSING_SAMPLES = 200


class ExpertBot(Bot):
    level = "expert"
    description = (
        "counts the cards seen, weighs columns of three, the closer's penalty and what the "
        "next player could use, and values a draw over every card still unseen."
    )

    def __init__(
        self, seat: int, seed: int | str = 0, settings: Settings = Settings(), params: Params = Params()
    ) -> None:
        super().__init__(seat, seed, settings)
        self.params = params
        self.counter = CardCounter()
        self._rng = random.Random(f"expert-bot/{seed}/{seat}")

    def observe(self, events: Sequence[Event]) -> None:
        self.counter.observe(events)

    def choose(self, view: PlayerView) -> Action:
        self.counter.sync(view)
        kind = view.legal_actions[0].kind
        if kind is ActionKind.FLIP:
            return self._initial_flip(view)
        plan = Plan(view, self.counter, self.settings, self.params, self._rng)
        if kind is ActionKind.DRAW:
            return plan.take_or_draw()
        assert view.drawn_card is not None
        return plan.place(view.drawn_card)

    def _initial_flip(self, view: PlayerView) -> Action:
        """Spread the two flips over different columns: each tells about its own column."""
        cards = view.tableaux[self.seat].cards
        opened = {pos // 3 for pos, card in enumerate(cards) if card is not None}
        fresh = [a for a in view.legal_actions if a.pos is not None and a.pos // 3 not in opened]
        return self._rng.choice(fresh or list(view.legal_actions))


class Plan:
    """One decision: the costs of every move from one view."""

    def __init__(
        self,
        view: PlayerView,
        counter: CardCounter,
        settings: Settings,
        params: Params,
        rng: random.Random,
    ) -> None:
        assert view.seat is not None
        self.view, self.seat, self.settings, self.params = view, view.seat, settings, params
        mine = view.tableaux[self.seat]
        self.cards = list(mine.cards)
        self.live = [c for c in range(4) if c not in mine.removed_columns]
        self.hidden = [p for p in range(12) if self.cards[p] is None and p // 3 in self.live]
        self.last_turn = view.closer is not None
        unseen = counter.unseen(view)
        self.draws = counter.draw_pile(view, unseen)
        self.draw_total = sum(self.draws) or 1
        self.turns_left = 0.0 if self.last_turn else self._turns_left()
        clear = settings.clear_columns
        self.o: Outlook = outlook(unseen, self.draws, self.turns_left, clear, params)
        self.column_costs = [self._column_cost(c) for c in range(4)]
        self.total = sum(self.column_costs)
        self.feed = self._feed_costs()
        self.feed_hidden = sum(p * f for p, f in zip(self.o.p_face_down, self.feed, strict=True))
        self.may_close = not self.last_turn and len(self.hidden) == 1
        if self.may_close:
            self._prepare_closing(unseen, rng)

    # -- the decisions --------------------------------------------------------

    def take_or_draw(self) -> Action:
        top = self.view.discard_top
        take_cost, pos = min((self.place_cost(top, p), p) for p in self._positions())
        draw_cost = sum(
            count * self.best_with(VALUES[i])[0] for i, count in enumerate(self.draws) if count
        ) / self.draw_total
        if take_cost <= draw_cost:
            return Action.take_discard(self.seat, pos)
        return Action.draw(self.seat)

    def place(self, drawn: int) -> Action:
        return self.best_with(drawn)[1]

    def best_with(self, card: int) -> tuple[float, Action]:
        """The cheapest way to play a drawn ``card``, and its cost."""
        best = min((self.place_cost(card, p), p) for p in self._positions())
        action = Action.swap_drawn(self.seat, best[1])
        cost = best[0]
        if self.hidden:
            flip_cost, pos = min((self.flip_cost(p), p) for p in self.hidden)
            flip_cost += self.feed[card - LOWEST]
            if flip_cost < cost:
                return flip_cost, Action.discard_and_flip(self.seat, pos)
        return cost, action

    # -- costs of moves -------------------------------------------------------

    def place_cost(self, card: int, pos: int) -> float:
        """Put ``card`` at ``pos``; the card it replaces goes onto the discard."""
        old = self.cards[pos]
        feed = self.feed_hidden if old is None else self.feed[old - LOWEST]
        if self.may_close and old is None:
            return self._closing_cost({pos: card}) + feed
        column = pos // 3
        changed = self._column_with(column, pos, card)
        return self.total - self.column_costs[column] + column_cost(changed, self.o) + feed

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
        columns: list[Column] = [tuple(cards[c * 3 : c * 3 + 3]) for c in self.live]  # type: ignore[misc]
        score = raw_score(columns, self.settings.clear_columns)
        expected = float(score)
        if self.settings.closer_penalty and score > 0:
            samples = self.lowest_other_samples
            strictly_lowest = (len(samples) - bisect.bisect_right(samples, score)) / len(samples)
            expected = score * (2.0 - strictly_lowest)
        return expected - self.denied

    # -- the model's pieces ---------------------------------------------------

    def _positions(self) -> list[int]:
        return [p for p in range(12) if p // 3 in self.live]

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

    def _prepare_closing(self, unseen: list[int], rng: random.Random) -> None:
        """Sample the others' final scores if we close now, and what closing denies them."""
        clear = self.settings.clear_columns
        weights = [float(c) for c in unseen]
        lowest: list[float] = []
        others = [(self._columns_of(p), p) for p in self._others()]
        last_gains = {
            p: expected_gain(turn_gains(cols, self.o.mean, clear), self.draws) for cols, p in others
        }
        for _ in range(CLOSING_SAMPLES):
            finals = []
            for cols, p in others:
                dealt = [
                    tuple(rng.choices(VALUES, weights)[0] if v is None else v for v in col)
                    for col in cols
                ]
                finals.append(raw_score(dealt, clear) - last_gains[p])  # type: ignore[arg-type]
            lowest.append(min(finals))
        lowest.sort()
        self.lowest_other_samples = lowest
        mean_gain = sum(last_gains.values()) / len(last_gains)
        denied_turns = 1.0 / self.params.fd_per_turn
        weight = self.params.close_weight * self._share_of_one_opponent()
        self.denied = weight * mean_gain * denied_turns * (len(others))


def _hidden_count(cards: tuple[int | None, ...], removed: tuple[int, ...]) -> int:
    return sum(1 for p, c in enumerate(cards) if c is None and p // 3 not in removed)
