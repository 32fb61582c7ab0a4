"""Where a front door listens: every interface, IPv4 and IPv6, unless given one address.

A host of None means every interface.  Where the system allows it, that is
one IPv6 socket that also takes IPv4 connections (a "dual-stack" socket, as
``python -m http.server`` uses): one socket, so one port even when port 0
asks the system to pick it.  Given host None themselves, asyncio and asyncssh
would bind a socket per address family, and with port 0 each gets its own port.
Where dual-stack sockets are not available (a system without IPv6, or one
that keeps the two apart), the libraries bind host None their own way:
every address family the system has, and with port 0 each family may get
its own port (the log names each socket and its port).

And ``keep_alive``: TCP keepalives on a connection that is never closed for
idling (a door host's link to its lobby, both ends).
"""

from __future__ import annotations

import contextlib
import errno
import ipaddress
import socket
from collections.abc import Sequence
from typing import Any, Protocol

ALL_INTERFACES = "all interfaces (IPv4 and IPv6)"

# Binding "::" fails with these when the system has IPv6 in name only.
_NO_IPV6_ERRORS = frozenset({errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT})


class BoundSocket(Protocol):
    """A listening socket as asyncio's ``Server.sockets`` gives it."""

    @property
    def family(self) -> int: ...

    def getsockname(self) -> Any: ...

    def getsockopt(self, level: int, option: int) -> int: ...


def dual_stack_socket(host: str | None, port: int) -> socket.socket | None:
    """A bound socket for every interface, or None: let the library bind ``host``.

    Only for host None on a system with dual-stack sockets.  Raises
    ``OSError`` when ``port`` is taken; the caller owns the socket.  It is
    bound but not listening yet: nobody can connect before the server
    starts serving it (``start_serving``), so a server whose other doors
    fail to start never takes a connection here.
    """
    if host is not None or not socket.has_dualstack_ipv6():
        return None
    try:
        return _bound(socket.AF_INET6, ("::", port), dual_stack=True)
    except OSError as exc:
        if exc.errno in _NO_IPV6_ERRORS:
            return None
        raise


def bound_sockets(host: str | None, port: int) -> list[socket.socket]:
    """Every socket ``host`` listens on, bound to ``port`` but not listening yet.

    As asyncio's ``create_server`` binds them (one a resolved address; host
    None: the one dual-stack socket where the system has it, else every
    address family), for a library that takes its sockets one at a time
    (asyncssh).  Raises ``OSError`` when one cannot be bound (and closes the
    others); the caller owns the sockets.
    """
    sock = dual_stack_socket(host, port)
    if sock is not None:
        return [sock]
    infos = socket.getaddrinfo(
        host, port, family=socket.AF_UNSPEC, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )
    sockets: list[socket.socket] = []
    try:
        for family, _type, _proto, _name, address in dict.fromkeys(infos):
            if family not in (socket.AF_INET, socket.AF_INET6):
                continue
            if port == 0 and sockets:  # one port for every family, as the first got it
                address = (address[0], sockets[0].getsockname()[1], *address[2:])
            sockets.append(_bound(family, address, dual_stack=False))
    except BaseException:
        for sock in sockets:
            sock.close()
        raise
    return sockets


def _bound(family: int, address: Any, *, dual_stack: bool) -> socket.socket:
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0 if dual_stack else 1)
        sock.bind(address)
    except BaseException:
        sock.close()
        raise
    return sock


def describe_listening(sockets: Sequence[BoundSocket]) -> str:
    """Where these sockets listen, as a person reads it.

    ``all interfaces (IPv4 and IPv6), port 7777``; ``127.0.0.1:7777``;
    ``all IPv4 interfaces, port 7777; all IPv6 interfaces, port 7777``.
    """
    return "; ".join(_place(sock) for sock in sockets)


def _place(sock: BoundSocket) -> str:
    address, port = sock.getsockname()[:2]
    if address == "0.0.0.0":
        return f"all IPv4 interfaces, port {port}"
    if address != "::":
        return f"[{address}]:{port}" if sock.family == socket.AF_INET6 else f"{address}:{port}"
    v6_only = sock.getsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY)
    return f"all IPv6 interfaces, port {port}" if v6_only else f"{ALL_INTERFACES}, port {port}"


def peer_host(peername: Any) -> str:
    """The client's address from ``peername``; an IPv4 client of a dual-stack
    socket (``::ffff:192.0.2.7``) shows as its IPv4 address (``192.0.2.7``)."""
    if not peername:
        return "?"
    host = str(peername[0])
    try:
        mapped = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(mapped, ipaddress.IPv6Address) and mapped.ipv4_mapped is not None:
        return str(mapped.ipv4_mapped)
    return host


def keep_alive(sock: socket.socket) -> None:
    """TCP keepalives: a lobby (or door host) whose machine vanished is noticed in about
    a minute, even by a connection nobody speaks on."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    for option, value in (("TCP_KEEPIDLE", 30), ("TCP_KEEPINTVL", 10), ("TCP_KEEPCNT", 3)):
        if hasattr(socket, option):
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, option), value)


__all__ = [
    "ALL_INTERFACES",
    "bound_sockets",
    "describe_listening",
    "dual_stack_socket",
    "keep_alive",
    "peer_host",
]
