"""What a bot author needs, over real sockets: choosing a seat, and seeded private tables
that deal the same cards (and stay out of the statistics, the leaderboard and ratings)."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from server.netclient import ServerError

from .support import Client, table_with

Connect = Callable[..., Awaitable[Client]]
SHORT_GAME = {"end-score": 10}


def first_legal(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The same move from the same view, every time: games replay exactly."""
    return view["legal_actions"][0]


async def refused(client: Client, type_: str, **fields: Any) -> ServerError:
    with pytest.raises(ServerError) as caught:
        await client.request(type_, **fields)
    return caught.value


def seat_names(client: Client) -> list[str | None]:
    return [None if s is None else s["name"] for s in client.last_table["seats"]]


# -- choosing a seat -------------------------------------------------------------------------


async def test_a_seat_can_be_chosen_when_creating_or_joining_a_table(connect: Connect) -> None:
    alice, bob, carol = await connect("Alice"), await connect("Bob"), await connect("Carol")
    table = await table_with(alice, seats=4, seat=2)
    assert table["your_seat"] == 2 and [s and s["name"] for s in table["seats"]] == [
        None,
        None,
        "Alice",
        None,
    ]
    joined = (await bob.request("join_table", table_id=table["table_id"], seat=3))["table"]
    assert joined["your_seat"] == 3
    # Without a seat, the lowest free one, as before.
    joined = (await carol.request("join_table", table_id=table["table_id"]))["table"]
    assert joined["your_seat"] == 0
    await alice.until(lambda: seat_names(alice) == ["Carol", None, "Alice", "Bob"])


async def test_a_taken_or_missing_seat_is_refused_and_changes_nothing(connect: Connect) -> None:
    alice, bob = await connect("Alice"), await connect("Bob")
    table = await table_with(alice, seats=3, bots=("greedy",))  # Alice at 0, the bot at 1
    wanted = {"table_id": table["table_id"]}

    taken = await refused(bob, "join_table", **wanted, seat=1)
    assert taken.code == "seat_taken" and "free seats: 2" in taken.message
    for seat in (3, -1):
        missing = await refused(bob, "join_table", **wanted, seat=seat)
        assert missing.code == "not_found" and "0 to 2" in missing.message
    # Bob is still in the lobby, and the table is as it was: he may sit in the free seat.
    where = {p["name"]: p["where"] for p in (await bob.request("who"))["players"]}
    assert where == {"Alice": "seated", "Bob": "lobby"}
    assert seat_names(alice) == ["Alice", "Greedy bot 1", None]
    assert (await bob.request("join_table", **wanted, seat=2))["table"]["your_seat"] == 2
    full = await refused(await connect("Carol"), "join_table", **wanted, seat=0)
    assert full.code == "seat_taken" and "the table is full" in full.message

    # A seat out of range at creation: no table is made, the creator stays in the lobby.
    dan = await connect("Dan")
    before = (await dan.request("list_tables"))["total"]
    missing = await refused(dan, "create_table", name="Dan's", seats=2, seat=2)
    assert missing.code == "not_found"
    assert (await dan.request("list_tables"))["total"] == before
    assert (await dan.request("create_table", name="Dan's", seats=2, seat=1))["table"][
        "your_seat"
    ] == 1


async def test_a_watcher_sits_down_in_the_seat_they_choose_and_only_at_that_table(
    connect: Connect,
) -> None:
    alice, bob = await connect("Alice"), await connect("Bob")
    table = await table_with(alice, seats=3, private=True)  # Alice at 0
    other = await table_with(await connect("Carol"), seats=2)
    await bob.request("spectate", code=table["code"])
    elsewhere = await refused(bob, "join_table", table_id=other["table_id"], seat=1)
    assert elsewhere.code == "already_at_table"
    taken = await refused(bob, "join_table", code=table["code"], seat=0)
    assert taken.code == "seat_taken"
    where = {p["name"]: p["where"] for p in (await bob.request("who"))["players"]}
    assert where["Bob"] == "watching"  # a refused seat leaves him watching
    joined = (await bob.request("join_table", code=table["code"], seat=2))["table"]
    assert joined["your_seat"] == 2 and joined["watchers"] == []
    await alice.until(lambda: seat_names(alice) == ["Alice", None, "Bob"])
    again = await refused(bob, "join_table", code=table["code"], seat=1)  # seated: no moving
    assert again.code == "already_at_table"


# -- seeded private tables -------------------------------------------------------------------


