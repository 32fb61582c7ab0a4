"""The lobby over real sockets: the handshake, names, tables, host powers."""

from __future__ import annotations

from dataclasses import replace

import pytest

from server.netclient import ServerError
from server.protocol import PROTOCOL_VERSION

from .support import TEST_LIMITS, Client, table_with


async def refusal(error_code: str, client: Client, type_: str, **fields: object) -> ServerError:
    """Send a request that must fail with ``error_code``; the error."""
    with pytest.raises(ServerError) as caught:
        await client.request(type_, **fields)
    assert caught.value.code == error_code, caught.value
    return caught.value


async def refused(error_code: str, client: Client, type_: str, **fields: object) -> str:
    """Send a request that must fail with ``error_code``; the server's message."""
    return (await refusal(error_code, client, type_, **fields)).message


# -- the handshake -------------------------------------------------------------------


async def test_a_client_of_another_version_is_told_and_disconnected(connect) -> None:
    client = await connect()
    with pytest.raises(ServerError) as caught:
        await client.conn.request({"type": "hello", "version": PROTOCOL_VERSION + 1, "name": "Al"})
    assert caught.value.code == "version_mismatch" and "version" in caught.value.message
    await client.until(lambda: client.lost is not None)
    assert client.lost.code == "version_mismatch"


async def test_hello_comes_first_and_only_once(connect) -> None:
    client = await connect()
    await refused("hello_first", client, "list_tables")
    await client.conn.hello(name="Alice")
    await refused("already_welcomed", client, "hello", version=PROTOCOL_VERSION, name="Alice")
    await refused("bad_token", await connect(), "hello", version=PROTOCOL_VERSION, token="nope")


@pytest.mark.parametrize(
    ("name", "why", "reason"),
    [
        ("   ", "visible", "empty"),
        ("\x1b[31mRed", "printable", "unprintable"),
        ("Zero\u200bWidth", "printable", "unprintable"),
        ("Bell\x07", "printable", "unprintable"),
        ("x" * 21, "at most 20", "too_long"),
        ("two  spaces", "two spaces", "spaces"),
    ],
)
async def test_names_that_could_fool_a_terminal_or_a_person_are_refused(
    connect, name: str, why: str, reason: str
) -> None:
    error = await refusal("bad_name", await connect(), "hello", version=PROTOCOL_VERSION, name=name)
    assert why in error.message
    assert error.details["reason"] == reason  # for a program: which of the rules
    assert ("name_max_length" in error.details) == (reason == "too_long")


async def test_a_name_too_long_is_told_with_the_servers_own_limit(make_server, connect) -> None:
    """The limit comes with the refusal: a hello refused gets no welcome, and so no limits."""
    server = await make_server(limits=replace(TEST_LIMITS, name_max_length=12))
    for request, fields in (("hello", {"version": PROTOCOL_VERSION}), ("set_name", {})):
        client = await connect(to=server)
        if request == "set_name":
            await client.conn.hello()  # needs_name: a name comes next
        error = await refusal("bad_name", client, request, name="Bartholomew-Max", **fields)
        assert error.details == {"reason": "too_long", "name_max_length": 12}, request
        assert "at most 12" in error.message
    assert (await connect("Bartholomew", to=server)).welcome.name == "Bartholomew"  # 11: fine


async def test_names_are_unique_among_people_online_ignoring_case(connect) -> None:
    alice = await connect("Alice")
    await refused("name_taken", await connect(), "hello", version=PROTOCOL_VERSION, name="aLiCe")
    token = alice.welcome.token
    await alice.close()

    # Once Alice is gone her name is free: whoever takes it gets a new token.
    again = await connect("alice")
    assert again.welcome.player_id == alice.welcome.player_id
    assert again.welcome.name == "alice" and again.welcome.token != token
    await refused("bad_token", await connect(), "hello", version=PROTOCOL_VERSION, token=token)


async def test_a_token_brings_the_same_player_back_and_replaces_the_older_connection(
    connect,
) -> None:
    alice = await connect("Alice")
    again = await connect(token=alice.welcome.token)
    assert (again.welcome.player_id, again.welcome.name) == (alice.welcome.player_id, "Alice")
    await alice.until(lambda: alice.lost is not None)
    assert alice.lost.code == "replaced"


# -- tables --------------------------------------------------------------------------


async def test_public_tables_are_listed_and_private_ones_are_joined_by_code(connect) -> None:
    alice, bob, carol = await connect("Alice"), await connect("Bob"), await connect("Carol")
    await table_with(alice, seats=3)
    private = await table_with(bob, seats=2, private=True)

    listed = (await carol.request("list_tables"))["tables"]
    assert [t["name"] for t in listed] == ["Test table"]
    assert listed[0]["seats_taken"] == 1 and listed[0]["seats_total"] == 3
    assert listed[0]["status"] == "waiting"
    await refused("not_found", carol, "join_table", table_id=private["table_id"])
    joined = (await carol.request("join_table", code=private["code"].lower()))["table"]
    assert joined["your_seat"] == 1 and [s["name"] for s in joined["seats"]] == ["Bob", "Carol"]
    await refused("table_full", await connect("Dan"), "join_table", code=private["code"])
    await refused("already_at_table", carol, "join_table", table_id=listed[0]["table_id"])


