"""``learned``: plays the move whose afterstate a trained network prices best.

Every legal move of a decision leads to afterstates (``afterstate``): one when
it only moves known cards, one per value a face-down card may turn out to be
when it turns one up (weighted by the unseen cards, counted exactly), and for
a draw, every card the pile may hold, each played the best way. All of them
are priced in one batched call of the network (``network``) and each move's
value is its chance-weighted mean (for a draw, the mean over the drawn card of
the best reply). The value is the round's expected outcome for the mover in
points (its score less the others' mean): the lowest is played. No search.

The network is trained by ``python -m server.bots.learn`` from played games;
the weights shipped with the package are ``data/learned.npz`` (their record
says how they were made). The initial flips are the expert's.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np

from server.engine import Action, ActionKind, Event, PlayerView, Settings

from .advice import OVERDUE_TURNS, advise
from .afterstate import CARD_VALUES, GONE, HIDDEN, ROWS, UP, Floats, Ints, Table, features, table_of
from .base import Bot
from .counting import CardCounter
from .network import Network

#: The weights shipped with the package.
WEIGHTS = Path(__file__).with_name("data") / "learned.npz"


@cache
def shipped_network() -> Network:
    return Network.load(WEIGHTS)


class Afterstates:
    """A decision's afterstates, gathered row by row, then built as arrays at once."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.option: list[int] = []  # which move (or draw's reply) each row belongs to
        self.pos: list[int] = []
        self.placed: list[int] = []  # the card left face up at pos
        self.discard: list[int] = []  # the discard's top it leaves
        self.weight: list[float] = []  # its chance, given the move

    def known(self, option: int, pos: int, placed: int, discard: int, weight: float = 1.0) -> None:
        self.option.append(option)
        self.pos.append(pos)
        self.placed.append(placed)
        self.discard.append(discard)
        self.weight.append(weight)

    def place(self, option: int, pos: int, card: int) -> None:
        """``card`` goes to ``pos``; what was there (known, or any unseen card) is discarded."""
        table = self.table
        if table.states[pos] == UP:
            self.known(option, pos, card, int(table.values[pos]))
            return
        for index in np.flatnonzero(table.p_hidden):
            self.known(option, pos, card, int(CARD_VALUES[index]), float(table.p_hidden[index]))

    def flip(self, option: int, pos: int, card: int) -> None:
        """``card`` is discarded and the face-down card at ``pos`` turned up."""
        table = self.table
        for index in np.flatnonzero(table.p_hidden):
            self.known(option, pos, int(CARD_VALUES[index]), card, float(table.p_hidden[index]))

    def arrays(self) -> tuple[Floats, Ints, Ints]:
        """The rows' tableaux and discards, a column of three equal cards removed."""
        rows = len(self.pos)
        at = np.arange(rows)
        pos = np.array(self.pos)
        values = np.tile(self.table.values, (rows, 1))
        states = np.tile(self.table.states, (rows, 1))
        discard = np.array(self.discard)
        values[at, pos] = self.placed
        states[at, pos] = UP
        top = pos - pos % ROWS
        cells = top[:, None] + np.arange(ROWS)
        column_values = values[at[:, None], cells]
        complete = (states[at[:, None], cells] == UP).all(axis=1) & (
            column_values == column_values[:, :1]
        ).all(axis=1)
        if complete.any():
            hit = np.flatnonzero(complete)
            discard[hit] = column_values[hit, 0].astype(np.int64)
            values[hit[:, None], cells[hit]] = 0.0
            states[hit[:, None], cells[hit]] = GONE
        return values, states, discard

    def features(self) -> Floats:
        return features(self.table, *self.arrays())

    def values(self, network: Network, options: int) -> Floats:
        """Each of ``options``' chance-weighted value (numbered from 0; 0 for one with no row)."""
        if not self.pos:
            return np.zeros(options)
        priced = network.value(self.features())
        weights = priced * np.array(self.weight)
        return np.bincount(self.option, weights=weights, minlength=options).astype(np.float64)


