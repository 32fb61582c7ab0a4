"""Coming back (or arriving) mid-round brings the round's public events so far, over real sockets."""

from __future__ import annotations

import random

from server.config import Pace

from .support import Client, same_update, table_with


def round_so_far(client: Client) -> list[dict]:
    """The events of the current round that ``client`` was sent as they happened."""
    events = [
        e for p in client.pushes if p["type"] == "game" and not p["catch_up"] for e in p["events"]
    ]
    starts = [i for i, e in enumerate(events) if e["type"] == "round_started"]
    return events[starts[-1] :]


async def test_a_player_who_drops_mid_round_gets_the_round_so_far_when_coming_back(
    make_server, connect
) -> None:
    server = await make_server(pace=Pace(bot_delay=0, grace_period=0.1, between_rounds=0))
    alice, bob = await connect("Alice", to=server), await connect("Bob", to=server)
    table = await table_with(alice, seats=3, bots=("greedy",))
    await bob.request("join_table", table_id=table["table_id"])
    await bob.request("ready")
    await alice.request("start_game")
    await bob.play(random.Random(1), stop=lambda: bob.game is not None and bob.game["seq"] >= 1)
    token = bob.welcome.token

    await bob.close()  # Bob drops; a bot plays for him after the grace time, Alice plays on
    # ... until it is her turn again: then nothing moves until she does.
    await alice.play(
        random.Random(2),
        stop=lambda: (
            alice.game["seq"] >= 10
            and alice.view["current_player"] == 0
            and alice.view["phase"] == "choose"
        ),
    )
    bob = await connect(token=token, to=server)
    assert bob.welcome.resumed
    catch_up = await bob.push("game")
    assert catch_up["catch_up"] is True and catch_up["view"]["seat"] == 2
    await same_update(alice, bob)
    assert catch_up["seq"] == alice.game["seq"]
    # Exactly the public events everyone at the table was sent this round, in order.
    assert catch_up["events"] == round_so_far(alice)
    assert len(catch_up["events"]) > 6
    reshuffles = [e for e in catch_up["events"] if e["type"] == "pile_reshuffled"]
    assert all(e["order"] is None for e in reshuffles)  # the pile's new order stays secret

    # A watcher arriving now gets the same round so far.
    carol = await connect("Carol", to=server)
    await carol.request("spectate", table_id=table["table_id"])
    watched = await carol.push("game")
    assert watched["catch_up"] and watched["events"] == catch_up["events"]
    assert watched["view"]["seat"] is None
