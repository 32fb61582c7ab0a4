"""Building blocks of the engine tests: chosen deals, whole random games, state snapshots."""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from server.engine import DECK, Action, ActionKind, Deal, Event, Game, GamePhase, Round

ROWS = 3


def make_deal(
    tableaux: Sequence[Sequence[int]], discard: int, pile_top: Sequence[int] = ()
) -> Deal:
    """A deal with these tableaux, first discard and top of the draw pile; the
    rest of the deck (in ascending order) lies under ``pile_top``."""
    used = Counter([card for tableau in tableaux for card in tableau] + [discard, *pile_top])
    left = Counter(DECK)
    left.subtract(used)
    assert min(left.values()) >= 0, f"more cards than the deck holds: {-left}"
    return Deal(tuple(tuple(t) for t in tableaux), discard, (*pile_top, *sorted(left.elements())))


def column(a: int, b: int, c: int) -> list[int]:
    """The three cards of a column, top to bottom (for readable tableaux)."""
    return [a, b, c]


def tableau(*columns: list[int]) -> list[int]:
    assert len(columns) == 4
    return [card for col in columns for card in col]


#: A tableau with no two equal cards in a column (it sums to 78): turning its
#: cards up never makes a column of three.
PLAIN = tableau(column(1, 2, 3), column(4, 5, 6), column(7, 8, 9), column(10, 11, 12))


def flip_all(round_: Round | Game, flips: dict[int, tuple[int, int]]) -> list[Event]:
    """Every seat's two initial flips, seat by seat; the events they caused."""
    events: list[Event] = []
    for player, positions in flips.items():
        for pos in positions:
            events += round_.apply(Action.flip(player, pos))
    return events


def reveal_turn(round_: Round | Game, player: int, pos: int) -> list[Event]:
    """A turn that turns up ``pos``: draw, then discard the card and flip."""
    return round_.apply(Action.draw(player)) + round_.apply(Action.discard_and_flip(player, pos))


def quiet_turn(round_: Round | Game, player: int, face_up_pos: int) -> list[Event]:
    """A turn that reveals nothing: draw, then swap onto a face-up card."""
    return round_.apply(Action.draw(player)) + round_.apply(Action.swap_drawn(player, face_up_pos))


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything a move could change: the saved game and every field of the round."""
    return (
        game.to_dict(),
        copy.deepcopy(vars(game.round)),
        game.phase,
        game.totals,
        game.winners,
        len(game.history[-1].moves),
    )


def every_action(players: int) -> list[Action]:
    """All actions of every seat (and of one seat too many), legal or not."""
    actions = []
    for player in range(players + 1):
        actions.append(Action(ActionKind.DRAW, player))
        for kind in ActionKind:
            if kind is not ActionKind.DRAW:
                actions += [Action(kind, player, pos) for pos in range(12)]
    return actions


def acting_seat(game: Game) -> int:
    pending = game.round.pending_flippers()
    return pending[0] if pending else game.round.current  # type: ignore[return-value]


def random_moves(game: Game, rng: random.Random, draw_bias: float = 0.3) -> Iterator[list[Event]]:
    """Play ``game`` to its end with random legal moves, yielding each move's events.

    ``draw_bias`` is the chance of drawing from the pile when that is legal, so
    games see both kinds of turn (a uniform choice nearly always takes the discard).
    """
    while game.phase is not GamePhase.GAME_OVER:
        if game.phase is GamePhase.BETWEEN_ROUNDS:
            yield game.next_round()
            continue
        legal = game.legal_actions(acting_seat(game))
        if legal[0].kind is ActionKind.DRAW and rng.random() < draw_bias:
            action = legal[0]
        else:
            action = rng.choice(legal)
        yield game.apply(action)
