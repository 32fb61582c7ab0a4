"""A TCP relay on 127.0.0.1 between the client and a real server, that a test can cut.

``cut()`` aborts every connection through it (as a network failure would);
new connections are relayed again at once, so the client can come back.
``hold()`` keeps what the server sends until ``release()`` (a slow link).
"""

from __future__ import annotations

import asyncio
import contextlib


class Relay:
    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self.connections = 0
        self._server: asyncio.Server | None = None
        self._transports: list[asyncio.WriteTransport] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self.accepting = True  # False: new connections are closed at once (the link stays down)
        self._downstream = asyncio.Event()  # set: the server's bytes go on to the client
        self._downstream.set()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _relay(
        self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter
    ) -> None:
        if not self.accepting:
            client_writer.transport.abort()
            return
        self.connections += 1
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        self._transports += [client_writer.transport, server_writer.transport]
        pipes = [
            asyncio.ensure_future(_pipe(client_reader, server_writer)),
            asyncio.ensure_future(_pipe(server_reader, client_writer, self._downstream)),
        ]
        self._tasks.update(pipes)
        await asyncio.wait(pipes, return_when=asyncio.FIRST_COMPLETED)
        for task in pipes:
            task.cancel()
        for writer in (client_writer, server_writer):
            writer.transport.abort()

    def hold(self) -> None:
        """From now on, what the server sends waits here (the client's requests still go)."""
        self._downstream.clear()

    def release(self) -> None:
        """Deliver what was held, in order, and everything after it."""
        self._downstream.set()

    def cut(self) -> None:
        """Drop every connection now, without a goodbye."""
        for transport in self._transports:
            transport.abort()
        self._transports.clear()

    async def stop(self) -> None:
        self.cut()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


async def _pipe(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, gate: asyncio.Event | None = None
) -> None:
    with contextlib.suppress(ConnectionError, OSError):
        while data := await reader.read(65536):
            if gate is not None:
                await gate.wait()
            writer.write(data)
            await writer.drain()
