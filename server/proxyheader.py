"""The PROXY protocol: the header a TCP load balancer (HAProxy's ``send-proxy`` and
``send-proxy-v2``) puts before a connection's own bytes, saying whose connection it is.

Behind a balancer every connection comes from the balancer's address; the header gives
the player's, so that the per-address caps and the logs see players, not the balancer.
It is believed only from the balancers the operator names (``TrustedProxies``): any
other peer could write one and pass for anyone.  Connections from those must start with
one; nothing from anyone else is ever read as a header.

Both versions (https://www.haproxy.org/download/2.8/doc/proxy-protocol.txt):

- v1, text: ``PROXY TCP4 192.0.2.7 198.51.100.1 51234 2222\\r\\n`` (at most 107 bytes;
  ``PROXY UNKNOWN ...\\r\\n`` for a connection the balancer cannot describe);
- v2, binary: a 12-byte signature, version and command, family and protocol, a
  length, the addresses, then optional TLVs (read and ignored).  The ``LOCAL``
  command (HAProxy's health checks) means "the balancer's own connection".

Parsed here by hand rather than with a library (PyPI's ``proxy-protocol`` reads from
asyncio streams): the SSH door hands the connection's socket to asyncssh after the
header, so the header must be read to its exact end and not a byte further, which
``read_proxy_header`` does through whatever reads exactly N bytes (``recv_exactly`` on a
socket; ``StreamReader.readexactly``).  It is strict (every field checked, nothing
guessed) and bounded (at most ``V1_MAX_LENGTH`` or ``16 + V2_MAX_LENGTH`` bytes, read
under the caller's deadline): any bad header is a ``ProxyHeaderError``, never anything
else.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import struct
from collections.abc import Awaitable, Callable, Iterable
from typing import Final

from .listen import IPNetwork, peer_host

V2_SIGNATURE: Final = b"\r\n\r\n\x00\r\nQUIT\n"
V1_PREFIX: Final = b"PROXY "
V1_MAX_LENGTH: Final = 107
"""The longest v1 line, CRLF included (the specification's bound)."""
V2_MAX_LENGTH: Final = 2048
"""The most bytes after v2's 16-byte start (addresses and TLVs) accepted; HAProxy sends
12 (IPv4) or 36 (IPv6) and a few TLVs when told to (e.g. ``proxy-v2-options ssl``)."""
HEADER_TIMEOUT: Final = 5.0
"""Seconds a trusted balancer's connection has to send its whole header."""

_V2_ADDRESSES: Final = {
    0x11: (socket.AF_INET, 12),  # TCP over IPv4: source, destination, ports
    0x21: (socket.AF_INET6, 36),  # TCP over IPv6
}
"""Families and protocols whose source is a player's address, and their block's size."""
_V2_OTHERS: Final = frozenset({0x00, 0x12, 0x22, 0x31, 0x32})
"""Valid families whose source is no IP player (UNSPEC, UDP, UNIX): the balancer's own
address stands (the specification: "use the real connection endpoints")."""

Peer = tuple[str, int]
"""A connection's (host, port), as ``get_extra_info("peername")`` gives it."""
ReadExactly = Callable[[int], Awaitable[bytes]]


class ProxyHeaderError(ValueError):
    """Not a valid PROXY protocol header (the message says what is wrong, for the log)."""


class TrustedProxies:
    """The balancers whose PROXY headers are believed (addresses or networks)."""

    def __init__(self, networks: Iterable[IPNetwork]) -> None:
        self.networks: tuple[IPNetwork, ...] = tuple(networks)

    def __bool__(self) -> bool:
        return bool(self.networks)

    def __contains__(self, peername: object) -> bool:
        """Whether a connection from ``peername`` (a socket's peer) is from one of them;
        an IPv4 peer of a dual-stack socket (``::ffff:10.0.0.2``) counts as IPv4."""
        try:
            address = ipaddress.ip_address(peer_host(peername))
        except ValueError:  # a Unix socket's peer, or none
            return False
        return any(address in network for network in self.networks)


async def read_proxy_header(read_exactly: ReadExactly) -> Peer | None:
    """Read one header (v1 or v2) through ``read_exactly`` and stop at its end.

    Returns the player's (host, port), or None where the header says the connection is
    the balancer's own (v1 ``UNKNOWN``, v2 ``LOCAL``, or not TCP over IP). Raises
    ``ProxyHeaderError`` for anything else, ``asyncio.IncompleteReadError`` or
    ``ConnectionError`` (from ``read_exactly``) when the connection ends before it.
    The caller bounds the time (``HEADER_TIMEOUT``).
    """
    start = await read_exactly(len(V2_SIGNATURE))  # shorter than any v1 line, too
    if start == V2_SIGNATURE:
        return await _read_v2(read_exactly)
    if start.startswith(V1_PREFIX):
        return await _read_v1(start, read_exactly)
    raise ProxyHeaderError(f"no PROXY header (starts {start[:8]!r})")


async def _read_v1(start: bytes, read_exactly: ReadExactly) -> Peer | None:
    line = bytearray(start)
    while not line.endswith(b"\r\n"):  # a byte at a time: never past the line's end
        if len(line) >= V1_MAX_LENGTH:
            raise ProxyHeaderError(f"PROXY v1 line longer than {V1_MAX_LENGTH} bytes")
        line += await read_exactly(1)
    return parse_v1(bytes(line))


def parse_v1(line: bytes) -> Peer | None:
    """A whole v1 line (CRLF included): the source, or None for ``UNKNOWN``."""
    if not line.startswith(V1_PREFIX) or not line.endswith(b"\r\n"):
        raise ProxyHeaderError("not a PROXY v1 line")
    if len(line) > V1_MAX_LENGTH:
        raise ProxyHeaderError(f"PROXY v1 line longer than {V1_MAX_LENGTH} bytes")
    try:
        text = line[len(V1_PREFIX) : -2].decode("ascii")
    except UnicodeDecodeError:
        raise ProxyHeaderError("PROXY v1 line is not ASCII") from None
    if "\r" in text or "\n" in text:
        raise ProxyHeaderError("PROXY v1 line has a stray CR or LF")
    fields = text.split(" ")
    if fields[0] == "UNKNOWN":  # the rest, if any, is to be ignored
        return None
    if len(fields) != 5 or fields[0] not in ("TCP4", "TCP6"):
        raise ProxyHeaderError(f"PROXY v1 line is not TCP4, TCP6 or UNKNOWN: {text[:40]!r}")
    family, source, destination, source_port, destination_port = fields
    version = 4 if family == "TCP4" else 6
    for address in (source, destination):
        try:
            parsed = ipaddress.ip_address(address)
        except ValueError:
            raise ProxyHeaderError(f"PROXY v1 address {address[:40]!r} is not valid") from None
        if parsed.version != version:
            raise ProxyHeaderError(f"PROXY v1 address {address!r} is not {family}")
    port = _v1_port(source_port)
    _v1_port(destination_port)
    return source, port


def _v1_port(text: str) -> int:
    # Decimal, 0-65535, no sign, no leading zero (the specification's form).
    if not text.isascii() or not text.isdigit() or (len(text) > 1 and text[0] == "0"):
        raise ProxyHeaderError(f"PROXY v1 port {text[:8]!r} is not valid")
    port = int(text)
    if port > 65535:
        raise ProxyHeaderError(f"PROXY v1 port {port} is out of range")
    return port


async def _read_v2(read_exactly: ReadExactly) -> Peer | None:
    version_command, family_protocol, length = struct.unpack("!BBH", await read_exactly(4))
    if version_command >> 4 != 2:
        raise ProxyHeaderError(f"PROXY v2 header of version {version_command >> 4}")
    command = version_command & 0x0F
    if command not in (0, 1):
        raise ProxyHeaderError(f"PROXY v2 command {command} is not LOCAL or PROXY")
    if length > V2_MAX_LENGTH:
        raise ProxyHeaderError(f"PROXY v2 header of {length} bytes (at most {V2_MAX_LENGTH})")
    body = await read_exactly(length) if length else b""
    return parse_v2(command, family_protocol, body)


def parse_v2(command: int, family_protocol: int, body: bytes) -> Peer | None:
    """A v2 header's fields after its length: the source, or None (LOCAL, not TCP/IP)."""
    if family_protocol not in _V2_ADDRESSES and family_protocol not in _V2_OTHERS:
        raise ProxyHeaderError(f"PROXY v2 family and protocol 0x{family_protocol:02x}")
    if command == 0:  # LOCAL: the balancer's own connection (a health check)
        return None
    if family_protocol not in _V2_ADDRESSES:
        return None
    family, size = _V2_ADDRESSES[family_protocol]
    if len(body) < size:
        raise ProxyHeaderError(f"PROXY v2 addresses of {len(body)} bytes, {size} needed")
    half = (size - 4) // 2
    source = socket.inet_ntop(family, body[:half])
    (source_port,) = struct.unpack("!H", body[2 * half : 2 * half + 2])
    return source, source_port


async def recv_exactly(sock: socket.socket, count: int) -> bytes:
    """``count`` bytes from a non-blocking socket, and not one more (the rest stays in
    the kernel for whoever reads the connection next); ``ConnectionError`` if it ends."""
    loop = asyncio.get_running_loop()
    data = bytearray()
    while len(data) < count:
        chunk = await loop.sock_recv(sock, count - len(data))
        if not chunk:
            raise ConnectionResetError("the connection ended inside its PROXY header")
        data += chunk
    return bytes(data)


__all__ = [
    "HEADER_TIMEOUT",
    "V1_MAX_LENGTH",
    "V2_MAX_LENGTH",
    "V2_SIGNATURE",
    "Peer",
    "ProxyHeaderError",
    "TrustedProxies",
    "parse_v1",
    "parse_v2",
    "read_proxy_header",
    "recv_exactly",
]