def move_values(
    view: PlayerView, counter: CardCounter, settings: Settings, network: Network
) -> list[tuple[float, Action]]:
    """Every legal move of a turn (not an initial flip) with its value, best (lowest) first."""
    assert view.seat is not None and view.legal_actions
    counter.sync(view)
    table = table_of(view, counter, settings)
    rows = Afterstates(table)
    moves = list(view.legal_actions)
    draw_replies: list[tuple[int, int]] = []  # (value index drawn, first option) per drawn card
    for option, action in enumerate(moves):
        if action.kind is ActionKind.TAKE_DISCARD:
            assert action.pos is not None
            rows.place(option, action.pos, view.discard_top)
        elif action.kind is ActionKind.SWAP_DRAWN:
            assert action.pos is not None and view.drawn_card is not None
            rows.place(option, action.pos, view.drawn_card)
        elif action.kind is ActionKind.DISCARD_AND_FLIP:
            assert action.pos is not None and view.drawn_card is not None
            rows.flip(option, action.pos, view.drawn_card)
    live = [p for p in range(len(table.states)) if table.states[p] != GONE]
    hidden = [p for p in live if table.states[p] == HIDDEN]
    replies = len(moves)
    if any(a.kind is ActionKind.DRAW for a in moves):
        for index in np.flatnonzero(table.p_draw):
            card = int(CARD_VALUES[index])
            draw_replies.append((int(index), replies))
            for pos in live:
                rows.place(replies, pos, card)
                replies += 1
            for pos in hidden:
                rows.flip(replies, pos, card)
                replies += 1
    values = rows.values(network, replies)
    priced = []
    for option, action in enumerate(moves):
        if action.kind is ActionKind.DRAW:
            ends = [first for _, first in draw_replies[1:]] + [replies]
            value = sum(
                table.p_draw[index] * values[first:end].min()
                for (index, first), end in zip(draw_replies, ends, strict=True)
            )
            priced.append((float(value), action))
        else:
            priced.append((float(values[option]), action))
    priced.sort(key=lambda item: item[0])
    return priced


class LearnedBot(Bot):
    level = "learned"
    description = (
        "prices the position after each move with a small network trained on played games, "
        "averaging over every card it cannot see; no search."
    )

    def __init__(
        self,
        seat: int,
        seed: int | str = 0,
        settings: Settings = Settings(),
        network: Network | None = None,
    ) -> None:
        super().__init__(seat, seed, settings)
        self.network = network if network is not None else shipped_network()
        self.counter = CardCounter()
        self._rng = random.Random(f"learned-bot/{seed}/{seat}")

    def observe(self, events: Sequence[Event]) -> None:
        self.counter.observe(events)

    def choose(self, view: PlayerView) -> Action:
        kind = view.legal_actions[0].kind
        if kind is ActionKind.FLIP:
            return advise(view, self.counter, self.settings, rng=self._rng).best.action
        priced = move_values(view, self.counter, self.settings, self.network)
        if self.counter.turns >= OVERDUE_TURNS * len(view.tableaux):
            # As the expert: a round nobody closes ends by settling a face-down card a turn.
            hidden = {p for p, c in enumerate(view.tableaux[self.seat].cards) if c is None}
            if kind is ActionKind.DRAW:
                return Action.draw(self.seat)
            return next((a for _, a in priced if a.pos in hidden), priced[0][1])
        return priced[0][1]


def afterstate_of(
    view: PlayerView, counter: CardCounter, settings: Settings, action: Action, hidden_card: int
) -> Floats:
    """The features of the afterstate ``action`` leads to when the face-down card it
    turns up or replaces (if any) is ``hidden_card``: what training learns from."""
    table = table_of(view, counter, settings)
    rows = Afterstates(table)
    assert action.pos is not None
    pos = action.pos
    if action.kind is ActionKind.TAKE_DISCARD:
        held = view.discard_top
    else:
        assert view.drawn_card is not None
        held = view.drawn_card
    up = table.states[pos] == UP
    if action.kind is ActionKind.DISCARD_AND_FLIP:
        rows.known(0, pos, hidden_card, held)
    else:
        rows.known(0, pos, held, int(table.values[pos]) if up else hidden_card)
    return rows.features()[0]


__all__ = ["WEIGHTS", "LearnedBot", "afterstate_of", "move_values", "shipped_network"]
