"""RULES.md, "A turn": take the discard, or draw then swap or discard-and-flip; the reshuffle."""

from __future__ import annotations

import pytest

from server.engine import Action, ActionKind, IllegalAction, InvalidSetup, Phase, Round
from server.engine.events import (
    CardDrawn,
    CardExchanged,
    CardFlipped,
    DiscardTaken,
    DrawnCardDiscarded,
    PileReshuffled,
    TurnBegan,
)

from .support import PLAIN, flip_all, make_deal, quiet_turn

STARTED = {0: (11, 10), 1: (0, 1)}  # player 0 starts: 12 + 11 against 1 + 2


def started_round(discard: int = 0, pile_top: tuple[int, ...] = ()) -> Round:
    round_ = Round(make_deal([PLAIN, PLAIN], discard, pile_top))
    flip_all(round_, STARTED)
    assert round_.current == 0 and round_.phase is Phase.CHOOSE
    return round_


def test_take_discard_exchanges_it_with_a_face_down_card_revealed_onto_the_discard() -> None:
    round_ = started_round(discard=-2)
    events = round_.apply(Action.take_discard(0, 4))
    assert events == [
        DiscardTaken(0, -2),
        CardExchanged(0, 4, -2, PLAIN[4], False),
        TurnBegan(1, False),
    ]
    assert round_.cards[0][4] == -2 and round_.face_up[0][4]
    assert round_.discard == [PLAIN[4]]
    assert round_.face_down_count[0] == 9


def test_take_discard_can_replace_a_face_up_card() -> None:
    round_ = started_round(discard=-2)
    events = round_.apply(Action.take_discard(0, 11))
    assert events[1] == CardExchanged(0, 11, -2, 12, True)
    assert round_.face_down_count[0] == 10


def test_taking_the_discard_obliges_the_exchange() -> None:
    round_ = started_round(discard=-2)
    # "take" names the position: there is no move that takes the discard alone.
    with pytest.raises(IllegalAction, match="needs a position"):
        round_.apply(Action(ActionKind.TAKE_DISCARD, 0))
    takes = [a for a in round_.legal_actions() if a.kind is ActionKind.TAKE_DISCARD]
    assert sorted(a.pos for a in takes) == list(range(12))  # type: ignore[type-var]
    assert round_.discard == [-2]


def test_draw_then_swap_the_drawn_card() -> None:
    round_ = started_round(pile_top=(5,))
    assert round_.apply(Action.draw(0)) == [CardDrawn(0, 5)]
    assert round_.phase is Phase.DRAWN and round_.drawn == 5
    events = round_.apply(Action.swap_drawn(0, 3))
    assert events == [CardExchanged(0, 3, 5, PLAIN[3], False), TurnBegan(1, False)]
    assert round_.discard_top == PLAIN[3] and round_.drawn is None


def test_draw_then_discard_it_and_turn_up_a_face_down_card() -> None:
    round_ = started_round(pile_top=(5,))
    round_.apply(Action.draw(0))
    events = round_.apply(Action.discard_and_flip(0, 2))
    assert events == [
        DrawnCardDiscarded(0, 5),
        CardFlipped(0, 2, PLAIN[2], False),
        TurnBegan(1, False),
    ]
    assert round_.discard_top == 5 and round_.cards[0][2] == PLAIN[2]


def test_discard_and_flip_needs_a_face_down_card() -> None:
    round_ = started_round(pile_top=(5,))
    round_.apply(Action.draw(0))
    with pytest.raises(IllegalAction, match="already face up"):
        round_.apply(Action.discard_and_flip(0, 11))
    legal = round_.legal_actions()
    assert Action.discard_and_flip(0, 11) not in legal
    assert Action.discard_and_flip(0, 0) in legal


def test_a_drawn_card_must_be_swapped_or_discarded_before_anything_else() -> None:
    round_ = started_round()
    round_.apply(Action.draw(0))
    for action in (Action.draw(0), Action.take_discard(0, 0)):
        with pytest.raises(IllegalAction, match="you hold a drawn card"):
            round_.apply(action)


def _run_the_pile_out(round_: Round) -> None:
    """Quiet turns (draw, swap onto a face-up card) until the draw pile is empty."""
    player = 0
    while round_.pile:
        quiet_turn(round_, player, 11 if player == 0 else 0)
        player = 1 - player


def test_reshuffle_when_the_pile_runs_out_keeps_the_top_discard() -> None:
    round_ = started_round()
    _run_the_pile_out(round_)
    under_top, top = round_.discard[:-1], round_.discard_top
    assert len(round_.discard) == 126
    events = round_.apply(Action.draw(round_.current))  # type: ignore[arg-type]
    reshuffle = events[0]
    assert isinstance(reshuffle, PileReshuffled) and reshuffle.pile_size == 125
    assert sorted(reshuffle.order or ()) == sorted(under_top)
    order = reshuffle.order or ()
    assert events[1] == CardDrawn(round_.current, order[0])  # type: ignore[arg-type]
    assert round_.discard == [top]
    assert round_.pile == list(reversed(order[1:]))


def test_reshuffle_is_not_done_before_a_card_must_be_drawn() -> None:
    round_ = started_round()
    _run_the_pile_out(round_)
    discard = list(round_.discard)
    round_.apply(Action.take_discard(round_.current, 5))  # type: ignore[arg-type]
    assert round_.pile == [] and len(round_.discard) == len(discard)


def test_reshuffle_takes_a_given_order_and_refuses_other_cards() -> None:
    round_ = started_round()
    _run_the_pile_out(round_)
    order = sorted(round_.discard[:-1], reverse=True)
    before = (list(round_.discard), round_.phase, round_.reshuffles)
    round_.force_next_reshuffles([*order[1:], 99])
    with pytest.raises(InvalidSetup):
        round_.apply(Action.draw(round_.current))  # type: ignore[arg-type]
    assert (list(round_.discard), round_.phase, round_.reshuffles) == before
    round_.forced_reshuffles.clear()
    round_.force_next_reshuffles(order)
    events = round_.apply(Action.draw(round_.current))  # type: ignore[arg-type]
    assert events[0] == PileReshuffled(125, tuple(order))


def test_reshuffle_order_is_the_same_for_the_same_seed() -> None:
    orders = []
    for _ in range(2):
        round_ = Round(make_deal([PLAIN, PLAIN], 0), reshuffle_seed="seed")
        flip_all(round_, STARTED)
        _run_the_pile_out(round_)
        orders.append(round_.apply(Action.draw(round_.current))[0])  # type: ignore[arg-type]
    assert orders[0] == orders[1]
