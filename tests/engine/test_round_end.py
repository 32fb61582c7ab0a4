"""RULES.md, "End of a round": the closer, the last turns, the final reveal, the penalty."""

from __future__ import annotations

import pytest

from server.engine import Action, IllegalAction, Phase, Round, Settings, closer_penalty
from server.engine.events import CardRevealed, Event, RoundClosed, RoundScored, TurnBegan

from .support import PLAIN, column, flip_all, make_deal, quiet_turn, reveal_turn, tableau

LOW = tableau(column(0, 1, 2), column(0, 1, 2), column(-1, 0, 1), column(-2, -1, 0))  # sums 3


def three_player_round_closed_by_1() -> tuple[Round, list[Event]]:
    """Player 0 starts; player 1 turns up a card a turn and closes on its tenth;
    players 2 and 0 play quiet turns meanwhile."""
    round_ = Round(make_deal([PLAIN, PLAIN, PLAIN], 0))
    flip_all(round_, {0: (11, 10), 1: (0, 1), 2: (0, 3)})
    assert round_.current == 0
    events: list[Event] = []
    for pos in range(2, 12):
        events += quiet_turn(round_, 0, 11)
        events += reveal_turn(round_, 1, pos)
        if round_.closer is None:
            events += quiet_turn(round_, 2, 0)
    return round_, events


def test_a_player_with_no_face_down_card_left_closes_the_round() -> None:
    round_, events = three_player_round_closed_by_1()
    assert round_.closer == 1
    assert events[-2:] == [RoundClosed(1), TurnBegan(2, True)]
    assert round_.face_down_count[1] == 0 and not round_.is_over


def test_each_other_player_plays_exactly_one_more_turn_in_seat_order() -> None:
    round_, _ = three_player_round_closed_by_1()
    events = quiet_turn(round_, 2, 0)
    assert events[-1] == TurnBegan(0, True)  # seat order wraps round to 0
    assert round_.current == 0
    events = quiet_turn(round_, 0, 11)
    assert round_.is_over and round_.phase is Phase.ROUND_OVER
    assert not any(isinstance(e, TurnBegan) for e in events)  # the closer plays no more


def test_the_closer_plays_no_further_turn() -> None:
    round_, _ = three_player_round_closed_by_1()
    quiet_turn(round_, 2, 0)
    with pytest.raises(IllegalAction, match="not your turn"):
        round_.apply(Action.draw(1))
    quiet_turn(round_, 0, 11)
    assert round_.legal_actions(1) == [] and round_.current is None
    with pytest.raises(IllegalAction, match="round is over"):
        round_.apply(Action.draw(1))


def test_final_reveal_turns_up_every_face_down_card_and_scores_all_cards() -> None:
    round_, _ = three_player_round_closed_by_1()
    face_down_before = {(p, pos) for p in (0, 2) for pos in range(12) if not round_.face_up[p][pos]}
    events = quiet_turn(round_, 2, 0) + quiet_turn(round_, 0, 11)
    revealed = {(e.player, e.pos) for e in events if isinstance(e, CardRevealed)}
    assert revealed == face_down_before - {(2, 0)} - {(0, 11)}  # quiet turns swap face-up cards
    assert all(all(up) for up in round_.face_up)
    assert round_.raw_scores == tuple(sum(cards) for cards in round_.cards)
    assert isinstance(events[-1], RoundScored)


def test_a_player_who_turns_up_the_last_card_in_their_last_turn_does_not_close_again() -> None:
    round_ = Round(make_deal([PLAIN, PLAIN], 0))
    flip_all(round_, {0: (11, 10), 1: (0, 1)})
    for pos in range(10):  # both turn up a card a turn; player 0 closes first
        reveal_turn(round_, 0, pos)
        if round_.is_over:
            break
        reveal_turn(round_, 1, pos + 2)
    assert round_.closer == 0 and round_.is_over
    assert round_.face_down_count == [0, 0]


@pytest.mark.parametrize(
    ("raw", "closer", "final", "doubled"),
    [
        ((10, 11, 20), 0, (10, 11, 20), False),  # strictly lowest: kept
        ((10, 10, 20), 0, (20, 10, 20), True),  # tied for lowest: doubled
        ((15, 10, 20), 0, (30, 10, 20), True),  # not lowest: doubled
        ((20, 5, 30), 1, (20, 5, 30), False),  # a closer in another seat
        ((-3, -11), 0, (-3, -11), False),  # negative: never doubled
        ((0, -4), 0, (0, -4), False),  # zero: never doubled
        ((1, 0), 0, (2, 0), True),  # the smallest positive score is doubled
    ],
)
def test_closer_penalty_doubles_a_positive_score_that_is_not_strictly_lowest(
    raw: tuple[int, ...], closer: int, final: tuple[int, ...], doubled: bool
) -> None:
    assert closer_penalty(raw, closer, Settings()) == (final, doubled)


def test_closer_penalty_variant_off_never_doubles() -> None:
    assert closer_penalty((30, 10), 0, Settings(closer_penalty=False)) == ((30, 10), False)


@pytest.mark.parametrize(
    ("settings", "expected_final"),
    [(Settings(), (3, 6)), (Settings(closer_penalty=False), (3, 3))],
)
def test_a_round_closed_by_a_player_tied_for_lowest_doubles_their_score(
    settings: Settings, expected_final: tuple[int, int]
) -> None:
    round_ = Round(make_deal([LOW, LOW], 5), settings)
    flip_all(round_, {0: (11, 10), 1: (0, 1)})  # -1 against 1: player 1 starts
    for pos in range(10):  # both turn up a card a turn: player 1 closes first
        reveal_turn(round_, 1, pos + 2)
        if round_.is_over:
            break
        reveal_turn(round_, 0, pos)
    assert round_.closer == 1
    assert round_.raw_scores == (3, 3)
    assert round_.final_scores == expected_final
