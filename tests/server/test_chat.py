"""Chat in the lobby and at tables: who hears what, limits, mutes."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from server.lobby.chat import LOBBY_HISTORY
from server.lobby.table import CHAT_HISTORY
from server.netclient import ServerError

from .support import TEST_LIMITS, Client, table_with


def heard(client: Client) -> list[tuple[str, str, str]]:
    return [(p["scope"], p["from_name"], p["text"]) for p in client.pushes if p["type"] == "chat"]


async def test_lobby_chat_reaches_the_lobby_and_table_chat_reaches_the_table(connect) -> None:
    alice, bob, carol, dan = [await connect(n) for n in ("Alice", "Bob", "Carol", "Dan")]
    table = await table_with(alice, seats=2)
    await bob.request("join_table", table_id=table["table_id"])
    await carol.request("spectate", table_id=table["table_id"])

    await bob.request("chat", text="good luck")  # at a table: table chat by default
    await dan.request("chat", text="anyone for a game?")  # in the lobby
    await alice.request("chat", text="hello lobby", scope="lobby")
    for client in (alice, bob, carol):
        await client.push("chat", lambda p: p["text"] == "good luck")
    await dan.push("chat", lambda p: p["text"] == "hello lobby")
    await dan.request("ping")  # anything for Dan was sent before this answer

    assert heard(dan) == [("lobby", "Dan", "anyone for a game?"), ("lobby", "Alice", "hello lobby")]
    assert heard(carol) == [("table", "Bob", "good luck")]
    chat = next(p for p in alice.pushes if p["type"] == "chat")
    assert chat["table_id"] == table["table_id"] and chat["from_id"] == bob.welcome.player_id


@pytest.mark.parametrize(
    ("text", "code"),
    [("x" * 301, "chat_too_long"), ("\x1b[2J cleared your screen", "bad_text"), ("  ", "bad_text")],
)
async def test_chat_text_is_limited_in_length_and_to_printable_characters(
    connect, text: str, code: str
) -> None:
    with pytest.raises(ServerError) as caught:
        await (await connect("Alice")).request("chat", text=text)
    assert caught.value.code == code


async def test_chat_is_rate_limited(connect) -> None:
    alice = await connect("Alice")
    codes = []
    for number in range(8):
        try:
            await alice.request("chat", text=f"spam {number}")
            codes.append("ok")
        except ServerError as exc:
            codes.append(exc.code)
    assert codes[:5] == ["ok"] * 5 and "rate_limited" in codes[5:]


async def test_a_muted_player_is_not_heard_even_after_reconnecting(connect) -> None:
    alice, bob = await connect("Alice"), await connect("Bob")
    reply = await alice.request("mute", player_id=bob.welcome.player_id)
    assert reply["muted"] == [bob.welcome.player_id]
    await alice.close()
    alice = await connect(token=alice.welcome.token)

    await bob.request("chat", text="you cannot hear me")
    await bob.request("chat", text="nor this")
    await alice.request("mute", player_id=bob.welcome.player_id, muted=False)
    await bob.request("chat", text="now you can")
    await alice.push("chat")
    assert heard(alice) == [("lobby", "Bob", "now you can")]


async def test_only_real_players_are_muted_and_not_without_end(make_server) -> None:
    server = await make_server(limits=replace(TEST_LIMITS, max_mutes=2))
    alice, bob, carol, dave = [
        await Client.connect(server, n) for n in ("Alice", "Bob", "Carol", "Dave")
    ]
    with pytest.raises(ServerError) as caught:
        await alice.request("mute", player_id=dave.welcome.player_id + 1000)
    assert caught.value.code == "not_found"
    for other in (bob, carol):
        await alice.request("mute", player_id=other.welcome.player_id)
    with pytest.raises(ServerError) as caught:
        await alice.request("mute", player_id=dave.welcome.player_id)
    assert caught.value.code == "too_many_mutes"
    again = await alice.request("mute", player_id=bob.welcome.player_id)  # already muted: fine
    assert again["muted"] == sorted([bob.welcome.player_id, carol.welcome.player_id])
    await alice.request("mute", player_id=bob.welcome.player_id, muted=False)
    await alice.request("mute", player_id=dave.welcome.player_id)
    for client in (alice, bob, carol, dave):
        await client.close()


async def test_the_lobby_chat_so_far_survives_a_restart_of_the_server(
    tmp_path: Path, make_server
) -> None:
    data = tmp_path / "shared"
    server = await make_server(data)
    alice, bob = await Client.connect(server, "Alice"), await Client.connect(server, "Bob")
    await alice.request("chat", text="anyone for a game tonight?")
    await bob.request("chat", text="me, at nine")
    for client in (alice, bob):
        await client.close()
    await server.stop()

    again = await make_server(data)
    carol = await Client.connect(again, "Carol")
    try:
        history = await carol.push("lobby_chat")
        lines = [(line["from_name"], line["text"]) for line in history["lines"]]
        assert lines == [("Alice", "anyone for a game tonight?"), ("Bob", "me, at nine")]
        # The line as it was pushed, and chat goes on after it.
        assert history["lines"][0]["from_id"] == alice.welcome.player_id
        await carol.request("chat", text="count me in")
        dan = await Client.connect(again, "Dan")
        later = await dan.push("lobby_chat")
        assert [line["text"] for line in later["lines"]][-2:] == ["me, at nine", "count me in"]
        await dan.close()
    finally:
        await carol.close()


async def test_the_stored_lobby_chat_keeps_only_the_latest_lines(
    tmp_path: Path, make_server
) -> None:
    data = tmp_path / "shared"
    server = await make_server(data, limits=replace(TEST_LIMITS, chat_burst=100))
    alice = await Client.connect(server, "Alice")
    for number in range(LOBBY_HISTORY + 5):
        await alice.request("chat", text=f"line {number}")
    await alice.close()
    await server.stop()
    with sqlite3.connect(data / "skyjo.sqlite3") as db:
        assert db.execute("SELECT COUNT(*) FROM lobby_chat").fetchone()[0] == LOBBY_HISTORY

    again = await make_server(data)
    bob = await Client.connect(again, "Bob")
    try:
        history = await bob.push("lobby_chat")
        wanted = [f"line {number}" for number in range(5, LOBBY_HISTORY + 5)]
        assert [line["text"] for line in history["lines"]] == wanted
    finally:
        await bob.close()


def told_on_arrival(client: Client, after: int = 0) -> list[tuple[str, str]]:
    """The table's chat so far, as the ``table`` push that brought ``client`` there said it
    (the latest such push at index >= ``after``)."""
    arrivals = [p for p in client.pushes[after:] if p["type"] == "table" and "chat" in p]
    assert arrivals, "no table push with the chat so far"
    return [(line["from_name"], line["text"]) for line in arrivals[-1]["chat"]]


async def test_whoever_arrives_at_a_table_is_told_its_chat_so_far(connect) -> None:
    alice, bob, carol, dee = [await connect(n) for n in ("Alice", "Bob", "Carol", "Dee")]
    table = await table_with(alice, seats=3)
    assert told_on_arrival(alice) == []  # a new table: nothing said yet
    await bob.request("join_table", table_id=table["table_id"])
    await alice.request("chat", text="[b]hi, markup and all")
    await bob.request("chat", text="hello")
    await carol.request("chat", text="only the lobby hears this", scope="lobby")
    mark = len(alice.pushes)

    await carol.request("spectate", table_id=table["table_id"])  # arrives: told it, in order
    assert told_on_arrival(carol) == [("Alice", "[b]hi, markup and all"), ("Bob", "hello")]
    await alice.until(lambda: alice.table["watchers"] == ["Carol"])
    assert not any("chat" in p for p in alice.pushes[mark:] if p["type"] == "table")

    await dee.request("mute", player_id=bob.welcome.player_id)
    await carol.request("leave_table")
    await dee.request("join_table", table_id=table["table_id"])
    assert told_on_arrival(dee) == [("Alice", "[b]hi, markup and all")]  # not whom Dee muted
    line = next(p for p in carol.pushes if p["type"] == "table" and "chat" in p)["chat"][0]
    assert line["type"] == "chat" and line["table_id"] == table["table_id"]  # as it was pushed


async def test_a_tables_chat_survives_a_restart_of_the_server_and_goes_with_the_table(
    tmp_path: Path, make_server
) -> None:
    data = tmp_path / "shared"
    server = await make_server(data, limits=replace(TEST_LIMITS, chat_burst=100))
    alice, bob = await Client.connect(server, "Alice"), await Client.connect(server, "Bob")
    table = await table_with(alice, seats=2)
    await bob.request("join_table", table_id=table["table_id"])
    for number in range(CHAT_HISTORY + 5):
        await (alice, bob)[number % 2].request("chat", text=f"line {number}")
    tokens = alice.welcome.token, bob.welcome.token
    for client in (alice, bob):
        await client.close()
    await server.stop()
    with sqlite3.connect(data / "skyjo.sqlite3") as db:
        assert db.execute("SELECT COUNT(*) FROM table_chat").fetchone()[0] == CHAT_HISTORY

    again = await make_server(data)
    alice = await Client.connect(again, token=tokens[0])
    try:
        assert alice.welcome.resumed
        wanted = [f"line {number}" for number in range(5, CHAT_HISTORY + 5)]
        assert [text for _, text in told_on_arrival(alice)] == wanted
        await alice.request("chat", text="still here")
        bob = await Client.connect(again, token=tokens[1])
        assert told_on_arrival(bob)[-2:] == [
            ("Alice", f"line {CHAT_HISTORY + 4}"),
            ("Alice", "still here"),
        ]
        await bob.request("leave_table")
        await bob.close()
        await alice.request("leave_table")  # the last person leaves: the table closes
    finally:
        await alice.close()
    await again.stop()
    with sqlite3.connect(data / "skyjo.sqlite3") as db:
        assert db.execute("SELECT COUNT(*) FROM table_chat").fetchone()[0] == 0
