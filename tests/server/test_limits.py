"""Caps and timeouts: no client can make the server hold more than its limits allow."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from server.netclient import ServerConnection, ServerError
from server.protocol import HEADER, PROTOCOL_VERSION, FrameDecoder, encode_frame, frame

from .support import TEST_LIMITS, WAIT, Client, table_with


async def read_until_closed(reader: asyncio.StreamReader) -> list[dict]:
    async with asyncio.timeout(WAIT):
        data = await reader.read()
    decoder = FrameDecoder()
    decoder.feed(data)
    return list(decoder)


async def test_connections_are_capped_per_address_and_in_total(make_server) -> None:
    server = await make_server(limits=replace(TEST_LIMITS, max_connections_per_address=2))
    kept = [await asyncio.open_connection("127.0.0.1", server.port) for _ in range(2)]
    reader, _ = await asyncio.open_connection("127.0.0.1", server.port)
    assert [m["code"] for m in await read_until_closed(reader)] == ["too_many_from_address"]

    full = await make_server(limits=replace(TEST_LIMITS, max_connections=1))
    first = await Client.connect(full, "Alice")
    reader, _ = await asyncio.open_connection("127.0.0.1", full.port)
    assert [m["code"] for m in await read_until_closed(reader)] == ["server_full"]
    await first.request("ping")  # the connection already in is untouched
    await first.close()
    for _, writer in kept:
        writer.close()


async def test_tables_are_capped(make_server) -> None:
    server = await make_server(limits=replace(TEST_LIMITS, max_tables=1))
    alice, bob = await Client.connect(server, "Alice"), await Client.connect(server, "Bob")
    await table_with(alice)
    with pytest.raises(ServerError) as caught:
        await table_with(bob)
    assert caught.value.code == "too_many_tables"
    for client in (alice, bob):
        await client.close()


async def test_a_flooding_client_is_refused_then_disconnected_alone(
    make_server, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="server.lobby.session")
    server = await make_server(limits=replace(TEST_LIMITS, messages_per_second=5, message_burst=5))
    calm = await Client.connect(server, "Calm")
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(b"".join(encode_frame({"type": "ping", "id": n}) for n in range(40)))
    answers = await read_until_closed(reader)
    codes = [m.get("code") for m in answers]
    assert codes[:5] == ["hello_first"] * 5  # within the burst: answered
    assert "rate_limited" in codes[5:-1]
    assert answers[-1]["type"] == "bye" and answers[-1]["code"] == "rate_limited"
    # The server's log says whom it dropped, and why.
    dropped = [r.getMessage() for r in caplog.records if "disconnected" in r.getMessage()]
    assert len(dropped) == 1 and "too many messages" in dropped[0], dropped
    assert "127.0.0.1" in dropped[0] and "rate_limited" in dropped[0], dropped
    assert await calm.request("ping") is not None
    await calm.close()
    writer.close()


async def test_silent_connections_time_out(make_server) -> None:
    server = await make_server(limits=replace(TEST_LIMITS, idle_timeout=0.5, hello_timeout=0.3))
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    assert [m["code"] for m in await read_until_closed(reader)] == ["idle_timeout"]
    writer.close()

    conn = await ServerConnection.open("127.0.0.1", server.port)
    await conn.hello(name="Quiet", keepalive=0)  # no pings
    lost = await asyncio.wait_for(conn.wait_lost(), WAIT)
    assert lost is not None and lost.code == "idle_timeout"
    await conn.close()

    # The reference client pings by itself and stays.
    kept = await ServerConnection.open("127.0.0.1", server.port)
    await kept.hello(name="Chatty", keepalive=0.05)
    await asyncio.sleep(1.5)  # three idle timeouts
    assert not kept.closed
    await kept.close()


def finished(client: Client) -> int:
    return sum(p["type"] == "game_over" for p in client.pushes)


async def test_a_client_that_does_not_read_is_dropped_and_the_table_goes_on(make_server) -> None:
    server = await make_server(limits=replace(TEST_LIMITS, output_buffer=32 * 1024))
    host = await Client.connect(server, "Host")
    table = await table_with(host, seats=8, bots=("random",) * 7, settings={"end-score": 300})
    # A watcher that never reads (over a socket pair: its buffers fill after a few
    # hundred kilobytes, where TCP on loopback would buffer megabytes first).
    _, writer = await server.open_in_process()
    writer.write(
        encode_frame({"type": "hello", "id": 1, "version": PROTOCOL_VERSION, "name": "Sleepy"})
        + encode_frame({"type": "spectate", "id": 2, "table_id": table["table_id"]})
    )
    await host.until(lambda: host.last_table["spectators"] == 1)
    await host.request("start_game")

    rng = random.Random(60)
    await host.play(rng, stop=lambda: host.last_table["spectators"] == 0 or host.game_over())
    assert host.last_table["spectators"] == 0  # the server let the watcher go
    await host.play(rng)  # and the game goes on to its end
    assert host.lost is None
    writer.close()
    await host.close()


async def test_talking_without_saying_hello_or_trickling_bytes_does_not_keep_a_connection(
    make_server,
) -> None:
    server = await make_server(limits=replace(TEST_LIMITS, idle_timeout=0.5, hello_timeout=0.5))
    # Requests that are not hello are answered, but the hello deadline still runs.
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    pinging = asyncio.create_task(
        send_until_closed(writer, lambda n: encode_frame({"type": "ping", "id": n}))
    )
    answers = await read_until_closed(reader)
    assert answers[0]["code"] == "hello_first"
    assert answers[-1]["type"] == "bye" and answers[-1]["code"] == "idle_timeout"
    await pinging

    # Once welcomed, a frame sent one byte at a time is not a message either.
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    hello = {"type": "hello", "id": 1, "version": PROTOCOL_VERSION, "name": "Trickle"}
    writer.write(encode_frame(hello))
    body = encode_frame({"type": "chat", "id": 2, "text": "x" * 200})
    trickling = asyncio.create_task(
        send_until_closed(writer, lambda n: body[n % len(body) : n % len(body) + 1])
    )
    answers = await read_until_closed(reader)
    told = [m["type"] for m in answers if m["type"] != "lobby_chat"]  # the lobby's chat so far
    assert told == ["ok", "bye"] and answers[-1]["code"] == "idle_timeout"
    await trickling


async def send_until_closed(writer: asyncio.StreamWriter, data: Callable[[int], bytes]) -> None:
    """Send ``data(n)`` ten times a second until the server closes (at most WAIT seconds)."""
    for n in range(int(WAIT * 10)):
        if writer.is_closing() or writer.transport.get_write_buffer_size():
            break
        writer.write(data(n))
        try:
            await asyncio.wait_for(writer.drain(), WAIT)
        except ConnectionError:
            break
        await asyncio.sleep(0.1)
    writer.close()


async def test_garbage_frames_use_up_the_rate_limit_like_any_message(make_server) -> None:
    server = await make_server(limits=replace(TEST_LIMITS, messages_per_second=5, message_burst=5))
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(b"".join(frame(b"\xc1") for _ in range(40)))  # 40 bodies that are not msgpack
    answers = await read_until_closed(reader)
    codes = [m["code"] for m in answers]
    assert codes[:5] == ["bad_frame"] * 5
    assert "rate_limited" in codes[5:-1] and len(answers) < 40
    assert answers[-1]["type"] == "bye" and answers[-1]["code"] == "rate_limited"
    writer.close()


async def test_a_client_that_leaves_its_pushes_unread_lets_go_instead_of_hoarding(
    server, connect
) -> None:
    host = await connect("Host")
    table = await table_with(host, seats=4, bots=("random",) * 3, settings={"end-score": 300})
    lazy = await ServerConnection.open("127.0.0.1", server.port)
    lazy.max_queued_pushes = 20  # nobody iterates pushes() on this connection
    await lazy.hello(name="Lazy", keepalive=0)
    await lazy.request({"type": "spectate", "table_id": table["table_id"]})
    await host.request("start_game")
    await host.play(random.Random(61), stop=lambda: lazy.closed)
    assert lazy.lost is not None and "unread" in lazy.lost.message
    assert lazy.pending_pushes() < 100  # the limit, plus what one read brought at most
    await lazy.close()


async def test_a_client_still_sending_when_it_is_sent_away_hears_why(make_server) -> None:
    """An oversized frame and two megabytes after it: the server closes with a bye while
    the bytes keep coming. Closing a socket with input unread resets the connection and
    threw the bye away (ConnectionResetError here); the server now ends its half of the
    stream after the bye and reads on for a moment before closing."""
    server = await make_server()
    for _ in range(10):
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(HEADER.pack(50_000_000) + b"x" * 2_000_000)  # far over max_frame
        answers = await read_until_closed(reader)
        writer.close()
        assert [answer["code"] for answer in answers] == ["frame_too_large"]
