"""Turn timers, dropped connections, the grace time, and coming back with a token."""

from __future__ import annotations

import asyncio
import random

from server.config import Pace

from .support import Client, same_update, table_with

MOVES = ("card_drawn", "discard_taken", "card_exchanged", "drawn_card_discarded")


def moves_by(client: Client, seat: int, after: int = 0) -> list[dict]:
    """Events of turns played by ``seat`` that ``client`` was told of."""
    return [
        event
        for push in client.pushes[after:]
        if push["type"] == "game"
        for event in push["events"]
        if event["type"] in MOVES and event["player"] == seat
    ]


async def test_when_the_turn_timer_runs_out_a_bot_plays_that_seat(connect) -> None:
    alice, bob = await connect("Alice"), await connect("Bob")
    table = await table_with(alice, seats=2, turn_timer=1)
    await bob.request("join_table", table_id=table["table_id"])
    await bob.request("ready")
    await alice.request("start_game")
    first = await alice.push("game")
    assert first["timer"] == {"seats": [0, 1], "remaining": 1.0, "total": 1}

    # Bob never moves; Alice plays. Bob's seat still flips and plays its turns.
    acked: list[int] = []  # the seq of every move Alice made herself
    playing = asyncio.create_task(
        alice.play(random.Random(7), stop=lambda: len(moves_by(alice, 1)) >= 2, acked=acked)
    )
    try:
        await playing
    finally:
        playing.cancel()
    flips = [
        e
        for p in alice.pushes
        if p["type"] == "game"
        for e in p["events"]
        if e["type"] == "card_flipped" and e["player"] == 1 and e["initial"]
    ]
    assert len(flips) == 2
    assert bob.table["seats"][1]["autoplay"] is False  # Bob is here: only his turns timed out
    timed = [p["timer"] for p in alice.pushes if p["type"] == "game" and p["timer"]]
    assert all(t["total"] == 1 and 0 <= t["remaining"] <= 1 for t in timed)
    # Each push of a move the timer made says so (the log tells it); Alice's own do not.
    # (A move of Alice's that the timer made, on a machine too busy for her, is marked too.)
    bobs = 0
    for push in (p for p in alice.pushes if p["type"] == "game" and not p["catch_up"]):
        movers = {e["player"] for e in push["events"] if e["type"] in (*MOVES, "card_flipped")}
        if push["seq"] in acked:
            assert "standin" not in push, push
        elif movers == {1}:
            bobs += 1
            assert push["standin"]["seat"] == 1 and push["standin"]["reason"] == "timer"
    assert acked and bobs >= 3  # two flips and a turn of Bob's at least


async def test_a_dropped_player_keeps_the_seat_and_comes_back_to_the_full_view(
    make_server, connect
) -> None:
    server = await make_server(pace=Pace(bot_delay=0, grace_period=0.2, between_rounds=0))
    alice, bob = await connect("Alice", to=server), await connect("Bob", to=server)
    table = await table_with(alice, seats=3, bots=("greedy",))
    await bob.request("join_table", table_id=table["table_id"])
    await bob.request("ready")
    await alice.request("start_game")
    await bob.push("game")
    token, seat = bob.welcome.token, bob.table["your_seat"]

    await bob.close()  # Bob's connection drops
    await alice.until(lambda: not alice.table["seats"][seat]["connected"])
    assert alice.table["seats"][seat]["name"] == "Bob"
    # After the grace time a bot plays for Bob, and the game goes on.
    await alice.until(lambda: alice.table["seats"][seat]["autoplay"])
    before = len(alice.pushes)
    await alice.play(random.Random(8), stop=lambda: len(moves_by(alice, seat, before)) >= 1)

    bob = await connect(token=token, to=server)
    assert bob.welcome.resumed and bob.welcome.table_id == table["table_id"]
    assert bob.welcome.name == "Bob"
    state = await bob.push("game")
    assert state["catch_up"] and state["view"]["seat"] == seat
    assert state["events"][0]["type"] == "round_started"  # the round so far (see test_catch_up)
    assert bob.table["your_seat"] == seat and not bob.table["seats"][seat]["autoplay"]
    await alice.until(lambda: alice.table["seats"][seat]["connected"])
    # Bob's view is the table's current state: the same cards Alice sees face up.
    # (The game stops at a person's turn, so both reach the same update.)
    await same_update(alice, bob)
    for key in ("tableaux", "discard_top", "pile_size", "current_player", "totals"):
        assert bob.view[key] == alice.view[key]
    # And he plays on to the end from his seat.
    await asyncio.gather(alice.play(random.Random(9)), bob.play(random.Random(10)))
    assert (await bob.push("game_over"))["names"][seat] == "Bob"


async def test_a_table_waits_for_a_dropped_player_during_the_grace_time(
    make_server, connect
) -> None:
    server = await make_server(pace=Pace(bot_delay=0, grace_period=600, between_rounds=0))
    alice, bob = await connect("Alice", to=server), await connect("Bob", to=server)
    table = await table_with(alice, seats=2)
    await bob.request("join_table", table_id=table["table_id"])
    await bob.request("ready")
    await alice.request("start_game")
    await alice.play(
        random.Random(11), stop=lambda: not alice.view["legal_actions"] and alice.game["seq"] >= 2
    )
    await bob.close()
    await alice.until(lambda: not alice.table["seats"][1]["connected"])
    pushes = len(alice.pushes)
    await alice.request("ping")
    # Bob still owes his flips: nothing happens for him while the grace time runs.
    assert alice.view["initial_flips_pending"] == [1]
    assert not alice.table["seats"][1]["autoplay"]
    assert all(p["type"] != "game" for p in alice.pushes[pushes:])


async def test_someone_kicked_mid_game_is_replaced_by_a_bot_to_the_end(connect) -> None:
    alice, bob, carol = await connect("Alice"), await connect("Bob"), await connect("Carol")
    table = await table_with(alice, seats=3, settings={"end-score": 30})
    for guest in (bob, carol):
        await guest.request("join_table", table_id=table["table_id"])
        await guest.request("ready")
    await alice.request("start_game")
    await bob.push("game")
    await alice.request("kick", seat=1)
    assert (await bob.push("left_table"))["reason"] == "kicked"
    await alice.until(lambda: alice.table["seats"][1]["autoplay"])

    await asyncio.gather(alice.play(random.Random(12)), carol.play(random.Random(13)))
    over = await alice.push("game_over")
    assert over["names"] == ["Alice", "Bob", "Carol"]  # the record names who began the game
    record = (await alice.request("game_record", game_id=over["game_id"], standins=True))["record"]
    bobs = [move for r in record["rounds"] for move in r["moves"] if move["action"]["player"] == 1]
    assert bobs and all(move["standin"]["reason"] == "left" for move in bobs)  # none his own
    assert alice.table["seats"][1] is None  # the seat is free for the rematch
    assert (await bob.request("stats"))["stats"]["games"] == 0  # a forfeit is not counted
    assert (await carol.request("stats"))["stats"]["games"] == 1
