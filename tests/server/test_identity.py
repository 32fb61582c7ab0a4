"""Trusted in-process connections (the SSH front door, the local game): identities and names."""

from __future__ import annotations

import pytest

from server.app import SkyjoServer
from server.netclient import ServerConnection, ServerError
from server.protocol import PROTOCOL_VERSION

from .support import Client

KEY_A = "ssh-key:SHA256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
KEY_B = "ssh-key:SHA256:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"


@pytest.fixture
async def in_process(server: SkyjoServer):
    clients: list[Client] = []

    async def open_client(identity: str | None) -> Client:
        reader, writer = await server.open_in_process(identity)
        client = Client(ServerConnection.from_streams(reader, writer))
        clients.append(client)
        return client

    yield open_client
    for client in clients:
        await client.close()


async def test_a_new_key_chooses_a_name_which_it_then_owns(in_process, connect) -> None:
    first = await in_process(KEY_A)
    welcome = await first.conn.hello()
    assert welcome.needs_name and welcome.player_id is None and welcome.name is None
    with pytest.raises(ServerError) as caught:
        await first.request("list_tables")
    assert caught.value.code == "name_required"
    welcome = await first.conn.set_name("Alice")
    assert not welcome.needs_name and welcome.name == "Alice"
    await first.close()

    # The key is remembered: it logs straight in as Alice.
    again = await in_process(KEY_A)
    assert (await again.conn.hello()).name == "Alice"
    await again.close()

    # Nobody else may take the name: not a guest, not a TCP client, not another key.
    for other in (await in_process(None), await connect(), await in_process(KEY_B)):
        with pytest.raises(ServerError) as caught:
            await other.request("hello", version=PROTOCOL_VERSION, name="alice")
        assert caught.value.code == "name_reserved"


async def test_a_key_may_ask_for_a_free_name_and_rename_later(in_process) -> None:
    client = await in_process(KEY_B)
    assert (await client.conn.hello(name="Bob")).name == "Bob"
    renamed = await client.conn.set_name("Robert")
    assert renamed.name == "Robert"
    # Not while at a table, even watching: the table knows you by your name.
    host = await in_process(KEY_A)
    await host.conn.hello(name="Alice")
    table = (await host.request("create_table", name="Alice's", seats=2))["table"]
    await client.request("spectate", table_id=table["table_id"])
    with pytest.raises(ServerError) as caught:
        await client.conn.set_name("Bobby")
    assert caught.value.code == "wrong_phase"
    await client.request("leave_table")
    assert (await client.conn.set_name("Bobby")).name == "Bobby"
    await client.request("set_name", name="Robert")
    await client.close()
    assert (await (await in_process(KEY_B)).conn.hello()).name == "Robert"


@pytest.mark.parametrize("by_name", [None, "alice"])
async def test_a_key_coming_back_returns_to_its_seat(
    by_name: str | None, in_process, connect
) -> None:
    """``ssh skyjo@host`` (no name) or ``ssh alice@host`` with her key: back to her seat."""
    alice = await in_process(KEY_A)
    await alice.conn.hello(name="Alice")
    bob = await connect("Bob")
    table = (await alice.request("create_table", name="SSH table", seats=2))["table"]
    await bob.request("join_table", table_id=table["table_id"])
    await bob.request("ready")
    await alice.request("start_game")
    await alice.push("game")
    await alice.close()
    await bob.until(lambda: not bob.table["seats"][0]["connected"])

    back = await in_process(KEY_A)
    welcome = await back.conn.hello(name=by_name)
    assert welcome.resumed and welcome.table_id == table["table_id"]
    assert welcome.name == "Alice"  # the seat's name, as the table knows it
    assert (await back.push("game"))["view"]["seat"] == 0

    # Her key again while she is connected: the newer connection replaces the
    # older (as a token does); the name stays refused to anyone else.
    again = await in_process(KEY_A)
    assert (await again.conn.hello(name=by_name)).resumed
    for other in (await in_process(None), await in_process(KEY_B)):
        with pytest.raises(ServerError) as caught:
            await other.request("hello", version=PROTOCOL_VERSION, name="alice")
        assert caught.value.code == "name_reserved"


@pytest.mark.parametrize("how", ["tcp", "guest"])
async def test_a_client_without_a_name_or_token_is_asked_for_a_name(
    how: str, in_process, connect
) -> None:
    # A TCP client, or an SSH guest (in-process, no identity): like a new key.
    client = await connect() if how == "tcp" else await in_process(None)
    welcome = await client.conn.hello()
    assert welcome.needs_name and welcome.player_id is None and welcome.token is None
    with pytest.raises(ServerError) as caught:
        await client.request("list_tables")
    assert caught.value.code == "name_required"
    welcome = await client.conn.set_name("Carol")
    assert not welcome.needs_name and welcome.name == "Carol" and welcome.token
