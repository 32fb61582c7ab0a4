"""The SSH door behind a TCP load balancer: the PROXY header first, then SSH.

With ``--ssh-trust-proxy`` the door accepts its connections itself (``ProxiedAcceptor``,
in place of asyncssh's listener): one from a trusted balancer must start with a PROXY
protocol header (``server.proxyheader``), read to its exact end within
``SSHLimits.proxy_header_timeout``; the socket then goes to asyncssh
(``asyncssh.run_server``, made for connections accepted outside it) with the player's
address for the connection's ``peername``, so the per-address caps, the
``from="..."`` options of authorized keys, the logs and ``skyjo-server admin players``
see the player.  A trusted connection without a valid header is closed, counted and
said in the log at most once a minute (``server.ratelog``); a connection from anyone
else is plain SSH, its first bytes never read as a header.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Callable

import asyncssh

from ..listen import peer_host
from ..proxyheader import (
    Peer,
    ProxyHeaderError,
    TrustedProxies,
    read_proxy_header,
    recv_exactly,
)
from ..ratelog import RefusalLog
from .connection import SSHAppServer

logger = logging.getLogger(__name__)


class ProxiedAcceptor:
    """Serves one bound socket as asyncssh's ``SSHAcceptor`` would, reading the PROXY
    header of each connection from a trusted balancer first."""

    def __init__(
        self,
        sock: socket.socket,
        *,
        trusted: TrustedProxies,
        options: asyncssh.SSHServerConnectionOptions,
        server_factory: Callable[[], SSHAppServer],
        refusals: RefusalLog,
        header_timeout: float,
    ) -> None:
        self._sock = sock
        self._trusted = trusted
        self._options = options
        self._server_factory = server_factory
        self._refusals = refusals
        self._header_timeout = header_timeout
        self._accepting: asyncio.Task[None] | None = None
        self._arriving: set[asyncio.Task[None]] = set()
        """Connections not yet authenticated (their header, then asyncssh's login)."""

    @property
    def sockets(self) -> list[socket.socket]:
        return [self._sock]

    def get_port(self) -> int:
        return int(self._sock.getsockname()[1])

    def start(self) -> None:
        self._sock.setblocking(False)
        self._sock.listen(socket.SOMAXCONN)
        self._accepting = asyncio.get_running_loop().create_task(self._accept())

    def close(self) -> None:
        """Stop accepting and drop the connections still arriving; the logged-in ones
        are the door's (``SSHSessions.close``)."""
        if self._accepting is not None:
            self._accepting.cancel()
        for task in self._arriving:
            task.cancel()
        self._sock.close()

    async def wait_closed(self) -> None:
        tasks = [*self._arriving, *([self._accepting] if self._accepting else [])]
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _accept(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                conn, peername = await loop.sock_accept(self._sock)
            except OSError as exc:  # out of descriptors, say: the kernel keeps the queue
                logger.warning("ssh front door: accept failed: %s", exc)
                await asyncio.sleep(1.0)
                continue
            task = loop.create_task(self._arrive(conn, peername))
            self._arriving.add(task)
            task.add_done_callback(self._arriving.discard)

    async def _arrive(self, conn: socket.socket, peername: Peer) -> None:
        conn.setblocking(False)
        client = peername
        if peername in self._trusted:
            try:
                async with asyncio.timeout(self._header_timeout):
                    source = await read_proxy_header(lambda count: recv_exactly(conn, count))
            except TimeoutError:
                self._refuse(conn, peername, f"no PROXY header in {self._header_timeout:g} s")
                return
            except (ProxyHeaderError, OSError) as exc:
                self._refuse(conn, peername, str(exc))
                return
            except BaseException:
                conn.close()
                raise
            client = source or peername

        def server_factory() -> SSHAppServer:
            server = self._server_factory()
            server.client_peername = client
            return server

        try:
            # Returns once the player is logged in (or raises): the connection is then
            # asyncssh's and the door's; login_timeout bounds the wait.
            await asyncssh.run_server(conn, options=self._options, server_factory=server_factory)
        except Exception as exc:  # noqa: BLE001 - a client's failure, never the door's
            logger.debug(
                "ssh connection from %s ended before its login: %s", peer_host(client), exc
            )

    def _refuse(self, conn: socket.socket, peername: Peer, reason: str) -> None:
        with contextlib.suppress(OSError):
            conn.close()
        self._refusals.refused(f"{peer_host(peername)}: {reason}")


__all__ = ["ProxiedAcceptor"]
