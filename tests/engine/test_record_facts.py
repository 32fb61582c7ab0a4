"""Each fact docs/records.md states about the order of events and the fields of a record,
checked on records of many random games (every variant, 2 to 8 seats)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from server.engine import Game, Settings, game_record
from server.engine.cards import COLUMNS, ROWS

from .support import acting_seat, random_moves

SCORE_FIELDS = {"closer", "raw_scores", "final_scores", "closer_doubled", "totals"}


def records(count: int = 40) -> list[dict[str, Any]]:
    """Finished records of random games; ``clear-columns`` on in most, so columns go."""
    made = []
    for seed in range(count):
        rng = random.Random(seed)
        settings = Settings(clear_columns=seed % 4 != 0, end_score=60)
        game = Game(2 + seed % 7, settings, seed=seed)
        for _ in random_moves(game, rng, draw_bias=0.5):
            pass
        made.append(game_record(game, [f"P{p}" for p in range(game.players)]))
    return made


RECORDS = records()


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def every_round() -> list[dict[str, Any]]:
    return [round_ for record in RECORDS for round_ in record["rounds"]]


def test_the_final_reveal_round_scored_and_totals_updated_are_the_events_of_the_rounds_last_action() -> (
    None
):
    for round_ in every_round():
        *others, last = round_["moves"]
        kinds = types(last["events"])
        assert kinds[-2:] == ["round_scored", "totals_updated"]
        assert "turn_began" not in kinds and "round_closed" not in kinds
        for move in others:
            assert not {"card_revealed", "round_scored", "totals_updated"} & set(
                types(move["events"])
            )
            assert not any(e.get("at_final_reveal") for e in move["events"])


def test_the_final_reveal_goes_seat_by_seat_from_seat_0_positions_ascending_then_that_seats_columns() -> (
    None
):
    for round_ in every_round():
        events = round_["moves"][-1]["events"]
        reveal = [e for e in events if e["type"] == "card_revealed" or e.get("at_final_reveal")]
        start = events.index(reveal[0]) if reveal else events.index(events[-2])
        # The reveal follows the last move's own events and comes before the scores.
        assert events[start : start + len(reveal)] == reveal
        assert events[start + len(reveal)]["type"] == "round_scored"
        # By seat, in seat order; in a seat, its cards by position, then its columns by number.
        keys = [
            (e["player"], e["type"] == "column_removed", e.get("pos", e.get("column")))
            for e in reveal
        ]
        assert keys == sorted(keys)


def test_turn_began_follows_the_last_initial_flip_and_ends_every_turn_but_the_rounds_last() -> None:
    for round_ in every_round():
        moves = round_["moves"]
        flips = [m for m in moves if m["action"]["kind"] == "flip"]
        assert moves[: len(flips)] == flips  # every initial flip comes first
        for move in flips[:-1]:
            assert types(move["events"]) == ["card_flipped"]
        assert types(flips[-1]["events"]) == ["card_flipped", "turn_began"]
        closed = False
        for move in moves[len(flips) : -1]:
            kinds = types(move["events"])
            if move["action"]["kind"] == "draw":  # half a turn: never a turn_began
                assert kinds in (["card_drawn"], ["pile_reshuffled", "card_drawn"])
                continue
            assert kinds[-1] == "turn_began" and kinds.count("turn_began") == 1
            if "round_closed" in kinds:  # just before the next seat's turn_began
                assert kinds[-2] == "round_closed"
                closed = True
            assert move["events"][-1]["last_turn"] is closed
            assert move["events"][-1]["player"] == (move["action"]["player"] + 1) % len(
                round_["deal"]["tableaux"]
            )


def test_positions_keep_their_numbers_after_a_column_is_removed() -> None:
    removed_some = False
    for round_ in every_round():
        gone: set[tuple[int, int]] = set()
        for move in round_["moves"]:
            action = move["action"]
            if "pos" in action:
                assert (action["player"], action["pos"] // ROWS) not in gone  # never a removed slot
            for event in move["events"]:
                if "pos" in event:
                    assert 0 <= event["pos"] < ROWS * COLUMNS
                    assert (event["player"], event["pos"] // ROWS) not in gone
                if event["type"] == "column_removed":
                    gone.add((event["player"], event["column"]))
                    removed_some = True
                    # The other columns keep their positions: a later move there names 3c + row.
    assert removed_some


def test_pile_size_is_the_new_piles_card_count_before_the_draw_that_follows() -> None:
    seen = 0
    for round_ in every_round():
        for move in round_["moves"]:
            events = move["events"]
            if events and events[0]["type"] == "pile_reshuffled":
                assert events[0]["pile_size"] == len(events[0]["order"])
                assert (
                    events[1]["type"] == "card_drawn"
                    and events[1]["value"] == events[0]["order"][0]
                )
                seen += 1
    assert seen > 0


@pytest.mark.parametrize("stop_after", [0, 3, 40, 90])
def test_an_unfinished_games_last_round_lacks_the_score_fields(stop_after: int) -> None:
    game = Game(3, Settings(end_score=1000), seed=stop_after)
    moves = random_moves(game, random.Random(stop_after))
    for _ in range(stop_after):
        next(moves)
    assert game.round.final_scores is None  # mid-round
    record = game_record(game, ["A", "B", "C"])
    last = record["rounds"][-1]
    assert not SCORE_FIELDS & set(last)  # absent, not null
    assert (last["starter"] is None) == (game.round.pending_flippers() != [])
    assert record["finished"] is False and record["winners"] == []
    for earlier in record["rounds"][:-1]:
        assert set(earlier) >= SCORE_FIELDS
    assert record["totals"] == (
        record["rounds"][-2]["totals"] if len(record["rounds"]) > 1 else [0, 0, 0]
    )
    assert acting_seat(game) is not None


def test_a_game_between_rounds_has_only_complete_rounds() -> None:
    game = Game(2, Settings(end_score=1000), seed=5)
    moves = random_moves(game, random.Random(5))
    while game.round.final_scores is None:
        next(moves)
    record = game_record(game, ["A", "B"])
    assert record["finished"] is False
    assert all(set(round_) >= SCORE_FIELDS for round_ in record["rounds"])
    assert record["totals"] == record["rounds"][-1]["totals"]
