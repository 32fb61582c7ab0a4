"""The door host's side of the link: its players' connections to the lobby.

Each player's app gets its own TCP connection to the lobby's port (the one
``skyjo --connect`` uses), claimed before its ``hello`` with the player's
identity, door, address and this door host's name, proved with the door
secret over the lobby's nonce (``proof``).  A connection claimed here is
handed to the worker process running the player's app as the in-process
sockets are on a single server (``open_player_socket``); over TLS it stays
here and a socket pair is relayed to the worker (an SSL connection cannot
change process).

``LobbyLink`` also keeps the door host's own connection to the lobby: a copy
of the banned keys for the SSH door's authentication (pushed on every
change, asked again every ``HEARTBEAT`` seconds, which also finds a lobby
that went silent), and the log lines that say the lobby was lost and found
again.  Players' apps see a lost lobby as any lost server: "reconnecting",
then back at their seats.  Every read here has a timeout; the tasks are the
link's and ``stop`` cancels them.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import socket
import ssl
from typing import Any, Final

from ..listen import keep_alive
from ..protocol import (
    DOOR_LINK_VERSION,
    HEADER,
    HEADER_SIZE,
    ErrorCode,
    check_message,
    decode_body,
    encode_frame,
)
from .options import LinkOptions
from .proof import claim_bytes, door_proof

logger = logging.getLogger(__name__)

LINK_TIMEOUT: Final = 10.0
"""Seconds to connect, and for each answer of the lobby while a connection is claimed."""
HEARTBEAT: Final = 10.0
"""Seconds between two questions of the door host's own connection: a lobby silent for
two of them is lost."""
BACKOFF: Final = (0.2, 0.5, 1.0, 2.0, 5.0)
"""Pauses between tries of the door host's own connection (the last repeats)."""
MAX_LINK_FRAME: Final = 1024 * 1024
LINK_DOOR: Final = "link"
"""The door of the door host's own connection (it is no player's)."""
RELAY_CHUNK: Final = 65536


class LinkRefused(ConnectionError):
    """The lobby refused the claim (a wrong secret, a wrong version, TLS required)."""


def client_tls_context(options: LinkOptions) -> ssl.SSLContext | None:
    if not options.tls:
        return None
    context = ssl.create_default_context(
        cafile=str(options.ca_file) if options.ca_file is not None else None
    )
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    return context


async def read_frame(reader: asyncio.StreamReader) -> dict[str, Any]:
    """One message from the lobby (no timeout here: the caller's)."""
    (length,) = HEADER.unpack(await reader.readexactly(HEADER_SIZE))
    if length > MAX_LINK_FRAME:
        raise ConnectionError(f"the lobby sent a frame of {length} bytes")
    message = decode_body(await reader.readexactly(length))
    return check_message(message, sender="server")


