"""What people are told of each other, over real sockets: the lobby's earlier chat on
arriving, who watches a table, and who is away with how long before a bot plays for them."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from server.config import Pace
from server.netclient import ServerError

from .support import TEST_LIMITS, Client, table_with

CHATTY = replace(TEST_LIMITS, chat_per_second=1000.0, chat_burst=1000)


def history(client: Client, after: int = 0) -> list[tuple[str, str]]:
    """The lines of the latest ``lobby_chat`` push at index >= ``after``."""
    pushes = [p for p in client.pushes[after:] if p["type"] == "lobby_chat"]
    assert pushes, "no lobby_chat push"
    return [(line["from_name"], line["text"]) for line in pushes[-1]["lines"]]


async def test_someone_arriving_in_the_lobby_is_sent_its_latest_chat_bounded(
    make_server, connect
) -> None:
    server = await make_server(limits=CHATTY)
    alice, muter = await connect("Alice", to=server), await connect("Muter", to=server)
    await muter.request("mute", player_id=alice.welcome.player_id)
    for number in range(35):
        await alice.request("chat", text=f"line {number}", scope="lobby")

    bob = await connect("Bob", to=server)
    # Sent before the welcome: the newest 30 lines, oldest first.
    assert history(bob) == [("Alice", f"line {n}") for n in range(5, 35)]
    table = await table_with(bob, seats=2)
    await bob.request("chat", text="only the table hears this")
    await alice.request("chat", text="while Bob is seated", scope="lobby")
    mark = len(bob.pushes)
    await bob.request("leave_table")  # back in the lobby: told what was said meanwhile
    assert history(bob, mark)[-1] == ("Alice", "while Bob is seated")
    assert ("Bob", "only the table hears this") not in history(bob, mark)
    assert table["table_id"]

    # Nobody is sent the lines of a player they muted, not even as history.
    back = await connect(token=muter.welcome.token, to=server)
    assert history(back) == []


async def test_the_table_names_who_watches_and_how_long_an_away_player_has(
    make_server, connect
) -> None:
    server = await make_server(pace=Pace(bot_delay=0, grace_period=600, between_rounds=0))
    alice, bob = await connect("Alice", to=server), await connect("Bob", to=server)
    carol = await connect("Carol", to=server)
    table = await table_with(alice, seats=2)
    await bob.request("join_table", table_id=table["table_id"])
    await carol.request("spectate", table_id=table["table_id"])
    await alice.until(lambda: alice.table["watchers"] == ["Carol"])
    assert alice.table["spectators"] == 1
    await bob.request("ready")
    await alice.request("start_game")
    await alice.until(lambda: alice.table["status"] == "playing")
    assert alice.table["seats"][1]["autoplay_in"] is None  # Bob is here

    await bob.close()
    await alice.until(lambda: not alice.table["seats"][1]["connected"])
    assert 0 < alice.last_table["seats"][1]["autoplay_in"] <= 600
    assert carol.table["seats"][1]["autoplay_in"] == alice.table["seats"][1]["autoplay_in"]
    await carol.close()  # a watcher who drops is no longer named
    await alice.until(lambda: alice.table["watchers"] == [])


def removals(client: Client, after: int = 0) -> list[dict[str, Any]]:
    """What the ``table`` pushes at index >= ``after`` said of someone the host removed."""
    return [p["removed"] for p in client.pushes[after:] if p["type"] == "table" and "removed" in p]


async def test_the_table_is_told_whom_the_host_removed_and_only_then(connect) -> None:
    alice, bob = await connect("Alice"), await connect("Bob")
    carol, dee = await connect("Carol"), await connect("Dee")
    table = await table_with(alice, seats=4)
    for guest in (bob, carol, dee):
        await guest.request("join_table", table_id=table["table_id"])
    await alice.until(lambda: sum(s is not None for s in alice.table["seats"]) == 4)
    mark = {client: len(client.pushes) for client in (alice, bob, carol, dee)}

    # Refused removals tell nobody anything: by a guest, of an empty seat, of the host.
    with pytest.raises(ServerError, match="host"):
        await carol.request("kick", seat=1)
    await dee.request("leave_table")  # on his own: his seat empties, nobody removed him
    await alice.until(lambda: alice.table["seats"][3] is None)
    with pytest.raises(ServerError, match="empty"):
        await alice.request("kick", seat=3)
    with pytest.raises(ServerError, match="yourself"):
        await alice.request("kick", seat=0)
    await carol.until(lambda: carol.table["seats"][3] is None)
    assert [removals(c, mark[c]) for c in (alice, bob, carol)] == [[], [], []]

    await alice.request("kick", seat=1)
    told = {"player_id": bob.welcome.player_id, "name": "Bob", "by": alice.welcome.player_id}
    await carol.until(lambda: removals(carol, mark[carol]) == [told])
    assert removals(alice, mark[alice]) == [told]
    assert carol.table["seats"][1] is None  # the push that says so is the one without him
    # Bob is told on his own (left_table), and no longer gets the table's pushes.
    assert (await bob.push("left_table", after=mark[bob]))["reason"] == "kicked"
    assert removals(bob, mark[bob]) == []
    await alice.request("add_bot", level="random")  # later changes say nothing of it
    await carol.until(lambda: carol.table["seats"][1] is not None)
    assert removals(carol, mark[carol]) == [told]


async def test_someone_removed_during_a_game_is_told_to_the_table(connect) -> None:
    alice = await connect("Alice")
    bob, carol = await connect("Bob"), await connect("Carol")
    table = await table_with(alice, seats=3)
    for guest in (bob, carol):
        await guest.request("join_table", table_id=table["table_id"])
        await guest.request("ready")
    await alice.request("start_game")
    await carol.until(lambda: carol.table["status"] == "playing")
    mark = len(carol.pushes)
    await alice.request("kick", seat=1)  # a bot plays Bob's seat to the end
    await carol.until(lambda: bool(removals(carol, mark)))
    assert removals(carol, mark) == [
        {"player_id": bob.welcome.player_id, "name": "Bob", "by": alice.welcome.player_id}
    ]
    assert carol.table["seats"][1]["autoplay"]
