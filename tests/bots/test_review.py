"""The review of a game from its record alone: each move against the best of the same view."""

from __future__ import annotations

import json

import pytest

from server.bots.match import play_game
from server.bots.review import COSTLY, review_game
from server.engine import Action, ActionKind, ReplayDivergence
from server.engine.records import game_record

from .tables import crafted_game


def test_a_missed_column_of_three_is_a_costly_move_with_the_take_as_the_best() -> None:
    # Seat 0 shows two 7s in its first column; the 7 on the discard would clear it.
    shown = {0: {0: 7, 1: 7}, 1: {0: 1, 4: 2}}
    game, _ = crafted_game(2, shown, discard=7, pile_top=[5, 6])
    assert game.current_player == 0
    game.apply(Action.draw(0))
    game.apply(Action.discard_and_flip(0, 3))
    record = json.loads(json.dumps(game_record(game, ["Alice", "Bob"])))  # as stored: JSON

    review = review_game(record, 0)
    draw, flip = review.moves  # the initial flips are not judged
    assert (draw.played, draw.best) == (Action.draw(0), Action.take_discard(0, 2))
    assert draw.costly and draw.given_away > COSTLY
    assert (draw.round, draw.turn, flip.turn) == (1, 1, 1)  # the drawn card's move: same turn
    assert draw.view.seat == 0 and draw.view.drawn_card is None and draw.view.discard_top == 7
    assert flip.view.drawn_card == 5  # judged from the view with the drawn card in hand
    assert review.next_costly(-1) is draw
    assert review.points_given_away >= draw.given_away
    assert review_game(record, 1).moves == ()  # Bob has not played yet


def test_the_experts_moves_give_nothing_away_and_greedys_do() -> None:
    for seed in (0, 1):
        record = play_game(["expert", "greedy"], seed=seed, record=True).record
        assert record is not None
        expert, greedy = review_game(record, 0), review_game(record, 1)
        assert expert.moves and not expert.costly
        assert len(greedy.costly) >= 5 and greedy.points_given_away > 20
        assert all(m.played.kind is not ActionKind.FLIP for m in greedy.moves)
        assert all(m.played in m.view.legal_actions and m.view.seat == 1 for m in greedy.moves)
        # Stepping through the costly moves goes forward, then around to the first.
        first = greedy.costly[0]
        assert greedy.next_costly(first.step) is greedy.costly[1]
        assert greedy.next_costly(greedy.costly[-1].step) is first


def test_a_tampered_record_is_refused() -> None:
    record = play_game(["greedy", "greedy"], seed=3, record=True).record
    assert record is not None
    record["rounds"][0]["moves"][5]["action"]["pos"] = 11
    with pytest.raises(ReplayDivergence):
        review_game(record, 0)
    with pytest.raises(ValueError, match="no seat 2"):
        review_game(record, 2)
