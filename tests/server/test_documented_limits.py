"""What docs/protocol.md promises a client author, over a real socket: the default rate
limit and how many refused messages end a connection; coming back after a crash, with
the token and without it."""

from __future__ import annotations

import asyncio

import pytest

from server.config import Limits
from server.netclient import ServerError
from server.protocol import PROTOCOL_VERSION, encode_frame

from .test_limits import read_until_closed

#: The numbers docs/protocol.md gives (section "Limits").
RATE, BURST = 20, 40


async def test_the_default_rate_is_20_a_second_in_bursts_of_40_and_the_41st_refusal_ends_the_connection(
    make_server,
) -> None:
    server = await make_server(limits=Limits())  # the defaults, as skyjo-server runs
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    hello = {"type": "hello", "id": 0, "version": PROTOCOL_VERSION, "name": "Flood"}
    pings = [{"type": "ping", "id": n} for n in range(1, 3 * BURST)]
    writer.write(b"".join(encode_frame(m) for m in [hello, *pings]))  # all at once
    answers = await read_until_closed(reader)
    writer.close()

    # Arriving in the lobby brings its chat so far (a push); the rest answers the flood.
    welcome, *replies, bye = [m for m in answers if m["type"] != "lobby_chat"]
    assert welcome["limits"]["messages_per_second"] == RATE
    assert welcome["limits"]["message_burst"] == BURST
    assert [r["type"] for r in replies[: BURST - 1]] == ["ok"] * (BURST - 1)  # the hello took one
    refused = [r for r in replies if r["type"] == "error"]
    assert {r["code"] for r in refused} == {"rate_limited"}
    # Refusals 1 to 40 are answered and dropped; the 41st closes the connection. A few more
    # pings may pass meanwhile as the bucket refills, but a flood never empties the count.
    assert len(refused) == BURST
    assert (bye["type"], bye["code"]) == ("bye", "rate_limited")


async def test_malformed_or_refused_requests_never_end_a_connection_on_their_own(
    make_server, connect
) -> None:
    alice = await connect("Alice")
    for _ in range(3 * BURST):  # far more refusals than a burst, at a pace the limit allows
        with pytest.raises(ServerError) as refused:
            await alice.request("join_table", table_id="nowhere")
        assert refused.value.code == "not_found"
    assert await alice.request("ping") is not None


async def test_a_crashed_clients_token_takes_its_name_and_seat_back_at_once(connect) -> None:
    alice = await connect("Alice")
    await alice.request("create_table", name="Alice's", seats=2)
    token = alice.welcome.token
    # The crash is not noticed yet (a vanished network, no goodbye): the server still
    # counts the old connection as Alice, so her name is refused without the token...
    stranger = await connect()
    with pytest.raises(ServerError) as taken:
        await stranger.conn.hello(name="alice")
    assert taken.value.code == "name_taken" and "is playing now" in taken.value.message
    # ...and the token ends the old connection (bye "replaced") and returns her to her seat.
    back = await connect(token=token)
    assert back.welcome.resumed and back.welcome.name == "Alice"
    await alice.until(lambda: alice.lost is not None)
    assert alice.lost.code == "replaced"


async def test_without_the_token_a_name_comes_back_only_once_it_holds_no_seat(connect) -> None:
    alice = await connect("Alice")
    await alice.request("create_table", name="Alice's", seats=2)
    await alice.close()  # the crash is noticed: the connection is gone
    stranger = await connect()
    with pytest.raises(ServerError) as taken:  # her seat is kept for her, so is her name
        await stranger.conn.hello(name="Alice")
    assert taken.value.code == "name_taken" and "keeping a seat" in taken.value.message

    bob = await connect("Bob")  # not seated: once he is gone, his name is free to anyone
    old_token = bob.welcome.token
    await bob.close()
    again = await connect()
    welcome = await again.conn.hello(name="Bob")
    assert welcome.name == "Bob" and welcome.token != old_token and not welcome.resumed
    late = await connect()
    with pytest.raises(ServerError) as stale:  # taken over: the older token no longer works
        await late.conn.hello(token=old_token)
    assert stale.value.code == "bad_token"
