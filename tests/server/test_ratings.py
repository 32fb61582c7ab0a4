"""Ratings: every person and bot level, after each rated game; stored, shown, rebuilt."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from server.ratings import INITIAL, Rating, bot_subject, player_subject, ranks, rate
from server.store import PlayerResult, Store

from ..support_server import StartServer
from .support import Client, table_with

Connect = Callable[..., Awaitable[Client]]

SHORT_GAME = {"end-score": 20}


# -- the rule: ranks from totals, lower is better ------------------------------------------


def test_ranks_put_the_lowest_total_first_and_ties_share_a_place() -> None:
    assert ranks([30, 12, 45, 12]) == [3, 1, 4, 1]
    assert ranks([7, 7]) == [1, 1]


def test_the_lowest_total_gains_and_the_highest_loses() -> None:
    new = rate({}, ["player:1", "player:2", "bot:greedy"], [10, 60, 35])
    assert new["player:1"].ordinal > INITIAL.ordinal > new["player:2"].ordinal
    assert new["player:1"].ordinal > new["bot:greedy"].ordinal > new["player:2"].ordinal
    assert all(r.games == 1 for r in new.values())


def test_a_tie_moves_both_alike_and_a_person_who_left_is_not_rated() -> None:
    new = rate({}, ["player:1", None, "player:2"], [20, 5, 20])
    assert set(new) == {"player:1", "player:2"}
    assert new["player:1"] == new["player:2"]
    assert rate({}, ["player:1", None], [3, 9]) == {}  # one rated seat: nobody to compare with


def test_two_bots_of_one_level_share_one_rating() -> None:
    before = {"bot:greedy": Rating(30.0, 5.0, 4)}
    new = rate(before, ["bot:greedy", "player:1", "bot:greedy"], [10, 20, 30])
    assert new["bot:greedy"].games == 5
    alone = rate(before, ["bot:greedy", "player:1"], [10, 20])["bot:greedy"]
    assert new["bot:greedy"].mu < alone.mu  # its second seat came last


# -- a real server --------------------------------------------------------------------------


async def play_game(
    host: Client, guest: Client, *, private: bool = False, seed: int = 0
) -> dict[str, Any]:
    """Host and guest play a short game against a greedy bot; the game_over push."""
    table = await table_with(host, seats=3, bots=("greedy",), settings=SHORT_GAME, private=private)
    await guest.request("join_table", code=table["code"])
    await guest.request("ready")
    await host.request("start_game")
    after = {c: len(c.pushes) for c in (host, guest)}

    def over(client: Client) -> bool:  # this game's end, not an earlier one's
        return any(p["type"] == "game_over" for p in client.pushes[after[client] :])

    await asyncio.gather(
        host.play(random.Random(seed), stop=lambda: over(host)),
        guest.play(random.Random(seed + 1), stop=lambda: over(guest)),
    )
    return await host.push("game_over", after=after[host])


async def leave(*clients: Client) -> None:
    for client in clients:
        await client.request("leave_table")


async def test_a_finished_game_rates_its_people_and_bot_level_everywhere_they_are_shown(
    connect: Connect,
) -> None:
    alice, bob, carol = await connect("Alice"), await connect("Bob"), await connect("Carol")
    before = (await alice.request("stats"))["stats"]
    assert before["rating"] is None and before["rated_games"] == 0

    over = await play_game(alice, bob)
    totals = dict(zip(over["names"], over["totals"], strict=True))

    mine = (await alice.request("stats"))["stats"]
    theirs = (await carol.request("stats", name="Bob"))["stats"]
    assert mine["rated_games"] == theirs["rated_games"] == 1
    assert isinstance(mine["rating"], int) and isinstance(theirs["rating"], int)
    if totals["Alice"] < totals["Bob"]:
        assert mine["rating"] >= theirs["rating"]
    elif totals["Alice"] > totals["Bob"]:
        assert mine["rating"] <= theirs["rating"]
    # The table's seats carry each one's rating as it is now.
    await alice.until(lambda: (alice.table or {})["seats"][0].get("rating") is not None)
    assert alice.table is not None
    seats = {s["name"]: s["rating"] for s in alice.table["seats"] if s is not None}
    board = await carol.request("leaderboard")
    assert seats["Alice"] == mine["rating"] and seats["Bob"] == theirs["rating"]
    assert [b["level"] for b in board["bots"]] == ["greedy"]
    assert seats["Greedy bot 1"] == board["bots"][0]["rating"] and board["bots"][0]["games"] == 1
    # The leaderboard is in rating order, and says each one.
    entries = board["entries"]
    assert {e["name"]: e["rating"] for e in entries} == {
        "Alice": mine["rating"],
        "Bob": theirs["rating"],
    }
    assert [e["rating"] for e in entries] == sorted((e["rating"] for e in entries), reverse=True)


async def test_a_private_game_counts_in_statistics_but_not_in_ratings(connect: Connect) -> None:
    alice, bob = await connect("Alice"), await connect("Bob")
    await play_game(alice, bob, private=True)
    stats = (await alice.request("stats"))["stats"]
    assert stats["games"] == 1 and stats["rated_games"] == 0 and stats["rating"] is None
    board = await bob.request("leaderboard")
    assert board["bots"] == [] and all(e["rating"] is None for e in board["entries"])


async def test_ratings_lost_from_the_database_are_rebuilt_the_same_from_the_games(
    make_server: StartServer, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    server = await make_server(data)
    alice, bob = await Client.connect(server, "Alice"), await Client.connect(server, "Bob")
    await play_game(alice, bob, seed=10)
    await leave(alice, bob)
    await play_game(bob, alice, seed=20)
    await leave(alice, bob)
    await play_game(alice, bob, private=True, seed=30)  # not rated, then or when rebuilt
    played = dict(server.store.ratings)
    shown = (await alice.request("stats"))["stats"]
    assert played[bot_subject("greedy")].games == 2 and shown["rated_games"] == 2
    for client in (alice, bob):
        await client.close()
    await server.stop()

    database = server.config.database_path
    with sqlite3.connect(database) as conn:
        conn.execute("DROP TABLE ratings")
    again = await make_server(data)
    assert again.store.ratings == played  # every float the same: the same games, in order
    alice = await Client.connect(again, token=alice.welcome.token)
    assert (await alice.request("stats"))["stats"] == shown
    await alice.close()
    await again.stop()

    # Games stored before ratings existed (no subjects) are rated by their records' seats.
    with sqlite3.connect(database) as conn:
        conn.execute("DELETE FROM ratings")
        conn.execute("UPDATE games SET subjects = NULL")
    third = await make_server(data)
    assert third.store.ratings == played


async def test_a_seeded_game_is_stored_but_neither_rated_nor_counted(tmp_path: Path) -> None:
    store = Store(tmp_path / "skyjo.sqlite3")
    await store.open()
    try:
        alice = await store.claim_name(None, "Alice", "alice", "token-a", None)
        record = {
            "seats": [{"name": "Alice", "bot": None}, {"name": "Greedy bot 1", "bot": "greedy"}]
        }
        await store.save_table("t1", {})
        subjects = [player_subject(alice.id), bot_subject("greedy")]

        async def finish(seeded: bool) -> None:
            await store.finish_game(
                "T",
                ["Alice", "Greedy bot 1"],
                [10, 50],
                [0],
                record,
                [PlayerResult(alice.id, True, [10])],
                table_id="t1",
                meta={},
                subjects=subjects,
                seeded=seeded,
            )

        await finish(seeded=True)
        assert store.ratings == {} and (await store.stats(alice.id))["games"] == 0
        assert [g["seeded"] for g in await store.recent_games(5, alice.id)] == [True]
        await finish(seeded=False)
        assert store.rating_of(subjects[0]).games == 1  # type: ignore[union-attr]
    finally:
        await store.close()
    # Rebuilt, the seeded game stays out.
    with sqlite3.connect(tmp_path / "skyjo.sqlite3") as conn:
        conn.execute("DELETE FROM ratings")
    again = Store(tmp_path / "skyjo.sqlite3")
    await again.open()
    try:
        assert again.rating_of(subjects[0]).games == 1  # type: ignore[union-attr]
    finally:
        await again.close()