async def test_lobby_players_are_pushed_the_table_list_when_it_changes(connect) -> None:
    watcher, alice = await connect("Watcher"), await connect("Alice")
    await table_with(alice, seats=5)
    pushed = await watcher.push("tables", lambda p: len(p["tables"]) == 1)
    assert pushed["tables"][0]["seats_total"] == 5


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"seats": 1}, "bad_seats"),
        ({"seats": 9}, "bad_seats"),
        ({"seats": 4, "settings": {"end-score": 5}}, "bad_settings"),
        ({"seats": 4, "settings": {"starter": "youngest"}}, "bad_settings"),
        ({"seats": 4, "settings": {"jokers": "on"}}, "bad_settings"),
        ({"seats": 4, "turn_timer": 100000}, "bad_timer"),
        ({"seats": 4, "name": "\x1b]0;pwned\x07"}, "bad_field"),
    ],
)
async def test_a_table_with_bad_settings_is_refused_with_the_reason(connect, fields, code) -> None:
    await refused(code, await connect("Alice"), "create_table", **{"name": "T", **fields})


async def test_every_variant_can_be_chosen_per_table(connect) -> None:
    settings = {
        "starter": "closer-starts",
        "clear-columns": "off",
        "closer-penalty": "off",
        "end-score": 250,
    }
    table = await table_with(await connect("Alice"), settings=settings, turn_timer=30)
    assert table["settings"] == settings and table["turn_timer"] == 30


# -- host powers and readiness -------------------------------------------------------


async def test_the_host_adds_and_removes_bots_and_kicks_people(connect) -> None:
    alice, bob = await connect("Alice"), await connect("Bob")
    table = await table_with(alice, seats=4)
    await bob.request("join_table", table_id=table["table_id"])
    await refused("not_host", bob, "add_bot", level="random")
    await refused("bad_level", alice, "add_bot", level="godlike")

    seat = (await alice.request("add_bot", level="expert"))["seat"]
    assert alice.table["seats"][seat]["kind"] == "bot"
    assert alice.table["seats"][seat]["level"] == "expert"
    await refused("not_found", alice, "remove_bot", seat=1)  # Bob is not a bot
    await alice.request("remove_bot", seat=seat)
    await alice.until(lambda: alice.table["seats"][seat] is None)

    await alice.request("kick", seat=1)
    kicked = await bob.push("left_table")
    assert kicked["reason"] == "kicked" and kicked["table_id"] == table["table_id"]
    await alice.until(lambda: alice.table["seats"][1] is None)
    await bob.request("create_table", name="Bob's own", seats=2)  # Bob is back in the lobby


async def test_the_game_starts_with_two_seats_filled_and_everyone_ready(connect) -> None:
    alice, bob = await connect("Alice"), await connect("Bob")
    table = await table_with(alice, seats=4)
    await refused("not_enough_players", alice, "start_game")
    await bob.request("join_table", table_id=table["table_id"])
    assert "Bob" in await refused("not_ready", alice, "start_game")
    await refused("not_host", bob, "start_game")
    await bob.request("ready")
    await alice.until(lambda: alice.table["seats"][1]["ready"])
    await alice.request("start_game")
    game = await bob.push("game")
    assert game["seq"] == 0 and game["view"]["phase"] == "initial_flips"
    assert game["view"]["seat"] == 1 and len(game["view"]["tableaux"]) == 2
    await refused("wrong_phase", await connect("Carol"), "join_table", table_id=table["table_id"])


async def test_when_the_host_leaves_the_next_person_hosts_and_an_empty_table_closes(
    connect,
) -> None:
    alice, bob, carol = await connect("Alice"), await connect("Bob"), await connect("Carol")
    table = await table_with(alice, seats=3, bots=("random",))
    await bob.request("join_table", table_id=table["table_id"])
    await carol.request("spectate", table_id=table["table_id"])
    await alice.request("leave_table")
    await bob.until(lambda: bob.table["host_id"] == bob.welcome.player_id)
    await bob.request("leave_table")  # only a bot is left: the table closes
    closed = await carol.push("left_table")
    assert closed["reason"] == "closed"
    assert (await carol.request("list_tables"))["tables"] == []


async def test_numbers_beyond_64_bits_and_long_values_get_short_clear_errors(connect) -> None:
    alice = await connect("Alice")
    message = await refused("bad_field", alice, "game_record", game_id=2**64 - 1)
    assert "game_id" in message
    await refused("bad_field", alice, "mute", player_id=2**63)
    message = await refused(
        "bad_settings", alice, "create_table", name="t", seats=2, settings={"starter": "x" * 5000}
    )
    assert "starter" in message and len(message) <= 200
    assert (await alice.request("ping")) is not None  # and the connection goes on
