"""The asyncio client of the Skyjo protocol (``server.protocol``).

Used by the Textual client, the tests and the load benchmark::

    conn = await ServerConnection.open("127.0.0.1", 7777)
    welcome = await conn.hello(name="Alice")          # keep welcome.token
    table = (await conn.request({"type": "create_table", "name": "t", "seats": 4}))["table"]
    async for push in conn.pushes():                  # "table", "game", "chat", ...
        ...
    await conn.close()

Requests and replies are matched by id, so any number of requests may be in
flight while pushes keep arriving. A dropped connection is noticed by a read
reaching end of stream or by a keepalive ping going unanswered; then every
pending request and the ``pushes()`` iterator raise ``ConnectionLost``, and the
caller reconnects with ``ServerConnection.open`` and ``hello(token=...)``.
Over a local socket (``SkyjoServer.open_in_process``) there are no pings: an
idle connection costs nothing, and the kernel reports the end of the other side.

Every wait is bounded with ``asyncio.timeout``, never ``asyncio.wait_for``: on
Python 3.11 ``wait_for`` returns the result when the caller is cancelled in the
same moment as it arrives, and the caller runs on as if never cancelled (a
player's app that quit kept logging in, then waited forever for a name).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import itertools
import logging
import socket
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from .protocol import (
    PROTOCOL_VERSION,
    ActRequest,
    BadFrame,
    ErrorCode,
    FrameDecoder,
    ProtocolError,
    check_message,
    encode_frame,
)

logger = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 10.0
READ_CHUNK = 65536
# The server's frame limit protects the server; its own frames (a stored game's
# record) may be larger, so the client accepts up to this.
CLIENT_MAX_FRAME = 16 * 1024 * 1024
# Pushes wait in a queue until ``pushes()`` takes them. A whole game is a few
# hundred; a consumer this far behind is stuck, and the connection is dropped
# rather than the queue growing without end (the server does the same to us).
MAX_QUEUED_PUSHES = 10_000


class ServerError(Exception):
    """The server answered a request with an error (``code``: an ``ErrorCode`` value;
    ``details``: the error's other fields, such as a ``bad_name``'s ``reason``)."""

    def __init__(self, code: str, message: str, details: Mapping[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.details: Mapping[str, Any] = details or {}

    def __reduce__(self) -> tuple[Any, ...]:
        # Its arguments, not its ``args`` (one string): unpickling, in the process that
        # ran a client in a pool, failed on the missing ``message``.
        return type(self), (self.code, self.message, dict(self.details))


#: An ``error``'s fields that every error has (the others are ``ServerError.details``).
_ERROR_FIELDS = frozenset({"type", "re", "code", "message"})


class ConnectionLost(ConnectionError):
    """The connection ended. ``code``/``message`` come from the server's ``bye`` if any."""

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Welcome:
    """The reply to ``hello`` (and to ``set_name``)."""

    player_id: int | None  # None while a name must still be chosen
    name: str | None
    token: str | None  # give it to hello(token=...) to come back as this player
    needs_name: bool  # True: call set_name before anything else
    resumed: bool  # True: you were returned to a seat; a "table" and a "game" push follow
    table_id: str | None  # the table you are seated at, if any
    limits: dict[str, Any]
    server: str
    bot_levels: tuple[str, ...] = ()  # the levels add_bot accepts, weakest first
    settings: dict[str, Any] = field(default_factory=dict)  # setting name -> accepted values (text)
    # A guest's way back to this player (a keyless guest has no token kept anywhere):
    # the name and this code, given to hello or set_name. None: not given one.
    return_code: str | None = None

    @classmethod
    def from_reply(cls, reply: Mapping[str, Any]) -> Welcome:
        return cls(
            player_id=reply.get("player_id"),
            name=reply.get("name"),
            token=reply.get("token"),
            needs_name=bool(reply.get("needs_name")),
            resumed=bool(reply.get("resumed")),
            table_id=reply.get("table_id"),
            limits=dict(reply.get("limits") or {}),
            server=str(reply.get("server", "")),
            bot_levels=tuple(str(level) for level in reply.get("bot_levels") or ()),
            settings=dict(reply.get("settings") or {}),
            return_code=reply.get("return_code"),
        )


