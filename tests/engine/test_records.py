"""Game records (docs/records.md): replaying a record reproduces it; tampering is caught."""

from __future__ import annotations

import copy
import io
import json
import random
from typing import Any

import pytest

from server.engine import (
    Game,
    InvalidSetup,
    ReplayDivergence,
    Seat,
    Settings,
    Starter,
    game_record,
    read_records,
    record_line,
    replay,
)
from server.engine.movelog import AWAY, Standin
from server.engine.records import SeatLike, replay_steps, without_standins

from .support import acting_seat, random_moves

SEATS: list[SeatLike] = [Seat("Ann"), Seat("greedy 2", bot="greedy"), {"name": "Bob", "bot": None}]


def finished_record(seed: int = 4, settings: Settings = Settings()) -> dict[str, Any]:
    game = Game(3, settings, seed=seed)
    for _ in random_moves(game, random.Random(seed), draw_bias=0.4):
        pass
    return game_record(game, SEATS)


def test_a_record_holds_the_whole_game() -> None:
    record = finished_record()
    assert record["format"] == "skyjo-record" and record["version"] == 1
    assert record["seats"][1] == {"name": "greedy 2", "bot": "greedy"}
    assert record["finished"] is True and record["winners"]
    first = record["rounds"][0]
    assert len(first["deal"]["tableaux"]) == 3 and len(first["deal"]["pile"]) == 113
    assert all(len(flips) == 2 for flips in first["initial_flips"])
    assert first["moves"][0]["action"]["kind"] == "flip"
    totals = [0, 0, 0]
    for round_ in record["rounds"]:
        totals = [t + s for t, s in zip(totals, round_["final_scores"], strict=True)]
        assert round_["totals"] == totals
        assert round_["closer"] in (0, 1, 2)
    assert record["totals"] == totals


def test_replaying_a_record_reproduces_it_exactly() -> None:
    settings = Settings(starter=Starter.CLOSER_STARTS, clear_columns=False, end_score=150)
    for record in (finished_record(4), finished_record(5, settings)):
        line = record_line(record)
        assert "\n" not in line
        (parsed,) = read_records(io.StringIO(line + "\n\n"))
        game = replay(parsed)
        assert game_record(game, parsed["seats"]) == record
        assert json.loads(record_line(game_record(game, SEATS))) == parsed


def test_a_game_in_play_has_a_record_that_replays_too() -> None:
    game = Game(2, seed=6)
    moves = random_moves(game, random.Random(6))
    for _ in range(40):
        next(moves)
    record = game_record(game, [Seat("A"), Seat("B")])
    assert record["finished"] is False and "final_scores" not in record["rounds"][-1]
    assert game_record(replay(record), [Seat("A"), Seat("B")]) == record


def reshuffled_record() -> dict[str, Any]:
    """A finished 8-player record with a reshuffle in it (its pile holds 53 cards)."""
    for seed in range(20):
        game = Game(8, seed=seed)
        reshuffles = sum(
            event.TYPE == "pile_reshuffled"
            for events in random_moves(game, random.Random(seed), draw_bias=0.9)
            for event in events
        )
        if reshuffles:
            return game_record(game, [Seat(f"bot {n}", "random") for n in range(8)])
    raise AssertionError("no reshuffle in 20 games")


def test_a_record_keeps_each_reshuffle_order_and_replays_it() -> None:
    record = reshuffled_record()
    reshuffles = [
        event
        for round_ in record["rounds"]
        for move in round_["moves"]
        for event in move["events"]
        if event["type"] == "pile_reshuffled"
    ]
    assert reshuffles and all(len(e["order"]) == e["pile_size"] for e in reshuffles)
    assert game_record(replay(record), record["seats"]) == record


def _event_of(record: dict[str, Any], type_: str) -> dict[str, Any]:
    return next(
        event
        for round_ in record["rounds"]
        for move in round_["moves"]
        for event in move["events"]
        if event["type"] == type_
    )


def _move_the_first_take(record: dict[str, Any]) -> None:
    action = next(
        move["action"] for move in record["rounds"][0]["moves"] if move["action"]["kind"] == "take"
    )
    action["pos"] = (action["pos"] + 1) % 12


TAMPERINGS = {
    "a tableau card": lambda r: r["rounds"][0]["deal"]["tableaux"][0].reverse(),
    "an event's value": lambda r: _event_of(r, "card_exchanged").update(value=99),
    "an action": lambda r: _move_the_first_take(r),
    "a missing move": lambda r: r["rounds"][-1]["moves"].pop(7),
    "a raw score": lambda r: r["rounds"][0]["raw_scores"].__setitem__(0, -50),
    "a total": lambda r: r["totals"].__setitem__(1, 0),
    "the winners": lambda r: r["winners"].append(9),
    "the settings": lambda r: r["settings"].update({"closer-penalty": "off"}),
    "the initial flips": lambda r: r["rounds"][0]["initial_flips"].reverse(),
    "the version": lambda r: r.update(version=2),
}


@pytest.mark.parametrize("tamper", TAMPERINGS.values(), ids=list(TAMPERINGS))
def test_a_tampered_record_is_detected(tamper: Any) -> None:
    record = finished_record()
    tampered = copy.deepcopy(record)
    tamper(tampered)
    assert tampered != record
    with pytest.raises(ReplayDivergence):
        replay(tampered)


