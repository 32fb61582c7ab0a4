"""Simulated play for the bots' search: every call into the engine is here.

``master`` imagines the next turns many times over. Each time it deals the
cards it cannot see at random (``determinize``: the counter knows which cards
are unseen), builds a whole position of the engine from its view and that
deal, and plays it on (``play_until_turn_of``) through the engine's own
``Round.apply``: the rules live in the engine alone. Until the engine offers
a constructor for a position, ``determinize`` and ``copy_round`` set a
round's state directly: they are the only code that knows its fields. Switching to a faster
rollout path of the engine is a change to this module only.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable

from server.engine import (
    DECK_COMPOSITION,
    MEAN_CARD_VALUE,
    Action,
    Deal,
    PlayerView,
    Round,
    Settings,
)
from server.engine.actions import MOVES, live_moves
from server.engine.cards import COLUMNS, ROWS, TABLEAU_SIZE
from server.engine.round import Phase

from .counting import VALUES, CardCounter

#: Moves after which a simulated round is cut short (a cheap policy may dither).
MOVE_LIMIT = 400
#: What the rollout policy must save before it takes the discard.
TAKE_GAIN = 2.5
#: What the rollout policy must save before it keeps a drawn card.
KEEP_GAIN = 1.0

#: What a new pair in a column is worth to the rollout policy, over its cards.
PAIR_BONUS = 6.0

#: A deal used only to give a position's round its shape; every card is then replaced.
_TEMPLATE = {players: Deal.shuffled(players, random.Random(players)) for players in range(2, 9)}

_PHASES = {Phase.CHOOSE.value: Phase.CHOOSE, Phase.DRAWN.value: Phase.DRAWN}


def determinize(
    view: PlayerView, counter: CardCounter, settings: Settings, rng: random.Random
) -> Round:
    """A whole round consistent with ``view``: the cards it does not show dealt at random.

    Face-down cards and the draw pile are dealt from the unseen cards (after a
    reshuffle the pile is dealt from its known cards); the discard pile is the
    one the counter followed.
    """
    players = len(view.tableaux)
    unseen = counter.unseen(view)
    hidden_cards = [v for v, n in zip(VALUES, unseen, strict=True) for _ in range(n)]
    rng.shuffle(hidden_cards)
    if counter.known_pile is not None and sum(counter.known_pile) == view.pile_size:
        pile = [v for v, n in zip(VALUES, counter.known_pile, strict=True) for _ in range(n)]
        rng.shuffle(pile)
    else:
        pile = []
    round_ = Round(_TEMPLATE[players], settings, number=view.round)
    round_.reshuffle_seed = str(rng.random())
    for p, tableau in enumerate(view.tableaux):
        cards = [0] * TABLEAU_SIZE
        up = [True] * TABLEAU_SIZE
        removed = [c in tableau.removed_columns for c in range(COLUMNS)]
        live = tuple(q for q in range(TABLEAU_SIZE) if not removed[q // ROWS])
        for q in live:
            value = tableau.cards[q]
            if value is None:
                value = hidden_cards.pop() if hidden_cards else _any_card(rng)
                up[q] = False
            cards[q] = value
        round_.cards[p], round_.face_up[p], round_.removed[p] = cards, up, removed
        round_.live_positions[p] = live
        round_._live_moves[p] = live_moves(p, live)
        round_.face_down_count[p] = sum(1 for q in live if not up[q])
    while len(pile) < view.pile_size:
        pile.append(hidden_cards.pop() if hidden_cards else _any_card(rng))
    round_.pile = pile[: view.pile_size]  # the top is the end of the list
    discards = list(counter.discards)
    if not discards or discards[-1] != view.discard_top:
        discards = [view.discard_top]
    round_.discard = discards
    round_.initial_flips = [2] * players
    round_.phase = _PHASES[view.phase]
    round_.current = view.current_player
    round_.starter = view.current_player
    round_.drawn = view.drawn_card
    round_.closer = view.closer
    if view.closer is not None:
        assert view.current_player is not None
        round_.turns_left_after_close = (view.closer - view.current_player) % players
    return round_


def _any_card(rng: random.Random) -> int:
    return rng.choice(list(DECK_COMPOSITION))


def copy_round(round_: Round) -> Round:
    """A copy of a simulated round to play one more line on (the deal's lists are shared:
    they are never changed)."""
    copied = copy.copy(round_)
    copied.cards = [list(cards) for cards in round_.cards]
    copied.face_up = [list(up) for up in round_.face_up]
    copied.removed = [list(removed) for removed in round_.removed]
    copied.live_positions = list(round_.live_positions)
    copied._live_moves = list(round_._live_moves)
    copied.face_down_count = list(round_.face_down_count)
    copied.initial_flips = list(round_.initial_flips)
    copied.pile = list(round_.pile)
    copied.discard = list(round_.discard)
    copied.out_of_play = list(round_.out_of_play)
    copied.forced_reshuffles = []
    return copied


Policy = Callable[[Round], Action]


def play_until_turn_of(round_: Round, seat: int | None, policy: Policy) -> None:
    """Play on with ``policy`` until ``seat`` is to move or the round is over
    (``None``: to the round's end)."""
    for _ in range(MOVE_LIMIT):
        if round_.final_scores is not None or round_.current == seat:
            return
        round_.apply(policy(round_))


def shown_columns(round_: Round, player: int) -> list[tuple[int | None, int | None, int | None]]:
    """The player's live columns as everyone sees them (None: face down)."""
    cards, up = round_.cards[player], round_.face_up[player]
    return [
        (
            cards[top] if up[top] else None,
            cards[top + 1] if up[top + 1] else None,
            cards[top + 2] if up[top + 2] else None,
        )
        for top in range(0, TABLEAU_SIZE, ROWS)
        if not round_.removed[player][top // ROWS]
    ]


def rollout_policy(round_: Round) -> Action:
    """A cheap, sensible policy from what the mover may see in a simulated round:
    keep a card where it saves the most (face-down cards at the deck's mean,
    a column of three counting nothing), else turn up a card; never close the
    round while another tableau looks lower."""
    p = round_.current
    assert p is not None
    cards, up, live = round_.cards[p], round_.face_up[p], round_.live_positions[p]
    moves = MOVES[p]
    clear = round_.settings.clear_columns
    hidden = [q for q in live if not up[q]]
    if round_.phase is Phase.CHOOSE:
        gain, pos = _best_place(cards, up, live, round_.discard[-1], clear)
        if gain >= TAKE_GAIN and not _closes_badly(round_, p, hidden, pos):
            return moves.take_discard[pos]
        return moves.draw
    card = round_.drawn
    assert card is not None
    gain, pos = _best_place(cards, up, live, card, clear)
    if not hidden or (gain >= KEEP_GAIN and not _closes_badly(round_, p, hidden, pos)):
        return moves.swap_drawn[pos]
    if len(hidden) == 1 and _closes_badly(round_, p, hidden, hidden[0]) and gain > 0:
        return moves.swap_drawn[pos]
    return moves.discard_and_flip[hidden[0]]


def _best_place(
    cards: list[int], up: list[bool], live: tuple[int, ...], card: int, clear: bool
) -> tuple[float, int]:
    """The position where ``card`` saves the most, and that saving (a pair counts extra)."""
    best, best_pos = -99.0, live[0]
    for q in live:
        old = cards[q] if up[q] else MEAN_CARD_VALUE
        gain = old - card
        if clear:
            top = q - q % ROWS
            a, b = [r for r in (top, top + 1, top + 2) if r != q]
            matches = (up[a] and cards[a] == card) + (up[b] and cards[b] == card)
            if matches == 2:
                gain = old + 2 * card
            elif matches == 1 and card > 0:
                gain += PAIR_BONUS
        if gain > best:
            best, best_pos = gain, q
    return best, best_pos


def _estimate(round_: Round, p: int) -> float:
    up = round_.face_up[p]
    return round_.visible_score(p) + MEAN_CARD_VALUE * sum(
        1 for q in round_.live_positions[p] if not up[q]
    )


def _closes_badly(round_: Round, p: int, hidden: list[int], pos: int) -> bool:
    """True when playing at ``pos`` ends the round for us while someone looks lower."""
    if round_.closer is not None or hidden != [pos] or not round_.settings.closer_penalty:
        return False
    mine = round_.visible_score(p)
    return any(_estimate(round_, o) <= mine for o in range(round_.players) if o != p)