@dataclass(slots=True)
class LobbyTables:
    """One page of the lobby's public tables, kept as the server describes it.

    Feed it the ``list_tables`` reply (sent with ``follow: true``) and then every
    ``tables_changed`` (or ``tables``) push: ``tables`` is the page in the
    server's order, ``total`` how many public tables there are in all.
    """

    offset: int = 0
    limit: int = 0  # the page's size (0 until a list_tables reply said it)
    total: int = 0
    tables: list[dict[str, Any]] = field(default_factory=list)

    def apply(self, message: Mapping[str, Any]) -> None:
        """A ``list_tables`` reply, or a ``tables`` / ``tables_changed`` push."""
        if message.get("type") == "tables_changed":
            known = {t.get("table_id"): t for t in self.tables}
            known.update((t.get("table_id"), t) for t in message.get("changed") or [])
            self.tables = [known[i] for i in message.get("order") or [] if i in known]
        else:
            self.tables = list(message.get("tables") or [])
        self.offset = int(message.get("offset") or 0)
        self.limit = int(message.get("limit") or self.limit)
        self.total = int(message.get("total", len(self.tables)))

    def page_at(self, step: int) -> int | None:
        """The offset of the page ``step`` pages away (+1 next, -1 previous); None: no such page."""
        size = self.limit or len(self.tables)
        offset = self.offset + step * size
        if size == 0 or offset < 0 or offset >= self.total:
            return None
        return offset


class ByteReader(Protocol):
    """What the connection needs from its reader (an ``asyncio.StreamReader``)."""

    async def read(self, n: int = -1) -> bytes: ...


_END = object()  # queued after the last push


