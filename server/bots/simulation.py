"""Simulated play for the bots' search: every call into the engine is here.

``master`` imagines the next turns many times over. Each time it deals the
cards it cannot see at random (``determinize``: the counter knows which cards
are unseen), builds a whole position of the engine from its view and that
deal, and plays it on (``play_until_turn_of``) through the engine's own
``Round.play``, the engine's fast path (no events, no legality reasons; every
move played here is one the engine listed): the rules live in the engine
alone. A position is built by ``Position.from_view`` and ``Round.from_position``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from server.engine import (
    DECK_COMPOSITION,
    MEAN_CARD_VALUE,
    Action,
    PlayerView,
    Round,
    Settings,
)
from server.engine.actions import MOVES
from server.engine.cards import ROWS, TABLEAU_SIZE
from server.engine.position import Position
from server.engine.round import Phase

from .counting import VALUES, CardCounter

#: Moves after which a simulated round stops dithering (``settling_policy``).
PATIENCE = 300
#: Moves after which a simulated round is cut short: 8 players settling their 12
#: face-down cards take 192 moves, so a round always ends before.
MOVE_LIMIT = PATIENCE + 250
#: What the rollout policy must save before it takes the discard.
TAKE_GAIN = 2.5
#: What the rollout policy must save before it keeps a drawn card.
KEEP_GAIN = 1.0

#: What a new pair in a column is worth to the rollout policy, over its cards.
PAIR_BONUS = 6.0


def determinize(
    view: PlayerView, counter: CardCounter, settings: Settings, rng: random.Random
) -> Round:
    """A whole round consistent with ``view``: the cards it does not show dealt at random.

    Face-down cards and the draw pile are dealt from the unseen cards (after a
    reshuffle the pile is dealt from its known cards); the discard pile is the
    one the counter followed.
    """
    unseen = counter.unseen(view)
    hidden_cards = [v for v, n in zip(VALUES, unseen, strict=True) for _ in range(n)]
    rng.shuffle(hidden_cards)
    if counter.known_pile is not None and sum(counter.known_pile) == view.pile_size:
        pile = [v for v, n in zip(VALUES, counter.known_pile, strict=True) for _ in range(n)]
        rng.shuffle(pile)
    else:
        pile = []

    def deal_one() -> int:
        return hidden_cards.pop() if hidden_cards else _any_card(rng)

    face_down = [
        [
            deal_one()
            for pos, card in enumerate(tableau.cards)
            if card is None and pos // ROWS not in tableau.removed_columns
        ]
        for tableau in view.tableaux
    ]
    while len(pile) < view.pile_size:
        pile.append(deal_one())
    discards = list(counter.discards)
    if not discards or discards[-1] != view.discard_top:
        discards = [view.discard_top]
    position = Position.from_view(view, face_down, pile[: view.pile_size], discards)
    # Our own samples: consistent by construction, so the engine's check is skipped.
    return Round.from_position(
        position, settings, check=False, number=view.round, reshuffle_seed=str(rng.random())
    )


def _any_card(rng: random.Random) -> int:
    return rng.choice(list(DECK_COMPOSITION))


def copy_round(round_: Round) -> Round:
    """A copy of a simulated round to play one more line on: copies of one round
    reshuffle alike (the same seed, their reshuffles counted from the copy)."""
    return Round.from_position(
        round_.position(),
        round_.settings,
        check=False,
        number=round_.number,
        reshuffle_seed=round_.reshuffle_seed,
    )


Policy = Callable[[Round], Action]


def play_until_turn_of(round_: Round, seat: int | None, policy: Policy) -> None:
    """Play on with ``policy`` until ``seat`` is to move or the round is over
    (``None``: to the round's end).

    A cheap policy may dither for ever (each player taking back the card the
    other threw away, nobody willing to close): after ``PATIENCE`` moves every
    player settles a face-down card each turn, so the round ends."""
    for played in range(MOVE_LIMIT):
        if round_.final_scores is not None or round_.current == seat:
            return
        round_.play((policy if played < PATIENCE else settling_policy)(round_))


def settling_policy(round_: Round) -> Action:
    """Draw, then turn up a face-down card (or, with none left, keep the card drawn)."""
    p = round_.current
    assert p is not None
    moves = MOVES[p]
    if round_.phase is Phase.CHOOSE:
        return moves.draw
    up, live = round_.face_up[p], round_.live_positions[p]
    hidden = [q for q in live if not up[q]]
    return moves.discard_and_flip[hidden[0]] if hidden else moves.swap_drawn[live[0]]


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
