"""Moves the server must refuse: out of turn, illegal, malformed, or not a player's to make.

Each refusal has a clear code, changes nothing anyone can see, and the
player goes on playing afterwards.
"""

from __future__ import annotations

import pytest

from server.netclient import ServerError

from .support import Client, table_with


def game_pushes(client: Client) -> int:
    return sum(p["type"] == "game" for p in client.pushes)


async def refused_move(client: Client, action: dict, code: str, *others: Client) -> str:
    """``action`` is refused with ``code``; nobody is sent an update; the server's reason."""
    before = {c: (game_pushes(c), c.last_game["seq"]) for c in (client, *others)}
    with pytest.raises(ServerError) as caught:
        await client.conn.act(action)
    assert caught.value.code == code, caught.value
    for c in (client, *others):
        await c.request("ping")  # anything sent meanwhile has arrived by now
        assert (game_pushes(c), c.last_game["seq"]) == before[c]
    return caught.value.message


async def test_illegal_and_out_of_turn_moves_are_refused_and_change_nothing(connect) -> None:
    alice, bob, carol = await connect("Alice"), await connect("Bob"), await connect("Carol")
    table = await table_with(alice, seats=2)
    with pytest.raises(ServerError) as caught:
        await alice.conn.act({"kind": "flip", "pos": 0})
    assert caught.value.code == "wrong_phase"  # no game yet
    await bob.request("join_table", table_id=table["table_id"])
    await bob.request("ready")
    await carol.request("spectate", table_id=table["table_id"])
    await alice.request("start_game")
    for client in (alice, bob, carol):
        await client.until(lambda client=client: client.game is not None)

    await alice.conn.act({"kind": "flip", "pos": 0})
    await bob.until(lambda: bob.game["seq"] == 1)
    everyone = (bob, carol)
    assert "face" in await refused_move(
        alice, {"kind": "flip", "pos": 0}, "illegal_action", *everyone
    )
    await refused_move(alice, {"kind": "flip", "player": 1, "pos": 5}, "not_your_seat", *everyone)
    await refused_move(alice, {"kind": "draw"}, "illegal_action", *everyone)  # flips first
    for malformed in ({"kind": "jump"}, {"kind": "flip", "pos": 12}, {"kind": "flip"}, {"pos": 1}):
        await refused_move(alice, malformed, "bad_field", *everyone)
    with pytest.raises(ServerError) as caught:
        await carol.conn.act({"kind": "flip", "pos": 3})
    assert caught.value.code == "not_seated"

    # The flips end; only the starter may play, and only a move of this phase.
    await alice.conn.act({"kind": "flip", "pos": 1})
    for pos in (0, 1):
        await bob.conn.act({"kind": "flip", "pos": pos})
    await alice.until(lambda: alice.view["phase"] == "choose")
    starter = alice.view["current_player"]
    mover, waiter = (alice, bob) if starter == 0 else (bob, alice)
    await waiter.until(lambda: waiter.view["phase"] == "choose")
    message = await refused_move(waiter, {"kind": "draw"}, "illegal_action", mover, carol)
    assert "not your turn" in message
    await refused_move(
        mover, {"kind": "swap", "pos": 2}, "illegal_action", waiter, carol
    )  # nothing drawn

    # And the game goes on: the starter draws and plays as if nothing happened.
    reply = await mover.conn.act({"kind": "draw"})
    await waiter.until(lambda: waiter.game["seq"] == reply["seq"])
    assert waiter.game["events"][0]["type"] == "card_drawn"
    assert mover.view["legal_actions"]
