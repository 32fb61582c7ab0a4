"""RULES.md, "Columns of three": by exchange, by flip, at the final reveal, several at once."""

from __future__ import annotations

from server.engine import Action, Round, Settings
from server.engine.events import CardExchanged, ColumnRemoved, Event, RoundScored

from .support import PLAIN, column, flip_all, make_deal, quiet_turn, reveal_turn, tableau

#: Column 0 holds two 7s and a 3; the other columns never complete.
SEVENS = tableau(column(7, 7, 3), column(4, 5, 6), column(1, 8, 9), column(10, 11, 12))


def round_with(
    first: list[int],
    settings: Settings = Settings(),
    discard: int = 0,
    pile_top: tuple[int, ...] = (),
) -> Round:
    round_ = Round(make_deal([first, PLAIN], discard, pile_top), settings)
    flip_all(round_, {0: (0, 1), 1: (0, 1)})  # 14 against 3: player 0 starts
    assert round_.current == 0
    return round_


def test_column_of_three_by_exchange_goes_onto_the_discard_pile() -> None:
    round_ = round_with(SEVENS, discard=7)
    events = round_.apply(Action.take_discard(0, 2))
    assert ColumnRemoved(0, 0, 7, False) in events
    assert round_.removed[0] == [True, False, False, False]
    assert round_.discard[-4:] == [3, 7, 7, 7]  # the replaced 3, then the column
    assert round_.discard_top == 7
    assert round_.visible_score(0) == 0
    quiet_turn(round_, 1, 0)
    assert round_.legal_actions(0)[1:] == [Action.take_discard(0, p) for p in range(3, 12)]


def test_column_of_three_by_flip() -> None:
    three_sevens = tableau(column(7, 7, 7), column(4, 5, 6), column(1, 8, 9), column(10, 11, 12))
    round_ = round_with(three_sevens, pile_top=(5,))
    round_.apply(Action.draw(0))
    events = round_.apply(Action.discard_and_flip(0, 2))
    assert events[2] == ColumnRemoved(0, 0, 7, False)
    assert round_.discard[-4:] == [5, 7, 7, 7]


def test_three_equal_cards_with_one_face_down_are_not_a_column_of_three() -> None:
    three_sevens = tableau(column(7, 7, 7), column(4, 5, 6), column(1, 8, 9), column(10, 11, 12))
    round_ = round_with(three_sevens, discard=7)
    round_.apply(Action.take_discard(0, 1))  # a 7 onto a face-up 7: pos 2 still face down
    assert round_.removed[0] == [False] * 4


def test_column_of_three_is_not_removed_with_the_variant_off() -> None:
    round_ = round_with(SEVENS, Settings(clear_columns=False), discard=7)
    events = round_.apply(Action.take_discard(0, 2))
    assert not any(isinstance(e, ColumnRemoved) for e in events)
    assert round_.removed[0] == [False] * 4 and round_.visible_score(0) == 21 + 0


def _close_by_player_0(round_: Round, order: list[int]) -> list[Event]:
    """Player 0 turns up ``order`` (its last face-down cards) one a turn and closes;
    player 1 plays quiet turns; the events of the whole sequence."""
    events: list[Event] = []
    for pos in order:
        events += reveal_turn(round_, 0, pos)
        if round_.is_over:
            break
        events += quiet_turn(round_, 1, 0)
    return events


def test_columns_of_three_at_the_final_reveal_two_at_once_leave_play() -> None:
    # Player 1's columns 2 and 3 are two equal triples, face down until the end.
    twins = tableau(column(1, 2, 3), column(4, 5, 6), column(9, 9, 9), column(-1, -1, -1))
    round_ = Round(make_deal([PLAIN, twins], 0))
    flip_all(round_, {0: (11, 10), 1: (0, 1)})
    events = _close_by_player_0(round_, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    removed = [e for e in events if isinstance(e, ColumnRemoved)]
    assert removed == [ColumnRemoved(1, 2, 9, True), ColumnRemoved(1, 3, -1, True)]
    assert round_.removed[1] == [False, False, True, True]
    assert sorted(round_.out_of_play) == [-1, -1, -1, 9, 9, 9]
    last_exchange = [e for e in events if isinstance(e, CardExchanged)][-1]
    assert round_.discard_top == last_exchange.replaced  # the reveal leaves the discard alone
    scored = events[-1]
    assert isinstance(scored, RoundScored)
    assert scored.raw_scores == (78, sum(round_.cards[1][:6]))  # removed columns score 0


def test_final_reveal_ignores_columns_of_three_with_the_variant_off() -> None:
    twins = tableau(column(1, 2, 3), column(4, 5, 6), column(9, 9, 9), column(-1, -1, -1))
    round_ = Round(make_deal([PLAIN, twins], 0), Settings(clear_columns=False))
    flip_all(round_, {0: (11, 10), 1: (0, 1)})
    _close_by_player_0(round_, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    assert round_.removed[1] == [False] * 4 and round_.out_of_play == []
    assert round_.raw_scores == (78, sum(round_.cards[1]))
