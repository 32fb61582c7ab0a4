"""What the lobby's list costs with many tables: bytes per reply and per push, per client.

A real ``SkyjoServer`` on 127.0.0.1 (fresh data directory, this process),
``--tables`` public tables whose hosts dropped (their seats kept), lobby
clients that follow the list (``tables_changed``) and clients that never ask
for a page (``tables``, their first page whole). Then ``--changes`` tables on
the first page change (someone joins, then leaves), paced by ``--every``
seconds, while the clients count the bytes they read.

    python benchmarks/lobby.py --tables 500 --clients 20 --changes 20

Printed: the size of a list_tables reply, the whole list as it was pushed
before paging (for comparison), and per client the pushes and bytes received
per second of the measurement, for each kind of client.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.app import SkyjoServer
from server.config import Limits, Pace, ServerConfig
from server.netclient import ServerConnection
from server.protocol import HEADER, HEADER_SIZE, encode_frame


class CountingReader:
    """A stream reader that counts the frames and bytes read."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self._reader = reader
        self.bytes = 0
        self.frames: list[int] = []  # sizes
        self._pending = bytearray()

    async def read(self, n: int = -1) -> bytes:
        data = await self._reader.read(n)
        self.bytes += len(data)
        self._pending += data
        while len(self._pending) >= HEADER_SIZE:
            (length,) = HEADER.unpack_from(self._pending)
            if len(self._pending) < HEADER_SIZE + length:
                break
            self.frames.append(HEADER_SIZE + length)
            del self._pending[: HEADER_SIZE + length]
        return data


async def lobby_client(server: SkyjoServer, name: str) -> tuple[ServerConnection, CountingReader]:
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    counting = CountingReader(reader)
    conn = ServerConnection.from_streams(counting, writer)
    await conn.hello(name=name, keepalive=0)
    return conn, counting


async def drain(conn: ServerConnection) -> None:
    async for _ in conn.pushes():
        pass


async def run(args: argparse.Namespace) -> None:
    limits = Limits(
        max_tables=args.tables + 10,
        tables_per_address=args.tables + 10,
        max_connections_per_address=args.clients * 2 + 20,
        messages_per_second=5000,
        message_burst=5000,
    )
    with tempfile.TemporaryDirectory() as data:
        config = ServerConfig(
            host="127.0.0.1",
            port=0,
            data_dir=Path(data),
            limits=limits,
            pace=replace(Pace(), empty_table=3600.0),
            sync="normal",
        )
        server = SkyjoServer(config)
        await server.start()
        try:
            ids = []
            for number in range(args.tables):
                host = await ServerConnection.open("127.0.0.1", server.port)
                await host.hello(name=f"Host {number}", keepalive=0)
                reply = await host.request(
                    {"type": "create_table", "name": f"Table number {number}", "seats": 4}
                )
                ids.append(reply["table"]["table_id"])
                await host.close()
            everything = [t.summary() for t in server.lobby.listing.ordered()]
            whole = len(encode_frame({"type": "tables", "tables": everything}))

            followers = [await lobby_client(server, f"Follower {n}") for n in range(args.clients)]
            legacy = [await lobby_client(server, f"Legacy {n}") for n in range(args.clients)]
            before = followers[0][1].bytes
            await followers[0][0].request({"type": "list_tables", "follow": True})
            reply_size = followers[0][1].bytes - before
            for conn, _ in followers[1:]:
                await conn.request({"type": "list_tables", "follow": True})
            drains = [asyncio.create_task(drain(c)) for c, _ in followers + legacy]
            await asyncio.sleep(1.5)  # the first page reaches the others
            for _, counting in followers + legacy:
                counting.bytes, counting.frames = 0, []

            joiner = await ServerConnection.open("127.0.0.1", server.port)
            await joiner.hello(name="Joiner", keepalive=0)
            started = time.monotonic()
            for change in range(args.changes):
                table_id = ids[change % min(len(ids), limits.tables_page)]
                await joiner.request({"type": "join_table", "table_id": table_id})
                await asyncio.sleep(args.every)
                await joiner.request({"type": "leave_table"})
                await asyncio.sleep(args.every)
            await asyncio.sleep(1.5)  # the last push
            elapsed = time.monotonic() - started
            await joiner.close()

            print(f"{args.tables} public tables, {args.clients} followers + {args.clients} others")
            print(f"whole list, as pushed before paging: {whole} bytes")
            print(f"list_tables reply (one page):        {reply_size} bytes")
            for label, group in (("follow", followers), ("tables", legacy)):
                counters = [counting for _, counting in group]
                per_second = sum(c.bytes for c in counters) / len(counters) / elapsed
                pushes = sum(len(c.frames) for c in counters) / len(counters) / elapsed
                largest = max((size for c in counters for size in c.frames), default=0)
                print(
                    f"{label:>7}: {pushes:5.2f} pushes/s, {per_second:8.0f} bytes/s per client, "
                    f"largest push {largest} bytes"
                )
            for task in drains:
                task.cancel()
            for conn, _ in followers + legacy:
                await conn.close()
        finally:
            await server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--clients", type=int, default=20, help="of each kind")
    parser.add_argument("--changes", type=int, default=20)
    parser.add_argument("--every", type=float, default=1.2, help="seconds between changes")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
