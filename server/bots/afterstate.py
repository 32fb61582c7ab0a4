"""What the learned player reads of a position after a move: the afterstate's features.

An *afterstate* is the table just after a player ends a turn, seen from that
player's seat: its own tableau with the card it placed or turned up, the
discard it leaves for the next player, and everything else as it was. It is
what the player chose; what follows (the others' turns, the draws) is chance
and the others' choice, and that is what the learned evaluation (``network``)
prices from these features.

The features are those the expert's model already reads (``counting``,
``model``): the unseen cards counted exactly and the mean of a face-down card,
each tableau's visible sum, face-down cards, pairs that could still clear and
what they need, the discard and what it would hand the next player, the deck,
the totals and the distance to the end score, who could close and what the
doubling would risk. A decision's afterstates differ only in the mover's own
tableau and the discard, so the rest (``Table``) is worked out once a decision
and every afterstate is computed in one batch of numpy arrays.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from server.engine import PlayerView, Settings

from .counting import LOWEST, VALUES, CardCounter
from .model import turn_gains

#: Cell states of a tableau: face down, face up, in a removed column.
HIDDEN, UP, GONE = 0, 1, 2
POSITIONS = 12
ROWS = 3
#: The card values as an array, by value index (value - LOWEST).
CARD_VALUES = np.array(VALUES, dtype=np.float64)
#: The expert model's replacement knobs (``model.Params``' defaults): a bad card's
#: expected final cost shrinks with the turns left, as the expert prices it.
_REPLACE_SHARE, _REPLACE_TURNS, _TARGET, _FD_PER_TURN = 1.3, 3.0, 3.0, 0.85

Floats = NDArray[np.float64]
Ints = NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class Table:
    """What stays the same over one decision's afterstates, from the mover's seat."""

    values: Floats  # (12,) the mover's cards (0 where face down or removed)
    states: Ints  # (12,) HIDDEN, UP or GONE
    p_hidden: Floats  # (15,) chance that a face-down card is each value
    p_draw: Floats  # (15,) chance that the next drawn card is each value
    mean: float  # the mean face-down card
    feed: Floats  # (15,) what each discard value would save the next player, less a draw's
    others_fewest_hidden: int  # the fewest face-down cards of another player
    others_lowest: float  # the lowest expected score of another tableau
    closed: bool  # another player has closed: the mover's turn is its last
    table: Floats  # the features that do not depend on the move


def table_of(view: PlayerView, counter: CardCounter, settings: Settings) -> Table:
    """The decision's constants from what ``view``'s seat may know (``counter`` followed
    the round's public events and is in step with ``view``)."""
    assert view.seat is not None
    seat, players = view.seat, len(view.tableaux)
    unseen = counter.unseen(view)
    draws = counter.draw_pile(view, unseen)
    p_hidden = _probabilities(unseen)
    p_draw = _probabilities(draws)
    mean = float(p_hidden @ CARD_VALUES)
    spread = float(np.sqrt(max(0.0, float(p_hidden @ CARD_VALUES**2) - mean * mean)))
    values, states = _arrays(view, seat)
    others = [p for p in range(players) if p != seat]
    other_values = np.stack([_arrays(view, p)[0] for p in others])
    other_states = np.stack([_arrays(view, p)[1] for p in others])
    their = _tableau_features(other_values, other_states, mean, p_hidden, p_draw)
    nxt = (seat + 1) % players
    following = others.index(nxt)
    next_columns = [
        tuple(view.tableaux[nxt].cards[c * 3 : c * 3 + 3])
        for c in range(4)
        if c not in view.tableaux[nxt].removed_columns
    ]
    gains: Floats = np.array(turn_gains(next_columns, mean, settings.clear_columns))  # type: ignore[arg-type]
    usual = float(p_draw @ np.maximum(0.0, gains))
    feed = gains - usual
    if view.closer is not None and nxt == view.closer:
        feed = np.zeros_like(feed)  # the closer has played its last turn
    expected = their[:, _EXPECTED]
    totals = view.totals
    mine, rest = totals[seat], [totals[p] for p in others]
    turns_each = counter.turns / players
    table = np.concatenate(
        [
            their[following],
            [
                expected.min(),
                expected.mean(),
                their[:, _HIDDEN].min(),
                view.pile_size / 100.0,
                mean / 12.0,
                spread / 5.0,
                mine / 100.0,
                min(rest) / 100.0,
                (mine - min(rest)) / 100.0,
                (settings.end_score - max(totals)) / 100.0,
                players / 8.0,
                min(turns_each, 40.0) / 20.0,
                float(view.closer is not None),
            ],
        ]
    )
    fewest = int(min(sum(1 for s in row if s == HIDDEN) for row in other_states))
    return Table(
        values,
        states,
        p_hidden,
        p_draw,
        mean,
        feed,
        fewest,
        float(expected.min()) * 10.0,
        view.closer is not None,
        table,
    )


def features(table: Table, values: Floats, states: Ints, discard: Ints) -> Floats:
    """The features of ``len(discard)`` afterstates: the mover's cards after each move
    (``values``, ``states``: (N, 12)) and the discard's top it leaves (card values)."""
    mine = _tableau_features(values, states, table.mean, table.p_hidden, table.p_draw)
    hidden = (states == HIDDEN).sum(axis=1)
    visible = np.where(states == UP, values, 0.0).sum(axis=1)
    # The expert model's price of the tableau: a bad card is likely replaced while turns remain.
    turns_left = np.minimum(hidden, table.others_fewest_hidden) / _FD_PER_TURN
    share = _REPLACE_SHARE * turns_left / (turns_left + _REPLACE_TURNS)
    up = states == UP
    excess = np.where(up, np.maximum(0.0, values - _TARGET), 0.0).sum(axis=1)
    face_down = table.mean - share * max(0.0, table.mean - _TARGET)
    priced = visible - share * excess + hidden * face_down
    closes = (hidden == 0) & (not table.closed)
    lead = visible + hidden * table.mean - table.others_lowest
    index = discard - LOWEST
    move = np.column_stack(
        [
            priced / 10.0,
            discard / 12.0,
            table.feed[index] / 10.0,
            closes.astype(np.float64),
            closes * lead / 10.0,
            closes * (lead > 0),
            lead / 10.0,
            table.closed * visible / 10.0,
        ]
    )
    constant = np.broadcast_to(table.table, (len(discard), len(table.table)))
    return np.concatenate([mine, move, constant], axis=1)


#: Columns of ``_tableau_features`` read elsewhere.
_EXPECTED, _HIDDEN = 2, 1


def _tableau_features(
    values: Floats, states: Ints, mean: float, p_hidden: Floats, p_draw: Floats
) -> Floats:
    """(N, 13) features of N tableaux (as anyone sees them)."""
    up = states == UP
    hidden_cells = states == HIDDEN
    shown = np.where(up, values, 0.0)
    hidden = hidden_cells.sum(axis=1)
    visible = shown.sum(axis=1)
    removed = (states == GONE).sum(axis=1) // ROWS
    cols_v = shown.reshape(-1, 4, ROWS)
    cols_up = up.reshape(-1, 4, ROWS)
    cols_hidden = hidden_cells.reshape(-1, 4, ROWS).sum(axis=2)
    a, b, c = cols_v[:, :, 0], cols_v[:, :, 1], cols_v[:, :, 2]
    ua, ub, uc = cols_up[:, :, 0], cols_up[:, :, 1], cols_up[:, :, 2]
    ab, ac, bc = ua & ub & (a == b), ua & uc & (a == c), ub & uc & (b == c)
    up_count = cols_up.sum(axis=2)
    # The value of a column's pair (two equal face-up cards), where it has one.
    pair_value = np.where(ab, a, np.where(ac, a, np.where(bc, b, 0.0)))
    has_pair = (ab | ac | bc) & ~(ab & ac)
    waiting = has_pair & (cols_hidden == 1)  # a face-down third card may match
    blocked = has_pair & (up_count == 3)  # a face-up odd card must be replaced
    pair_index = (pair_value - LOWEST).astype(np.int64)
    p_reveal = np.where(waiting, p_hidden[pair_index], 0.0).sum(axis=1)
    p_drawn = np.where(has_pair, p_draw[pair_index], 0.0).sum(axis=1)
    odd = np.where(blocked, cols_v.sum(axis=2) - 2 * pair_value, 0.0).sum(axis=1)
    highest = np.where(up, values, -3.0).max(axis=1)
    return np.column_stack(
        [
            visible / 10.0,
            hidden / 12.0,
            (visible + hidden * mean) / 10.0,
            removed / 4.0,
            np.where(up, np.maximum(0.0, values - _TARGET), 0.0).sum(axis=1) / 10.0,
            np.where(up, np.minimum(0.0, values), 0.0).sum(axis=1) / 4.0,
            highest / 12.0,
            waiting.sum(axis=1) / 2.0,
            np.where(waiting, pair_value, 0.0).sum(axis=1) / 10.0,
            p_reveal,
            blocked.sum(axis=1) / 2.0,
            odd / 10.0,
            p_drawn,
        ]
    )


def _arrays(view: PlayerView, seat: int) -> tuple[Floats, Ints]:
    tableau = view.tableaux[seat]
    values = np.zeros(POSITIONS)
    states = np.full(POSITIONS, HIDDEN, dtype=np.int64)
    for pos, card in enumerate(tableau.cards):
        if pos // ROWS in tableau.removed_columns:
            states[pos] = GONE
        elif card is not None:
            values[pos], states[pos] = card, UP
    return values, states


def _probabilities(counts: list[int]) -> Floats:
    array = np.array(counts, dtype=np.float64)
    total = array.sum()
    return array / total if total else np.full(len(counts), 1.0 / len(counts))


#: How many features ``features`` gives an afterstate.
FEATURES = 13 + 8 + 13 + 13
#: The features whose difference the network corrects: the expert model's price of the
#: mover's tableau (its expected final score) less the others' mean expected score (face-down
#: cards at the mean), both in tens of points.
PRIOR = (13, 13 + 8 + 13 + 1)
#: The features that tell the game's totals. Learning a round's outcome in points, they
#: only let a network tell one round's afterstates from another's and learn its outcome
#: by heart (they are the same all round), so ``learn`` leaves them out by default.
TOTALS = frozenset({13 + 8 + 13 + 6, 13 + 8 + 13 + 7, 13 + 8 + 13 + 8, 13 + 8 + 13 + 9})