async def test_a_seed_is_refused_on_a_public_table(connect: Connect) -> None:
    alice = await connect("Alice")
    error = await refused(alice, "create_table", name="Open", seats=2, seed=7)
    assert error.code == "bad_seed" and "private" in error.message
    assert (await alice.request("list_tables"))["total"] == 0
    # Nothing was created: Alice may create a table at once.
    assert (await table_with(alice, seats=2, seed=7, private=True))["seeded"] is True


async def seeded_game(client: Client, seed: int) -> dict[int, dict[str, Any]]:
    """``client`` plays a whole game at a new private table against a greedy bot, dealt
    from ``seed``; the views it was sent once the initial flips were over, by update.

    The flips of the bot and the person interleave as they come; from the first turn
    on, the same deal and the same moves make the same game.
    """
    await table_with(
        client, seats=2, bots=("greedy",), settings=SHORT_GAME, private=True, seed=seed
    )
    await client.request("start_game")
    await client.play(random.Random(0), choose=first_legal)
    return {
        push["seq"]: push["view"]
        for push in client.pushes
        if push["type"] == "game" and push["view"]["phase"] != "initial_flips"
    }


async def test_two_tables_with_the_same_seed_deal_the_same_cards(connect: Connect) -> None:
    alice, bob, carol = await connect("Alice"), await connect("Bob"), await connect("Carol")
    seen_by_alice = await seeded_game(alice, seed=42)
    seen_by_bob = await seeded_game(bob, seed=42)
    seen_by_carol = await seeded_game(carol, seed=43)
    assert seen_by_alice == seen_by_bob
    assert seen_by_alice != seen_by_carol

    # The stored records say so too: the same seed, the same deal in every round.
    def deals(record: dict[str, Any]) -> list[Any]:
        return [round_["deal"] for round_ in record["rounds"]]

    records = []
    for client in (alice, bob):
        game_id = (await client.push("game_over"))["game_id"]
        reply = await client.request("game_record", game_id=game_id)
        assert reply["seeded"] is True and reply["record"]["seed"] == 42
        records.append(reply["record"])
    assert deals(records[0]) == deals(records[1])


async def test_seeded_games_stay_out_of_statistics_the_leaderboard_and_ratings(
    connect: Connect,
) -> None:
    alice, bob = await connect("Alice"), await connect("Bob")
    await seeded_game(alice, seed=5)
    await seeded_game(bob, seed=6)

    board = await alice.request("leaderboard")
    assert board["entries"] == [] and board["bots"] == []
    stats = (await alice.request("stats"))["stats"]
    assert stats["games"] == 0 and stats["rating"] is None
    # They are kept, marked seeded, for those who played them.
    (game,) = (await alice.request("recent_games"))["games"]
    assert game["seeded"] is True and game["names"] == ["Alice", "Greedy bot 1"]
    assert alice.last_table["seats"][1]["rating"] is None


async def test_each_rematch_at_a_seeded_table_is_dealt_from_the_next_seed(
    connect: Connect,
) -> None:
    alice = await connect("Alice")
    await seeded_game(alice, seed=100)
    first = (await alice.push("game_over"))["game_id"]
    after = len(alice.pushes)
    await alice.request("rematch")
    await alice.play(
        random.Random(0),
        choose=first_legal,
        stop=lambda: any(p["type"] == "game_over" for p in alice.pushes[after:]),
    )
    second = (await alice.push("game_over", after=after))["game_id"]
    seeds = [
        (await alice.request("game_record", game_id=game_id))["record"]["seed"]
        for game_id in (first, second)
    ]
    assert seeds == [100, 101]


async def test_a_seeded_table_keeps_its_seed_over_a_restart(tmp_path: Path, make_server) -> None:
    data = tmp_path / "shared"
    server = await make_server(data)
    alice = await Client.connect(server, "Alice")
    await seeded_game(alice, seed=200)
    await alice.close()
    await server.stop()

    again = await make_server(data)
    alice = await Client.connect(again, token=alice.welcome.token)
    try:
        assert alice.welcome.resumed
        await alice.until(lambda: alice.table is not None)
        assert alice.last_table["seeded"] is True and alice.last_table["status"] == "finished"
        await alice.request("rematch")
        await alice.play(random.Random(0), choose=first_legal)
        game_id = (await alice.push("game_over"))["game_id"]
        record = (await alice.request("game_record", game_id=game_id))["record"]
        assert record["seed"] == 201
    finally:
        await alice.close()
