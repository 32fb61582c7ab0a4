"""A client written from docs/protocol.md alone: a raw socket and msgpack, nothing of ours.

Everything this client does is something the document states: the framing,
the handshake, creating a table with a bot, starting, acting on the view's
``legal_actions``, saying ``ready`` between rounds, and stopping at
``game_over``. Only the server under test comes from this project, so if the
document leaves out something a client needs, this test cannot pass.
"""

from __future__ import annotations

import asyncio
import random
import struct
from typing import Any

import msgpack

from server.config import Pace

WAIT = 20.0  # seconds any single read may take
MAX_FRAMES = 20_000  # a whole short game is a few hundred frames


class DocClient:
    """Frames: a 4-byte big-endian length, then one msgpack map with a ``type``."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.next_id = 0
        self.received = 0
        self.game: dict[str, Any] | None = None  # the latest "game" push
        self.table: dict[str, Any] | None = None  # the latest "table" map
        self.game_over: dict[str, Any] | None = None

    async def read_message(self) -> dict[str, Any]:
        header = await asyncio.wait_for(self.reader.readexactly(4), WAIT)
        (length,) = struct.unpack(">I", header)
        body = await asyncio.wait_for(self.reader.readexactly(length), WAIT)
        self.received += 1
        assert self.received < MAX_FRAMES
        message = msgpack.unpackb(body, raw=False)
        assert isinstance(message, dict) and isinstance(message["type"], str)
        return message

    async def request(self, type_: str, **fields: Any) -> dict[str, Any]:
        """Send a request with a fresh id; note the pushes that come before its reply."""
        self.next_id += 1
        body = msgpack.packb({"type": type_, "id": self.next_id, **fields}, use_bin_type=True)
        self.writer.write(struct.pack(">I", len(body)) + body)
        await self.writer.drain()
        while True:
            message = await self.read_message()
            if message["type"] in ("ok", "error") and message["re"] == self.next_id:
                assert message["type"] == "ok", message
                return message
            self.note(message)

    async def wait_push(self) -> None:
        self.note(await self.read_message())

    def note(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        assert kind != "bye", message
        if kind == "game":
            self.game = message
        elif kind == "table":
            self.table = message["table"]
        elif kind == "game_over":
            self.game_over = message

    def my_seat(self) -> dict[str, Any]:
        assert self.table is not None
        return self.table["seats"][self.table["your_seat"]]


async def play_to_the_end(client: DocClient, rng: random.Random) -> int:
    """Act whenever the latest view has legal actions; ready between rounds."""
    moves = 0
    while client.game_over is None:
        view = client.game["view"] if client.game else None
        if client.table and client.table["status"] == "playing" and view and view["legal_actions"]:
            action = rng.choice(view["legal_actions"])
            reply = await client.request("act", action=action)
            assert (
                client.game is not None and reply["seq"] == client.game["seq"]
            )  # the push came before the reply
            moves += 1
        elif (
            client.table
            and client.table["status"] == "between_rounds"
            and not client.my_seat()["ready"]
        ):
            await client.request("ready")
        else:
            await client.wait_push()
    return moves


async def test_a_client_written_from_the_protocol_document_plays_a_whole_game(make_server) -> None:
    # Between rounds the server waits for "ready" (10 minutes otherwise): the
    # client must follow the document's rule to get past the first round.
    server = await make_server(pace=Pace(bot_delay=0, between_rounds=600))
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    client = DocClient(reader, writer)
    try:
        welcome = await client.request("hello", version=1, name="Doc Reader")
        assert welcome["token"] and welcome["needs_name"] is False
        weakest = welcome["bot_levels"][0]
        created = await client.request(
            "create_table", name="From the doc", seats=2, settings={"end-score": 10}
        )
        assert created["table"]["your_seat"] == 0
        assert (await client.request("add_bot", level=weakest))["seat"] == 1
        await client.request("start_game")

        moves = await play_to_the_end(client, random.Random(7))

        over = client.game_over
        assert over is not None and max(over["totals"]) >= 10
        assert over["winners"] == [
            i for i, t in enumerate(over["totals"]) if t == min(over["totals"])
        ]
        assert over["names"][0] == "Doc Reader" and moves >= 2
        assert client.table is not None
        while client.table["status"] != "finished":
            await client.wait_push()
        assert client.table["game_id"] == over["game_id"]
        record = await client.request("game_record", game_id=over["game_id"])
        assert record["record"]["totals"] == over["totals"]
    finally:
        writer.close()
