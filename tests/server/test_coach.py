"""The coach over a real socket: ``hint`` answers from the asker's view, or says why not."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.bots.advice import advise, counter_for
from server.engine import Action, Event, PlayerView, Settings, event_from_dict
from server.netclient import ServerError

from .support import Client, table_with


async def two_players(connect, **options) -> tuple[Client, Client, dict]:
    alice, bob = await connect("Alice"), await connect("Bob")
    table = await table_with(alice, seats=2, **options)
    await bob.request("join_table", table_id=table["table_id"])
    await bob.request("ready")
    await alice.request("start_game")
    for client in (alice, bob):
        await client.until(lambda client=client: client.game is not None)
    return alice, bob, table


def round_events_received(client: Client) -> list[Event]:
    """The public events of the round in play, as this client was sent them."""
    events = [e for p in client.pushes if p["type"] == "game" for e in p["events"]]
    start = max(i for i, e in enumerate(events) if e["type"] == "round_started")
    return [event_from_dict(e) for e in events[start:]]


async def refused_hint(client: Client, code: str) -> str:
    with pytest.raises(ServerError) as caught:
        await client.request("hint")
    assert caught.value.code == code, caught.value
    return caught.value.message


async def test_a_hint_is_the_best_move_of_the_askers_own_view(connect) -> None:
    alice, bob, table = await two_players(connect)
    assert table["hints"] is True  # on unless the host turns them off

    # During the initial flips everyone may ask: a flip of their own.
    reply = await alice.request("hint")
    assert Action.from_dict(reply["hint"]["move"]) in PlayerView.from_dict(alice.view).legal_actions
    for pos in (0, 4):
        await alice.conn.act({"kind": "flip", "pos": pos})
    for pos in (0, 4):
        await bob.conn.act({"kind": "flip", "pos": pos})
    await alice.until(lambda: alice.view["phase"] == "choose")
    await bob.until(lambda: bob.view["phase"] == "choose")

    mover, waiter = (alice, bob) if alice.view["current_player"] == 0 else (bob, alice)
    assert "not your turn" in await refused_hint(waiter, "not_your_turn")
    for _ in range(2):  # choose, then with the drawn card in hand
        await mover.until(lambda: bool(mover.view["legal_actions"]))
        hint = (await mover.request("hint"))["hint"]
        # What the client was sent is enough to reach the very same advice: nothing else was used.
        view = PlayerView.from_dict(mover.view)
        advice = advise(view, counter_for(round_events_received(mover)), Settings())
        assert Action.from_dict(hint["move"]) == advice.best.action
        assert [Action.from_dict(m["move"]) for m in hint["moves"]] == [
            m.action for m in advice.moves
        ]
        assert hint["moves"][0]["given_away"] == 0
        assert all(m["given_away"] >= 0 for m in hint["moves"])
        assert {Action.from_dict(m["move"]) for m in hint["moves"]} == set(view.legal_actions)
        alternative = hint["alternative"]
        assert alternative is not None
        assert Action.from_dict(alternative["move"]).kind is not Action.from_dict(hint["move"]).kind
        if view.phase == "choose":
            await mover.conn.act({"kind": "draw"})
            await mover.until(lambda: mover.view["phase"] == "drawn")


async def test_a_table_with_hints_off_refuses_them(connect) -> None:
    alice, bob, table = await two_players(connect, hints=False)
    assert table["hints"] is False
    assert alice.last_table["hints"] is False
    listed = await bob.request("list_tables")
    assert [t["hints"] for t in listed["tables"] if t["table_id"] == table["table_id"]] == [False]
    assert "turned hints off" in await refused_hint(alice, "hints_off")
    assert "turned hints off" in await refused_hint(bob, "hints_off")


async def test_only_a_seated_player_in_a_round_gets_a_hint(connect) -> None:
    alice, carol = await connect("Alice"), await connect("Carol")
    await refused_hint(alice, "not_at_table")
    table = await table_with(alice, seats=2, bots=("greedy",))
    await refused_hint(alice, "wrong_phase")  # no game yet
    await carol.request("spectate", table_id=table["table_id"])
    await refused_hint(carol, "not_seated")
    with pytest.raises(ServerError) as caught:
        await alice.request("create_table", name="Other", seats=2, hints="yes")
    assert caught.value.code == "bad_field"


async def test_hints_off_survives_a_restart(tmp_path: Path, make_server) -> None:
    data = tmp_path / "shared"
    server = await make_server(data)
    alice = await Client.connect(server, "Alice")
    table = (await alice.request("create_table", name="Quiet", seats=2, hints=False))["table"]
    await alice.close()
    await server.stop()

    again = await make_server(data)
    alice = await Client.connect(again, token=alice.welcome.token)
    try:
        assert alice.welcome.resumed and alice.welcome.table_id == table["table_id"]
        await alice.until(lambda: alice.table is not None)
        assert alice.last_table["hints"] is False
    finally:
        await alice.close()
