"""SkyjoServer: the store, the lobby, and the front doors people come in by.

A front door is anything with ``start(server)`` and ``stop()``: the TCP
listener here is one; the SSH front door is another, attached with
``server.add_front_door(door)`` before ``start()``. Doors that serve people
in-process (the SSH front door, the local game) get a connection from
``open_in_process(identity)``: the same protocol over a socket pair, with a
trusted identity that TCP clients cannot claim (but for a door host's players,
claimed with the door secret: ``server.link.gate``). An in-process connection
lives as long as the app that owns it: it is never closed for being idle.

Each connection is a thin adapter (``_serve``): read with a timeout, decode
frames, check each message's shape and rate, hand it to the lobby. Bad input
is answered with an error and never reaches anyone else.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import socket
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from .config import Limits, ServerConfig
from .datadir import DataDirLock
from .limits import ConnectionRegistry, Refusal
from .listen import describe_listening, dual_stack_socket, keep_alive, peer_host
from .lobby import Lobby, Session
from .lobby.session import IN_PROCESS, LOCAL, TCP, half_close, linger
from .protocol import (
    DOOR_REQUESTS,
    BadFrame,
    ErrorCode,
    FrameDecoder,
    ProtocolError,
    bye,
    check_message,
    encode_frame,
    error,
)
from .proxyheader import HEADER_TIMEOUT, ProxyHeaderError, TrustedProxies, read_proxy_header
from .ratelog import RefusalLog
from .store import Store

if TYPE_CHECKING:
    from .link.gate import DoorGate
    from .link.options import GateOptions

logger = logging.getLogger(__name__)

READ_CHUNK = 65536
REFUSAL_CODES = {
    Refusal.FULL: ErrorCode.SERVER_FULL,
    Refusal.PER_ADDRESS: ErrorCode.TOO_MANY_FROM_ADDRESS,
}
STOP_GRACE = 2.0  # seconds connections get to finish when the server stops
NO_DOOR_HOSTS = "this server takes no door hosts (it was started without --door-secret)"


class FrontDoor(Protocol):
    """A way in: started after the lobby is loaded, stopped before it is saved.

    A door may also have ``bind(server)``: called for every door before the
    lobby is loaded and before any door starts, it claims what could fail
    (its sockets, bound but not listening yet; its files), so that a door
    that cannot start stops the server before anyone is served.
    ``start`` then only begins serving what ``bind`` claimed.
    """

    async def start(self, server: SkyjoServer) -> None: ...

    async def stop(self) -> None: ...


class TcpFrontDoor:
    """The protocol over TCP (``skyjo --connect``, other programs).

    ``host`` None listens on every interface, IPv4 and IPv6 (``server.listen``).
    """

    def __init__(self, host: str | None, port: int) -> None:
        self.host = host
        self.port = port
        self._server: asyncio.base_events.Server | None = None

    async def bind(self, server: SkyjoServer) -> None:
        """Bind the port (nobody can connect yet); raises ``OSError`` when it is taken."""
        if self._server is not None:
            return
        sock = dual_stack_socket(self.host, self.port)
        try:
            if sock is None:
                self._server = await asyncio.start_server(
                    server.serve_tcp, self.host, self.port, start_serving=False
                )
            else:
                self._server = await asyncio.start_server(
                    server.serve_tcp, sock=sock, start_serving=False
                )
        except BaseException:
            if sock is not None:
                sock.close()  # asyncio never took it
            raise
        self.port = self._server.sockets[0].getsockname()[1]

    async def start(self, server: SkyjoServer) -> None:
        await self.bind(server)
        assert self._server is not None
        await self._server.start_serving()
        logger.info("listening on %s (TCP)", describe_listening(self._server.sockets))

    @property
    def addresses(self) -> list[Any]:
        """Each listening socket's ``getsockname()``; none when stopped."""
        return [] if self._server is None else [s.getsockname() for s in self._server.sockets]

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None