class ServerConnection:
    """One connection to a Skyjo server. Build with ``open`` or ``from_streams``."""

    def __init__(
        self,
        reader: ByteReader,
        writer: asyncio.StreamWriter,
        *,
        max_frame: int = CLIENT_MAX_FRAME,
    ) -> None:
        self._reader = reader
        self._writer = writer
        self._decoder = FrameDecoder(max_frame)
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._pushes: asyncio.Queue[Any] = asyncio.Queue()  # bounded by the check in _read_loop
        self.max_queued_pushes = MAX_QUEUED_PUSHES
        self._lost: ConnectionLost | None = None
        self._closing = False
        self._keepalive: asyncio.Task[None] | None = None
        self._read_task = asyncio.get_running_loop().create_task(self._read_loop())
        self.welcome: Welcome | None = None

    # -- opening and closing ----------------------------------------------------

    @classmethod
    async def open(
        cls,
        host: str,
        port: int,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        max_frame: int = CLIENT_MAX_FRAME,
    ) -> ServerConnection:
        """Connect over TCP; raises ``OSError``/``TimeoutError`` when it cannot."""
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection(host, port)
        return cls(reader, writer, max_frame=max_frame)

    @classmethod
    def from_streams(
        cls,
        reader: ByteReader,
        writer: asyncio.StreamWriter,
        *,
        max_frame: int = CLIENT_MAX_FRAME,
    ) -> ServerConnection:
        """Wrap streams already connected to a server (``SkyjoServer.open_in_process``)."""
        return cls(reader, writer, max_frame=max_frame)

    @property
    def closed(self) -> bool:
        """True once the connection ended, by ``close()`` or by a drop."""
        return self._closing or self._lost is not None

    @property
    def lost(self) -> ConnectionLost | None:
        """Why the connection dropped (None while open, or after a plain ``close()``)."""
        return self._lost

    async def close(self) -> None:
        """Close the connection; ``pushes()`` then ends without an error."""
        self._closing = True
        for future in self._pending.values():
            if not future.done():
                future.set_exception(ConnectionLost("the connection is closed"))
        for task in (self._keepalive, self._read_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._writer.close()
        with contextlib.suppress(Exception):
            async with asyncio.timeout(1.0):
                await self._writer.wait_closed()

    async def wait_lost(self) -> ConnectionLost | None:
        """Wait until the connection ends; the reason, or None after ``close()``."""
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.shield(self._read_task)
        return self._lost

    # -- requests ---------------------------------------------------------------

    async def hello(
        self,
        name: str | None = None,
        token: str | None = None,
        *,
        return_code: str | None = None,
        client: str = "skyjo",
        keepalive: float | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> Welcome:
        """The handshake: must be the first request.

        Give ``token`` to come back as a known player (returned to your seat),
        or ``name`` to be a player by that name (with their ``return_code``: the
        player of that name, back to their seat). Neither: a trusted in-process
        connection whose identity already has a name is logged in with it;
        anyone else gets ``welcome.needs_name`` (then call ``set_name``).
        Afterwards a ping every ``keepalive`` seconds (default: a third of the
        server's idle timeout; none over a local socket) keeps the connection
        alive and notices a drop. ``keepalive=0``: no pings.
        """
        message: dict[str, Any] = {"type": "hello", "version": PROTOCOL_VERSION, "client": client}
        if name is not None:
            message["name"] = name
        if token is not None:
            message["token"] = token
        if return_code is not None:
            message["return_code"] = return_code
        self.welcome = Welcome.from_reply(await self.request(message, timeout=timeout))
        self._start_keepalive(keepalive, timeout)
        return self.welcome

    async def set_name(
        self, name: str, *, return_code: str | None = None, timeout: float = DEFAULT_TIMEOUT
    ) -> Welcome:
        """Choose (or change) your name, or come back as its player with its
        ``return_code``; the new welcome holds your id and token."""
        message: dict[str, Any] = {"type": "set_name", "name": name}
        if return_code is not None:
            message["return_code"] = return_code
        reply = await self.request(message, timeout=timeout)
        self.welcome = Welcome.from_reply(reply)
        return self.welcome

    async def act(
        self, action: Mapping[str, Any], *, timeout: float = DEFAULT_TIMEOUT
    ) -> dict[str, Any]:
        """Play one action (an entry of your view's ``legal_actions``).

        The reply comes once the action is stored; the "game" pushes it caused
        are already queued on ``pushes()`` by then.
        """
        return await self.request(ActRequest(dict(action)).to_wire(), timeout=timeout)

    async def request(
        self, message: Mapping[str, Any], *, timeout: float = DEFAULT_TIMEOUT
    ) -> dict[str, Any]:
        """Send a request and wait for its reply.

        Returns the ``ok`` reply as a dict; raises ``ServerError`` for an
        ``error`` reply, ``ConnectionLost`` if the connection ends first, and
        ``TimeoutError`` after ``timeout`` seconds.
        """
        if self._lost is not None:
            raise self._lost
        request_id = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        try:
            await self.send({**message, "id": request_id}, timeout=timeout)
            async with asyncio.timeout(timeout):
                return await asyncio.shield(future)
        finally:
            self._pending.pop(request_id, None)

    async def send(self, message: Mapping[str, Any], *, timeout: float = DEFAULT_TIMEOUT) -> None:
        """Send one message without waiting for a reply (requests use ``request``)."""
        if self._lost is not None:
            raise self._lost
        if self._closing:
            raise ConnectionLost("the connection is closed")
        self._writer.write(encode_frame(message))
        try:
            async with asyncio.timeout(timeout):
                await self._writer.drain()
        except (ConnectionError, OSError) as exc:
            raise self._drop(f"write failed: {exc}") from exc

    # -- pushes -------------------------------------------------------------------

    async def pushes(self) -> AsyncIterator[dict[str, Any]]:
        """Every push from the server, in order, for one consumer.

        Ends quietly after ``close()``; raises ``ConnectionLost`` when the
        connection drops (after yielding every push received before, including
        the server's ``bye`` if it sent one).
        """
        while True:
            item = await self._pushes.get()
            if item is _END:
                self._pushes.put_nowait(_END)  # later iterations end too
                if self._lost is not None and not self._closing:
                    raise self._lost
                return
            yield item

    def pending_pushes(self) -> int:
        """How many pushes are queued and not consumed yet."""
        return self._pushes.qsize()

    # -- internals ------------------------------------------------------------------

    def _start_keepalive(self, interval: float | None, timeout: float) -> None:
        if interval is None:
            interval = self._default_keepalive()
        if self._keepalive is None and interval > 0:
            loop = asyncio.get_running_loop()
            # An empty context: the sleep's timer stays in the loop until its
            # deadline even once cancelled, and must not keep the caller's
            # context (an SSH session's app) alive that long after close().
            self._keepalive = loop.create_task(
                self._keepalive_loop(interval, timeout), context=contextvars.Context()
            )

    def _default_keepalive(self) -> float:
        """A third of the server's idle timeout; 0 (none) over a local socket.

        A local socket is the in-process transport, which the server never
        closes for idling, and its peer cannot vanish without the kernel
        ending the stream: a ping would find nothing a read does not.
        """
        sock = self._writer.get_extra_info("socket")
        if sock is not None and sock.family == getattr(socket, "AF_UNIX", None):
            return 0.0
        idle = self.welcome.limits.get("idle_timeout") if self.welcome else None
        return max(1.0, float(idle) / 3) if idle else 30.0

    async def _keepalive_loop(self, interval: float, timeout: float) -> None:
        while not self.closed:
            await asyncio.sleep(interval)
            try:
                await self.request({"type": "ping"}, timeout=timeout)
            except TimeoutError:
                self._drop("the server stopped answering")
                self._writer.transport.abort()
                return
            except ConnectionLost:
                return

    async def _read_loop(self) -> None:
        try:
            while True:
                data = await self._reader.read(READ_CHUNK)
                if not data:
                    self._drop("the server closed the connection")
                    return
                self._decoder.feed(data)
                for item in self._decoder:
                    self._dispatch(item)
                if self._decoder.failed:
                    self._drop("the server sent an oversized frame")
                    return
                if self._pushes.qsize() > self.max_queued_pushes:
                    self._drop("too many pushes were left unread")
                    self._writer.transport.abort()
                    return
        except (ConnectionError, OSError) as exc:
            self._drop(f"connection error: {exc}")
        finally:
            self._pushes.put_nowait(_END)

    def _dispatch(self, item: Any) -> None:
        if isinstance(item, BadFrame):
            logger.warning("undecodable frame from the server: %s", item.error.message)
            return
        try:
            message = check_message(item, sender="server")
        except ProtocolError as exc:
            logger.warning("unexpected message from the server: %s", exc.message)
            return
        kind = message["type"]
        if kind in ("ok", "error") and message.get("re") in self._pending:
            self._resolve(self._pending[message["re"]], message)
            return
        if kind == "bye":
            self._lost = ConnectionLost(message["message"], message["code"])
        self._pushes.put_nowait(message)

    @staticmethod
    def _resolve(future: asyncio.Future[dict[str, Any]], reply: dict[str, Any]) -> None:
        if future.done():
            return
        if reply["type"] == "error":
            details = {k: v for k, v in reply.items() if k not in _ERROR_FIELDS}
            future.set_exception(ServerError(reply["code"], reply["message"], details))
        else:
            future.set_result(reply)

    def _drop(self, why: str) -> ConnectionLost:
        if self._lost is None:
            self._lost = ConnectionLost(why)
        for future in self._pending.values():
            if not future.done():
                future.set_exception(self._lost)
        return self._lost


__all__ = [
    "ConnectionLost",
    "ErrorCode",
    "LobbyTables",
    "ServerConnection",
    "ServerError",
    "Welcome",
]
