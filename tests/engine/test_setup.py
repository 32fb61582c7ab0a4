"""RULES.md, "Cards" and "Set-up of a round": the deck, the deal, the initial flips, the starter."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from server.engine import (
    DECK,
    Action,
    Deal,
    Game,
    GamePhase,
    IllegalAction,
    InvalidSetup,
    Phase,
    Round,
    Settings,
    Starter,
)
from server.engine.events import CardFlipped, TurnBegan

from .support import PLAIN, flip_all, make_deal, quiet_turn, reveal_turn


def test_deck_has_150_cards_of_the_rules_composition() -> None:
    counts = Counter(DECK)
    assert len(DECK) == 150
    assert counts[-2] == 5 and counts[-1] == 10 and counts[0] == 15
    assert all(counts[value] == 10 for value in range(1, 13))
    assert set(counts) == set(range(-2, 13))


@pytest.mark.parametrize("players", [2, 5, 8])
def test_deal_gives_each_player_12_face_down_cards_in_4_columns_of_3(players: int) -> None:
    deal = Deal.shuffled(players, random.Random(players))
    round_ = Round(deal)
    assert len(deal.tableaux) == players
    assert all(len(t) == 12 for t in deal.tableaux)
    assert all(not any(up) for up in round_.face_up)
    assert all(round_.face_down_count[p] == 12 for p in range(players))
    assert sorted([*sum(deal.tableaux, ()), deal.discard, *deal.pile]) == sorted(DECK)


def test_first_discard_is_the_top_of_the_rest_of_the_deck() -> None:
    deal = Deal.shuffled(3, random.Random(7))
    round_ = Round(deal)
    assert round_.discard == [deal.discard]
    assert len(round_.pile) == 150 - 3 * 12 - 1
    assert round_.apply(Action.flip(0, 0))  # flips do not touch the piles
    assert round_.discard_top == deal.discard


def test_a_deal_that_is_not_the_deck_is_refused() -> None:
    deal = Deal.shuffled(2, random.Random(1))
    with pytest.raises(InvalidSetup):
        Round(Deal(deal.tableaux, deal.discard, deal.pile[1:]))  # a card missing
    with pytest.raises(InvalidSetup):
        Round(Deal(deal.tableaux, 13, deal.pile))  # no such card
    with pytest.raises(InvalidSetup):
        Deal.from_dict({"tableaux": [[True] * 12, [0] * 12], "discard": 0, "pile": []})


def test_every_player_chooses_two_initial_flips_in_any_order() -> None:
    round_ = Round(make_deal([PLAIN, PLAIN, PLAIN], 0))
    assert round_.phase is Phase.INITIAL_FLIPS
    assert round_.pending_flippers() == [0, 1, 2]
    assert len(round_.legal_actions(2)) == 12  # any of the 12, whoever acts first
    round_.apply(Action.flip(2, 11))
    round_.apply(Action.flip(0, 4))
    round_.apply(Action.flip(2, 0))
    assert round_.pending_flippers() == [0, 1]
    assert round_.legal_actions(2) == []
    round_.apply(Action.flip(1, 5))
    round_.apply(Action.flip(0, 7))
    assert round_.phase is Phase.INITIAL_FLIPS  # waits for everyone
    events = round_.apply(Action.flip(1, 6))
    assert events[0] == CardFlipped(1, 6, PLAIN[6], True)
    assert round_.phase is Phase.CHOOSE


def test_a_third_initial_flip_is_refused() -> None:
    round_ = Round(make_deal([PLAIN, PLAIN], 0))
    flip_all(round_, {0: (0, 1)})
    with pytest.raises(IllegalAction, match="already turned up your two"):
        round_.apply(Action.flip(0, 2))
    assert round_.face_up[0][2] is False


def test_an_initial_flip_of_a_face_up_card_is_refused() -> None:
    round_ = Round(make_deal([PLAIN, PLAIN], 0))
    round_.apply(Action.flip(1, 3))
    with pytest.raises(IllegalAction, match="already face up"):
        round_.apply(Action.flip(1, 3))


def test_no_turn_is_played_before_every_initial_flip() -> None:
    round_ = Round(make_deal([PLAIN, PLAIN], 0))
    flip_all(round_, {0: (0, 1)})
    assert round_.current is None
    with pytest.raises(IllegalAction, match="first turn up two cards"):
        round_.apply(Action.draw(0))


def test_starter_is_the_highest_sum_of_the_two_face_up_cards() -> None:
    round_ = Round(make_deal([PLAIN, PLAIN, PLAIN], 0))
    events = flip_all(round_, {0: (0, 1), 1: (9, 10), 2: (3, 4)})  # 3, 21, 9
    assert round_.current == 1 and round_.starter == 1
    assert events[-1] == TurnBegan(1, False)


@pytest.mark.parametrize(
    ("flips", "starter"),
    [
        ({0: (0, 1), 1: (11, 10), 2: (10, 11)}, 1),  # 3, 23, 23
        ({0: (10, 11), 1: (0, 1), 2: (11, 10)}, 0),  # 23, 3, 23
    ],
)
def test_starter_tie_goes_to_the_first_tied_player_in_seat_order(
    flips: dict[int, tuple[int, int]], starter: int
) -> None:
    round_ = Round(make_deal([PLAIN, PLAIN, PLAIN], 0))
    flip_all(round_, flips)
    assert round_.current == starter


def _game_where_player_1_closes_round_1(settings: Settings) -> Game:
    """Round 1: player 0 starts (highest pair) and plays quiet turns; player 1
    turns up a card a turn and closes on its tenth turn."""
    game = Game(2, settings, deal=make_deal([PLAIN, PLAIN], 0))
    flip_all(game, {0: (11, 8), 1: (0, 1)})
    assert game.current_player == 0
    for pos in range(2, 12):
        quiet_turn(game, 0, 11)
        reveal_turn(game, 1, pos)
    assert game.round.closer == 1
    quiet_turn(game, 0, 11)  # the last turn of the other player
    assert game.phase is GamePhase.BETWEEN_ROUNDS
    return game


@pytest.mark.parametrize(
    ("starter", "expected"), [(Starter.CLOSER_STARTS, 1), (Starter.HIGHEST_PAIR, 0)]
)
def test_from_round_two_the_starter_variant_picks_closer_or_highest_pair(
    starter: Starter, expected: int
) -> None:
    game = _game_where_player_1_closes_round_1(Settings(starter=starter, end_score=1000))
    game.next_round(make_deal([PLAIN, PLAIN], 0))
    flip_all(game, {0: (11, 10), 1: (0, 1)})  # player 0 has the highest pair
    assert game.current_player == expected