def test_a_tampered_reshuffle_order_is_detected() -> None:
    record = reshuffled_record()
    order = _event_of(record, "pile_reshuffled")["order"]
    order[0], order[-1] = order[-1], order[0]
    if order[0] == order[-1]:
        order.append(order.pop(1))
    with pytest.raises(ReplayDivergence, match="move"):
        replay(record)


def test_a_divergence_names_where_it_happened() -> None:
    record = finished_record()
    _event_of(record, "card_exchanged")["replaced"] = 77
    with pytest.raises(ReplayDivergence, match=r"round 1, move \d+ .*replaced.*77"):
        replay(record)


def test_seats_must_match_the_players() -> None:
    game = Game(2, seed=1)
    with pytest.raises(InvalidSetup):
        game_record(game, [Seat("only one")])
    with pytest.raises(InvalidSetup):
        game_record(game, [Seat("A"), {"name": 3}])
    with pytest.raises(InvalidSetup):
        game_record(game, [Seat("A"), 7])  # type: ignore[list-item]


def test_a_seat_may_be_given_by_its_name_alone() -> None:
    record = game_record(Game(2, seed=1), ["Ann", Seat("Bot", bot="expert")])
    assert record["seats"] == [{"name": "Ann", "bot": None}, {"name": "Bot", "bot": "expert"}]


def test_a_line_that_is_not_a_record_is_reported_with_its_number() -> None:
    with pytest.raises(InvalidSetup, match="line 2"):
        list(read_records(["{}", "not json"]))
    with pytest.raises(InvalidSetup, match="line 1"):
        list(read_records(["[1, 2]"]))


def test_replay_steps_go_through_the_game_deal_by_deal_and_move_by_move() -> None:
    record = finished_record()
    steps = []
    for step in replay_steps(record):  # the game changes in place: note what is needed now
        steps.append((step.round, step.move, step.action, step.events, step.game.totals))
    deals = [(number, events) for number, move, action, events, _ in steps if move == 0]
    assert [number for number, _ in deals] == list(range(1, len(record["rounds"]) + 1))
    assert all(
        len(events) == 1 and events[0].to_dict()["type"] == "round_started" for _, events in deals
    )
    for round_data in record["rounds"]:
        moves = [s for s in steps if s[0] == round_data["number"] and s[1] > 0]
        assert [m[1] for m in moves] == list(range(1, len(round_data["moves"]) + 1))
        assert [m[2].to_dict() if m[2] else None for m in moves] == [
            move["action"] for move in round_data["moves"]
        ]
        assert [[e.to_dict() for e in m[3]] for m in moves] == [
            move["events"] for move in round_data["moves"]
        ]
    assert steps[-1][4] == tuple(record["totals"])


def test_replay_steps_check_the_scores_once_the_last_step_is_taken() -> None:
    record = finished_record()
    record["totals"][0] += 1  # every move is right; only the final totals are wrong
    steps = replay_steps(record)
    taken = sum(1 for _ in zip(range(10), steps, strict=False))  # the first 10 at most
    assert taken == 10  # the moves themselves replay
    with pytest.raises(ReplayDivergence, match="totals"):
        for _ in steps:
            pass


def test_a_move_a_bot_chose_for_a_person_is_marked_in_the_record_snapshot_and_replay() -> None:
    game = Game(3, Settings(), seed=12)
    marks: dict[int, Standin] = {}  # the move's index in round 1 -> its stand-in
    for index in range(12):
        action = game.legal_actions(acting_seat(game))[0]
        standin = Standin("greedy", AWAY) if action.player == 0 and index % 2 else None
        game.apply(action, standin)
        if standin is not None:
            marks[index] = standin
    assert marks
    record = json.loads(record_line(game_record(game, SEATS)))
    moves = record["rounds"][0]["moves"]
    assert {i: move["standin"] for i, move in enumerate(moves) if "standin" in move} == {
        i: {"bot": "greedy", "reason": "away"} for i in marks
    }
    steps = list(replay_steps(record))  # checked field for field, marks included
    assert {step.move - 1: step.standin for step in steps if step.standin} == marks
    # The server's snapshot keeps them too (a game restored after a restart).
    restored = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert game_record(restored, SEATS) == game_record(game, SEATS)
    # A record stripped of them is the record of the same game as an older server wrote it.
    plain = without_standins(record)
    assert "standin" not in json.dumps(plain) and replay(plain).totals == game.totals


def test_a_mark_the_engine_did_not_make_is_a_divergence_and_a_bad_one_is_refused() -> None:
    record = finished_record()
    record["rounds"][0]["moves"][7]["standin"] = "greedy"  # not a bot level and a reason
    with pytest.raises(ReplayDivergence, match="not a valid record"):
        replay(record)
    # Snapshots and records from before the marks: a bare action, no mark anywhere.
    game = Game(3, Settings(), seed=5)
    game.apply(game.legal_actions(acting_seat(game))[0])
    snapshot = game.to_dict()
    assert snapshot["rounds"][0]["actions"] == [game.history[0].moves[0].action.to_dict()]
    assert Game.from_dict(snapshot).history[0].moves[0].standin is None
