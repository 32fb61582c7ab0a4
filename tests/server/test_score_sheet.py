"""A catch-up brings the earlier rounds' scores: a score sheet of the whole game, over real sockets."""

from __future__ import annotations

import random

from .support import Client, table_with


def scores_seen_live(client: Client) -> list[dict]:
    """The ``round_scored`` and ``totals_updated`` events ``client`` was sent as they happened."""
    kinds = ("round_scored", "totals_updated")
    return [
        e
        for p in client.pushes
        if p["type"] == "game" and not p["catch_up"]
        for e in p["events"]
        if e["type"] in kinds
    ]


async def test_a_watcher_arriving_in_round_two_gets_round_one_scores(make_server, connect) -> None:
    server = await make_server()
    alice = await connect("Alice", to=server)
    table = await table_with(alice, seats=2, bots=("greedy",), settings={"end-score": 1000})
    await alice.request("start_game")
    await alice.play(random.Random(3), stop=lambda: alice.view["round"] == 2)
    first_round = scores_seen_live(alice)
    assert [e["type"] for e in first_round] == ["round_scored", "totals_updated"]

    carol = await connect("Carol", to=server)
    await carol.request("spectate", table_id=table["table_id"])
    watched = await carol.push("game")
    assert watched["catch_up"] and watched["view"]["round"] == 2
    assert watched["earlier_scores"] == first_round  # round 1's, not the round in play
    assert watched["earlier_scores"][1]["round"] == 1

    # A live update carries no sheet: the events say each round's scores as they come.
    await alice.play(random.Random(4), stop=lambda: alice.game["seq"] > watched["seq"])
    live = await carol.push("game", where=lambda p: not p["catch_up"])
    assert "earlier_scores" not in live