class LobbyLink:
    """Connections to the lobby for the players of this door host."""

    def __init__(self, options: LinkOptions) -> None:
        self.options = options
        self._tls = client_tls_context(options)
        self._ids = itertools.count(1)
        self.banned: frozenset[str] = frozenset()
        """The lobby's banned identities, as it last said."""
        self.linked = asyncio.Event()
        """Set while the door host's own connection is up."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._stopping = False

    @property
    def lobby(self) -> str:
        return str(self.options.lobby)

    def identity_banned(self, identity: str | None) -> bool:
        return identity is not None and identity in self.banned

    # -- one claimed connection --------------------------------------------------------

    async def open_claimed(
        self, identity: str | None, door: str, address: str, *, link: bool = False
    ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """A connection to the lobby, claimed for this player (``link``: for this door
        host itself).  Raises ``OSError`` (``LinkRefused`` when the lobby refused the
        claim) or ``TimeoutError``."""
        address_of_lobby = self.options.lobby
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(address_of_lobby.host, address_of_lobby.port), LINK_TIMEOUT
        )
        try:
            keep_alive(writer.get_extra_info("socket"))
            if self._tls is not None:
                await self._ask(reader, writer, {"type": "door_tls"})
                await writer.start_tls(
                    self._tls,
                    server_hostname=address_of_lobby.host,
                    ssl_handshake_timeout=LINK_TIMEOUT,
                )
            challenge = await self._ask(reader, writer, {"type": "door_challenge"})
            nonce = bytes.fromhex(str(challenge.get("nonce", "")))
            name, version = self.options.name, DOOR_LINK_VERSION
            claimed = claim_bytes(
                version=version, host=name, door=door, identity=identity, address=address, link=link
            )
            claim = {
                "type": "door_claim",
                "version": version,
                "host": name,
                "door": door,
                "identity": identity,
                "address": address,
                "link": link,
                "proof": door_proof(self.options.secret, nonce, claimed),
            }
            await self._ask(reader, writer, claim)
        except BaseException:
            writer.close()
            raise
        return reader, writer

    async def _ask(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, message: dict[str, Any]
    ) -> dict[str, Any]:
        request = next(self._ids)
        writer.write(encode_frame({**message, "id": request}))
        while True:
            try:
                reply = await asyncio.wait_for(read_frame(reader), LINK_TIMEOUT)
            except asyncio.IncompleteReadError:
                raise ConnectionError("the lobby closed the connection") from None
            except ValueError as exc:  # ProtocolError and bytes.fromhex's
                raise ConnectionError(f"the lobby is not a Skyjo lobby: {exc}") from None
            kind = reply["type"]
            if kind == "bye" or (kind == "error" and reply.get("re") == request):
                text = str(reply.get("message", ""))
                if reply.get("code") == ErrorCode.DOOR_REFUSED.value:
                    raise LinkRefused(text)
                raise ConnectionError(text)
            if kind == "ok" and reply.get("re") == request:
                return reply

    # -- for the players' apps ---------------------------------------------------------

    async def open_player(
        self, identity: str | None, door: str, address: str
    ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        return await self.open_claimed(identity, door, address)

    async def open_player_socket(
        self, identity: str | None, door: str, address: str
    ) -> socket.socket:
        """A claimed connection as a bare socket, for a worker process."""
        reader, writer = await self.open_claimed(identity, door, address)
        if self._tls is None:
            # The lobby says nothing after the claim's ok until the app's hello: nothing
            # is left in the reader, and the socket itself can change hands.
            sock = writer.get_extra_info("socket")
            own = socket.socket(sock.family, sock.type, sock.proto, fileno=os.dup(sock.fileno()))
            writer.transport.abort()  # closes our descriptor only: the connection lives on
            return own
        return await self._relayed(reader, writer)

    async def _relayed(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> socket.socket:
        ours, theirs = socket.socketpair()
        local_reader, local_writer = await asyncio.open_connection(sock=ours)

        async def pump(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            try:
                while data := await source.read(RELAY_CHUNK):
                    sink.write(data)
                    await sink.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                writer.close()
                local_writer.close()

        # Both directions end together; a silent pair is the app's to keep (no timeout).
        self._spawn(pump(reader, local_writer))
        self._spawn(pump(local_reader, writer))
        return theirs

    # -- the door host's own connection ------------------------------------------------

    async def start(self) -> None:
        self._stopping = False
        self._spawn(self._keep_linked())

    async def stop(self) -> None:
        self._stopping = True
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _keep_linked(self) -> None:
        failures = 0
        said: str | None = None  # the last failure logged: each new one once
        while not self._stopping:
            try:
                reader, writer = await self.open_claimed(None, LINK_DOOR, "", link=True)
            except LinkRefused as exc:
                if said != str(exc):
                    logger.error("the lobby at %s refused this door host: %s", self.lobby, exc)
                said = str(exc)
            except (OSError, TimeoutError) as exc:
                if said is None or failures == 0:
                    logger.warning("cannot reach the lobby at %s: %s", self.lobby, exc or "timeout")
                said = said or str(exc)
            else:
                failures, said = 0, None
                logger.info("linked to the lobby at %s as %r", self.lobby, self.options.name)
                self.linked.set()
                try:
                    await self._follow(reader, writer)
                except (OSError, TimeoutError, ValueError) as exc:
                    logger.warning(
                        "lost the lobby at %s (%s): players see 'reconnecting' until it is back",
                        self.lobby,
                        exc or "timeout",
                    )
                finally:
                    self.linked.clear()
                    writer.close()
            failures += 1
            await asyncio.sleep(BACKOFF[min(failures, len(BACKOFF)) - 1])

    async def _follow(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """The banned keys, as the lobby says them, until it goes (or stays silent for a
        whole ``HEARTBEAT`` after a question)."""
        frames: asyncio.Queue[dict[str, Any] | Exception] = asyncio.Queue()

        async def read_all() -> None:
            # Whole frames only: a timeout below never cuts one in two.
            try:
                while True:
                    frames.put_nowait(await read_frame(reader))
            except Exception as exc:  # noqa: BLE001 - the end of the link, handed on
                frames.put_nowait(exc)

        reading = asyncio.get_running_loop().create_task(read_all())
        try:
            await self._answer(frames, writer)
        finally:
            reading.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reading

    async def _answer(
        self, frames: asyncio.Queue[dict[str, Any] | Exception], writer: asyncio.StreamWriter
    ) -> None:
        loop = asyncio.get_running_loop()
        waiting: int | None = None
        asked = loop.time() - HEARTBEAT
        while True:
            try:
                due = asked + HEARTBEAT - loop.time()
                message = await asyncio.wait_for(frames.get(), max(0.0, due))
            except TimeoutError:
                if waiting is not None:
                    raise TimeoutError("the lobby did not answer") from None
                waiting, asked = next(self._ids), loop.time()
                writer.write(encode_frame({"type": "door_bans", "id": waiting}))
                continue
            if isinstance(message, asyncio.IncompleteReadError):
                raise ConnectionError("the lobby closed the link")
            if isinstance(message, Exception):
                raise message
            kind = message["type"]
            if kind == "bye":
                raise ConnectionError(str(message.get("message", "")))
            if kind == "door_bans" or (kind == "ok" and message.get("re") == waiting):
                identities = message.get("identities")
                if isinstance(identities, list):
                    self.banned = frozenset(str(i) for i in identities)
                if kind == "ok":
                    waiting = None