class SkyjoServer:
    def __init__(
        self, config: ServerConfig | None = None, door_hosts: GateOptions | None = None
    ) -> None:
        """``door_hosts``: door hosts may claim their players' identities over TCP
        (``server.link``; ``skyjo-server --role lobby``); None: no door host may."""
        self.config = config or ServerConfig()
        self.door_hosts = door_hosts
        self.gate: DoorGate | None = None
        """Set while started with ``door_hosts``."""
        self.data_lock = DataDirLock(self.config.data_path)
        self.store = Store(self.config.database_path, self.config.sync)
        self.lobby = Lobby(self.store, self.config)
        self.tcp = TcpFrontDoor(self.config.host, self.config.port)
        self.front_doors: list[FrontDoor] = [self.tcp]
        self._connections: set[asyncio.Task[None]] = set()
        self.tcp_connections: ConnectionRegistry[asyncio.Task[None]] = ConnectionRegistry(
            self.config.limits.max_connections, self.config.limits.max_connections_per_address
        )
        """Open TCP connections, held against the caps (in-process ones are the doors')."""
        self.trusted_proxies = TrustedProxies(self.config.trusted_proxies)
        self.proxy_refusals = RefusalLog(
            logger, "tcp connections from a trusted balancer without a valid PROXY header"
        )
        self._started = False

    @property
    def port(self) -> int:
        """The TCP port (the real one after ``start()``, even when configured as 0)."""
        return self.tcp.port

    def add_front_door(self, door: FrontDoor) -> None:
        """Attach another way in (e.g. SSH); call before ``start()``."""
        self.front_doors.append(door)

    async def start(self) -> None:
        """Hold the data directory, restore every table, open the front doors.

        Raises ``datadir.CannotStart`` (its message says what to do) when another
        server holds the directory or its database is damaged.
        """
        self.data_lock.acquire()
        try:
            if self.door_hosts is not None and self.gate is None:
                from .link.gate import DoorGate  # ssl: only with door hosts

                self.gate = DoorGate(self.door_hosts, self.lobby.bans)  # a bad certificate: here
                tls = "over TLS only" if self.door_hosts.tls_cert else "over plain TCP (no TLS)"
                logger.info("door hosts with the door secret may link, %s", tls)
            await self.store.open()
            # Every door claims its sockets and files first: one that cannot start
            # (a port in use, an unsafe admin directory) stops the server here,
            # before a table is restored or anyone is served.
            for door in self.front_doors:
                bind = getattr(door, "bind", None)
                if bind is not None:
                    await bind(self)
            await self.lobby.load()
            # TCP serves last: what else may still fail (the worker processes)
            # fails before anyone is in.
            for door in sorted(self.front_doors, key=lambda door: door is self.tcp):
                await door.start(self)
        except BaseException:
            await self.stop()
            raise
        self._started = True
        logger.info("data in %s", self.config.data_path)

    async def stop(self) -> None:
        """Close the doors and every connection; everything is stored by then."""
        for door in reversed(self.front_doors):
            with contextlib.suppress(Exception):
                await door.stop()
        await self.lobby.stop()
        if self._connections:
            _, pending = await asyncio.wait(list(self._connections), timeout=STOP_GRACE)
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
        await self.store.close()
        self.data_lock.release()  # last: nothing of ours touches the directory any more
        self._started = False

    def identity_banned(self, identity: str | None) -> bool:
        """The SSH door asks during authentication (a door host asks its copy)."""
        return self.lobby.bans.identity_banned(identity)

    async def open_in_process(
        self, identity: str | None = None, door: str = LOCAL, address: str = ""
    ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """A connection for a trusted in-process front door, with its identity.

        ``identity`` (e.g. ``"ssh-key:SHA256:..."``) owns the names it reserves
        and logs straight in as the player it last was; None is a guest. Wrap
        the streams with ``ServerConnection.from_streams``, which sends no
        pings over them: the connection is never closed for idling, so an idle
        player wakes nobody. ``door`` names the way in (``DoorPlayer.door``:
        "ssh", "web"; the local game's is ``LOCAL``), for the metrics. ``address``
        is the client's, as the door knows it (``DoorPlayer.peer``): the admin sees
        it, and the caps per address count it; "" (the local game): none.
        """
        sock = await self.open_in_process_socket(identity, door, address)
        return await asyncio.open_connection(sock=sock)

    async def open_in_process_socket(
        self, identity: str | None = None, door: str = LOCAL, address: str = ""
    ) -> socket.socket:
        """``open_in_process``'s socket itself, e.g. to hand over to a worker
        process of this server (``server.ssh.workers``): still in-process and
        trusted, as it was opened here."""
        ours, theirs = socket.socketpair()
        reader, writer = await asyncio.open_connection(sock=ours)
        self._spawn(
            self._serve(
                reader,
                writer,
                identity=identity,
                address=address or IN_PROCESS,
                door=door,
                in_process=True,
            )
        )
        return theirs

    # -- connections -----------------------------------------------------------------

    async def serve_tcp(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peername = writer.get_extra_info("peername")
        task = asyncio.current_task()
        assert task is not None
        if peername in self.trusted_proxies:
            self._track(task)  # stopped with the server while it reads the header
            peername = await self._proxied_peer(reader, writer, peername)
            if peername is None:
                return
        address = peer_host(peername)
        # A linked door host's address brings all of its players (every one of them
        # reconnects at once after a lobby restart): not held to the cap per address, but
        # counted in the total until it claims, as anyone else sharing that address is.
        door_host = self.gate is not None and self.gate.linked_from(address)
        refusal = self.tcp_connections.admit(address, task, per_address=not door_host)
        if refusal is not None:
            writer.write(encode_frame(bye(REFUSAL_CODES[refusal], refusal.value)))
            half_close(writer)
            await linger(reader, writer)
            return
        self._track(task)

        def claimed() -> None:
            # A door host's player: the door host caps its own; this address is the door host's.
            self.tcp_connections.release(address, task)
            # Never closed for idling (its life is the app's): keepalives find a door host
            # whose machine vanished.
            keep_alive(writer.get_extra_info("socket"))

        try:
            await self._serve(
                reader,
                writer,
                identity=None,
                address=address,
                door=TCP,
                in_process=False,
                claimed=claimed,
            )
        finally:
            self.tcp_connections.release(address, task)

    async def _proxied_peer(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, peername: Any
    ) -> Any:
        """The client's peername from the PROXY header of a trusted balancer's connection
        (the balancer's own for a health check); None, the connection closed, counted and
        logged, without a valid header in time."""
        try:
            async with asyncio.timeout(HEADER_TIMEOUT):
                source = await read_proxy_header(reader.readexactly)
        except TimeoutError:
            reason = f"no PROXY header in {HEADER_TIMEOUT:g} s"
        except (ProxyHeaderError, asyncio.IncompleteReadError, OSError) as exc:
            reason = str(exc) or type(exc).__name__
        else:
            return source or peername
        self.proxy_refusals.refused(f"{peer_host(peername)}: {reason}")
        writer.close()
        return None

    def _spawn(self, coro: Any) -> None:
        # An empty context: a front door's (e.g. the SSH app's) never leaks into the server's tasks.
        self._track(asyncio.get_running_loop().create_task(coro, context=contextvars.Context()))

    def _track(self, task: asyncio.Task[None]) -> None:
        self._connections.add(task)
        task.add_done_callback(self._connections.discard)

    async def _serve(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        identity: str | None,
        address: str,
        door: str,
        in_process: bool,
        claimed: Callable[[], None] | None = None,
    ) -> None:
        limits = self.config.limits
        session = Session(writer, limits, identity=identity, address=address, door=door)
        decoder = FrameDecoder(limits.max_frame)
        # An in-process peer is the app that owns it, never a vanished network
        # peer: its player may stay idle as long as the app runs.
        clock = Deadlines(limits, idle=not in_process)
        self.lobby.connected(session)
        try:
            while not session.closed:
                try:
                    data = await asyncio.wait_for(reader.read(READ_CHUNK), clock.remaining())
                except TimeoutError:
                    session.close(ErrorCode.IDLE_TIMEOUT, clock.why())
                    break
                if not data or session.closed:  # its end, or we closed it meanwhile
                    break
                decoder.feed(data)
                for item in decoder:
                    await self._receive(session, item, clock)
                    if session.closed:
                        break
                if claimed is not None and session.door_claimed:
                    claimed()
                    claimed = None
        except (ConnectionError, OSError):
            pass  # the peer went away (or failed its TLS handshake): same as end of stream
        finally:
            if self.gate is not None:
                self.gate.disconnected(session)
            self.lobby.disconnected(session)
            if not session.closed:
                session.closed = True
                writer.close()
            else:  # we said bye: the client hears it before the connection ends
                await linger(reader, writer)

    async def _receive(self, session: Session, item: Any, clock: Deadlines) -> None:
        """One frame from a client: rate-limited, checked, then handled.

        The rate limit comes first, so that a stream of garbage costs the
        client its allowance like any other message.
        """
        re = item.get("id") if isinstance(item, dict) and type(item.get("id")) is int else None
        if not session.messages.take():
            if session.messages.refused > self.config.limits.message_burst:
                session.close(ErrorCode.RATE_LIMITED, "too many messages: disconnected")
            else:
                session.send(error(re, ErrorCode.RATE_LIMITED, "too many messages: dropped"))
            return
        if isinstance(item, BadFrame):
            if item.fatal:
                session.close(item.error.code, item.error.message)
            else:
                session.send(error(None, item.error.code, item.error.message))
            return
        try:
            message = check_message(item, sender="client")
        except ProtocolError as exc:
            session.send(error(re, exc.code, exc.message, **exc.details))
            return
        if message["type"] in DOOR_REQUESTS:
            if self.gate is None:
                session.send(error(re, ErrorCode.DOOR_REFUSED, NO_DOOR_HOSTS))
            else:
                await self.gate.handle(session, message, clock)
            return
        await self.lobby.handle(session, message)
        clock.heard(session.welcomed)


class Deadlines:
    """When a connection is closed for silence.

    Until it is welcomed, a connection has ``hello_timeout`` seconds from the
    moment it opened, whatever it sends meanwhile; afterwards it may stay
    silent ``idle_timeout`` seconds after its last valid request, or forever
    when ``idle`` is False. Bytes alone (a frame sent one byte at a time,
    garbage) never count as being heard.

    The hello deadline holds for every connection: a front door says hello as
    soon as it opens one, so it costs one early timer, and a connection whose
    opener failed before hello does not hold a server task for ever.
    """

    def __init__(self, limits: Limits, *, idle: bool = True) -> None:
        self._idle_timeout = limits.idle_timeout if idle else None
        self._welcomed = False
        self._deadline: float | None = time.monotonic() + limits.hello_timeout

    def trust(self, *, link: bool) -> None:
        """A door host claimed the connection: its life is its app's, as in-process
        (``link``: the door host's own, which says no hello either)."""
        self._idle_timeout = None
        if link:
            self._deadline = None

    def heard(self, welcomed: bool) -> None:
        """A valid request was handled."""
        if welcomed:
            self._welcomed = True
            if self._idle_timeout is None:
                self._deadline = None
            else:
                self._deadline = time.monotonic() + self._idle_timeout

    def remaining(self) -> float | None:
        """Seconds left to be heard; None: no deadline (no timer to arm)."""
        if self._deadline is None:
            return None
        return max(0.0, self._deadline - time.monotonic())

    def why(self) -> str:
        return "no message for too long" if self._welcomed else "no hello in time"


__all__ = ["FrontDoor", "SkyjoServer", "TcpFrontDoor"]
