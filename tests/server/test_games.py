"""Whole games over real sockets: people and bots, watchers, the end, the rematch."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

from server.engine.records import replay
from server.store import PlayerResult

from .support import Client, table_with

SHORT_GAME = {"end-score": 40}


def game_pushes(client: Client) -> list[dict]:
    return [p for p in client.pushes if p["type"] == "game"]


async def test_two_people_and_two_bots_play_a_whole_game_that_is_stored(connect) -> None:
    alice, bob, carol = await connect("Alice"), await connect("Bob"), await connect("Carol")
    table = await table_with(alice, bots=("random", "greedy"), settings=SHORT_GAME)
    await bob.request("join_table", table_id=table["table_id"])
    await carol.request("spectate", table_id=table["table_id"])
    await bob.request("ready")
    await alice.request("start_game")

    await asyncio.gather(alice.play(random.Random(1)), bob.play(random.Random(2)))
    await carol.push("game_over")

    over = [await c.push("game_over") for c in (alice, bob, carol)]
    assert over[0] == over[1] == over[2]
    assert over[0]["names"] == ["Alice", "Random bot 1", "Greedy bot 2", "Bob"]
    assert max(over[0]["totals"]) >= 40
    assert over[0]["winners"] == [
        seat for seat, total in enumerate(over[0]["totals"]) if total == min(over[0]["totals"])
    ]
    # Nobody missed an update: every client saw the game's updates in order, without gaps.
    for client in (alice, bob, carol):
        seqs = [p["seq"] for p in game_pushes(client)]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    # The watcher sees the public view only and has no moves.
    for push in game_pushes(carol):
        assert push["view"]["seat"] is None and push["view"]["legal_actions"] == []
    assert alice.table["status"] == "finished"

    record = (await alice.request("game_record", game_id=over[0]["game_id"]))["record"]
    assert list(replay(record).totals) == over[0]["totals"]
    stats = (await bob.request("stats"))["stats"]
    assert stats["name"] == "Bob" and stats["games"] == 1
    assert stats["wins"] == (1 if 3 in over[0]["winners"] else 0)
    assert stats["rounds"] == len(record["rounds"])
    bobs_scores = [r["final_scores"][3] for r in record["rounds"]]  # after the closer's penalty
    assert stats["mean_round_score"] == round(sum(bobs_scores) / len(bobs_scores), 2)
    board = (await carol.request("leaderboard"))["entries"]
    assert sorted(e["name"] for e in board) == ["Alice", "Bob"]  # bots and watchers have none
    games = (await carol.request("recent_games"))["games"]
    assert games[0]["game_id"] == over[0]["game_id"] and games[0]["names"] == over[0]["names"]
    assert games[0]["bots"] == [None, "random", "greedy", None]  # a client names bots with it


async def test_a_rematch_keeps_the_seats_and_deals_a_new_game(connect) -> None:
    alice, bob = await connect("Alice"), await connect("Bob")
    table = await table_with(alice, seats=3, bots=("greedy",), settings={"end-score": 10})
    await bob.request("join_table", code=table["code"])
    await bob.request("ready")
    await alice.request("start_game")
    await asyncio.gather(alice.play(random.Random(3)), bob.play(random.Random(4)))
    first_game = len(alice.pushes)
    seats_before = [s["name"] for s in alice.table["seats"]]
    assert seats_before == ["Alice", "Greedy bot 1", "Bob"]

    await alice.request("rematch")
    assert alice.table["status"] == "finished" and alice.table["rematch"] == [0]
    await bob.request("rematch")
    started = await alice.push("game", lambda p: p["seq"] == 0, after=first_game)
    assert started["view"]["round"] == 1 and started["view"]["totals"] == [0, 0, 0]
    await alice.until(lambda: alice.table["status"] == "playing")
    assert [s["name"] for s in alice.table["seats"]] == seats_before


async def test_between_rounds_the_next_round_waits_for_everyone_to_be_ready(
    make_server, connect
) -> None:
    from server.config import Pace

    server = await make_server(pace=Pace(bot_delay=0, between_rounds=600))
    alice, bob = await connect("Alice", to=server), await connect("Bob", to=server)
    # The end score is high so that the first round cannot end the game.
    table = await table_with(alice, seats=2, settings={"end-score": 1000})
    await bob.request("join_table", table_id=table["table_id"])
    await bob.request("ready")
    await alice.request("start_game")

    def round_over(client: Client) -> Callable[[], bool]:
        return lambda: client.last_table["status"] == "between_rounds"

    await asyncio.gather(
        *(c.play(random.Random(5), stop=round_over(c), ready=False) for c in (alice, bob))
    )
    summary = alice.view
    assert summary["phase"] == "round_over" and summary["round_scores"] is not None
    assert all(None not in t["cards"] or t["removed_columns"] for t in summary["tableaux"])
    assert 0 < alice.table["next_round_in"] <= 600

    await alice.request("ready")
    await bob.until(lambda: bob.table["seats"][0]["ready"])
    await bob.request("ping")
    assert bob.table["status"] == "between_rounds"  # Bob is not ready yet
    await bob.request("ready")
    await alice.until(lambda: alice.table["status"] == "playing" and alice.view["round"] == 2)


async def test_a_shared_win_counts_for_every_winner_in_statistics_and_leaderboard(
    server, connect
) -> None:
    alice, bob, carol = await connect("Alice"), await connect("Bob"), await connect("Carol")
    ids = [c.welcome.player_id for c in (alice, bob, carol)]
    # Two stored games (the same path as a finished table): Alice and Bob share
    # the first win, Carol wins the second alone.
    tie = [
        PlayerResult(ids[0], True, [10, 5]),
        PlayerResult(ids[1], True, [3, 12]),
        PlayerResult(ids[2], False, [20, 30]),
    ]
    await server.store.finish_game(
        "t", ["Alice", "Bob", "Carol"], [15, 15, 50], [0, 1], {}, tie, table_id="t", meta={}
    )
    alone = [PlayerResult(ids[0], False, [40]), PlayerResult(ids[2], True, [-4])]
    await server.store.finish_game(
        "t", ["Alice", "Carol"], [40, -4], [1], {}, alone, table_id="t", meta={}
    )
    stats = {c.welcome.name: (await c.request("stats"))["stats"] for c in (alice, bob, carol)}
    assert [(s["games"], s["wins"], s["rounds"]) for s in stats.values()] == [
        (2, 1, 3),
        (1, 1, 2),
        (2, 1, 3),
    ]
    assert [s["mean_round_score"] for s in stats.values()] == [
        round(55 / 3, 2),
        7.5,
        round(46 / 3, 2),
    ]
    board = (await alice.request("leaderboard"))["entries"]
    # Equal wins: the better win rate first, then more games, then the lower mean round score.
    assert [(e["rank"], e["name"], e["wins"], e["win_rate"]) for e in board] == [
        (1, "Bob", 1, 1.0),
        (2, "Carol", 1, 0.5),
        (3, "Alice", 1, 0.5),
    ]
