"""The review of a game from its record alone: each move against the best of the same view."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from server.bots.match import play_game
from server.bots.review import COSTLY, review_game
from server.engine import Action, ActionKind, ReplayDivergence, read_records, replay
from server.engine.movelog import AWAY, TIMER, Standin
from server.engine.records import game_record

from ..support_records import with_standins
from .tables import crafted_game

#: A game (Ann, a person, against a casual bot) recorded before stand-ins were marked.
OLD_RECORD = Path(__file__).parents[1] / "data" / "record-before-standins.jsonl"


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


def test_a_stand_ins_moves_are_listed_as_the_bots_and_never_held_against_the_person() -> None:
    # The missed column of three again, but a bot chose both moves for the person.
    shown = {0: {0: 7, 1: 7}, 1: {0: 1, 4: 2}}
    game, _ = crafted_game(2, shown, discard=7, pile_top=[5, 6])
    game.apply(Action.draw(0), Standin("expert", AWAY))
    game.apply(Action.discard_and_flip(0, 3), Standin("expert", AWAY))
    record = json.loads(json.dumps(game_record(game, ["Alice", "Bob"])))
    assert [move.get("standin") for move in record["rounds"][0]["moves"][-2:]] == [
        {"bot": "expert", "reason": "away"}
    ] * 2

    review = review_game(record, 0)
    draw, flip = review.moves  # listed, in their turn, as the bot's
    assert (draw.played, draw.standin, draw.turn, flip.turn) == (
        Action.draw(0),
        Standin("expert", AWAY),
        1,
        1,
    )
    assert review.standins == (draw, flip) and not review.costly
    assert review.points_given_away == 0.0 and review.next_costly(-1) is None


def test_marked_moves_of_a_record_leave_the_costs_and_the_rest_is_judged_the_same() -> None:
    record = play_game(["greedy", "greedy"], seed=3, record=True).record
    assert record is not None
    before = review_game(record, 1)
    assert len(before.costly) >= 2
    # By hand: a bot played the seat's first two costly moves (its turn timer ran out).
    taken = before.costly[:2]
    marked = with_standins(record, (move.step for move in taken), "greedy", TIMER)
    assert replay(marked).is_over  # a marked record replays

    after = review_game(marked, 1)
    assert [move.step for move in after.standins] == [move.step for move in taken]
    assert all(move.standin == Standin("greedy", TIMER) for move in after.standins)
    assert after.costly == tuple(m for m in before.costly if m not in taken)
    assert after.points_given_away == pytest.approx(
        before.points_given_away - sum(move.given_away for move in taken)
    )
    assert [m.turn for m in after.moves] == [m.turn for m in before.moves]  # the same turns
    assert review_game(marked, 0) == review_game(record, 0)  # the other seat: as it was


def test_a_record_from_before_the_marks_replays_and_reviews_as_it_did() -> None:
    with OLD_RECORD.open(encoding="utf-8") as lines:
        (record,) = read_records(lines)
    assert "standin" not in json.dumps(record)
    assert replay(record).is_over
    # What the review said of this record before stand-ins were marked.
    said = {
        0: (40, [14, 38, 48, 72, 74], 16.03170806602803),
        1: (43, [9, 43, 56, 69], 14.798947379097765),
    }
    for seat, (moves, costly, points) in said.items():
        review = review_game(record, seat)
        assert (len(review.moves), [m.step for m in review.costly]) == (moves, costly)
        assert review.points_given_away == pytest.approx(points)
        assert review.standins == ()
