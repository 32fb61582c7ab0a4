"""A private table's games are seen only by those who sat or watched there, over real sockets."""

from __future__ import annotations

import asyncio
import random

import pytest

from server.netclient import ServerError

from .support import table_with

SHORT_GAME = {"end-score": 10}


async def test_a_private_game_is_listed_and_replayed_only_for_those_who_were_there(
    connect,
) -> None:
    alice, bob, carol, eve, dan = [
        await connect(n) for n in ("Alice", "Bob", "Carol", "Eve", "Dan")
    ]
    private = await table_with(alice, seats=2, private=True, settings=SHORT_GAME)
    await bob.request("join_table", code=private["code"])
    await carol.request("spectate", code=private["code"])
    await bob.request("ready")
    await alice.request("start_game")
    await eve.request("spectate", code=private["code"])
    await eve.until(lambda: eve.game is not None)
    await eve.request("leave_table")  # Eve watched a while, then left
    await asyncio.gather(alice.play(random.Random(1)), bob.play(random.Random(2)))
    secret = (await carol.push("game_over"))["game_id"]

    # A public game, for comparison: everyone sees that one.
    public = await table_with(dan, seats=2, bots=("greedy",), settings=SHORT_GAME)
    await dan.request("start_game")
    await dan.play(random.Random(3))
    open_game = (await dan.push("game_over"))["game_id"]
    assert public["private"] is False

    for there in (alice, bob, carol, eve):
        listed = [g["game_id"] for g in (await there.request("recent_games"))["games"]]
        assert listed == [open_game, secret]
        record = (await there.request("game_record", game_id=secret))["record"]
        assert [s["name"] for s in record["seats"]] == ["Alice", "Bob"]

    assert [g["game_id"] for g in (await dan.request("recent_games"))["games"]] == [open_game]
    with pytest.raises(ServerError) as refused:
        await dan.request("game_record", game_id=secret)
    assert refused.value.code == "not_found"  # the same answer as for a game that never was
    assert (await dan.request("game_record", game_id=open_game))["record"]["seats"]
