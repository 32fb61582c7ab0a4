"""The SSH door behind a TCP load balancer: PROXY protocol headers (v1 and v2) from the
balancers it trusts give the player's address; from anyone else nothing is a header.

The balancer here is the test itself on 127.0.0.1 writing the header HAProxy would
(tests/hosts drive Debian's HAProxy between network namespaces)."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import socket
import struct
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.admin.commands import players
from server.proxyheader import (
    V1_MAX_LENGTH,
    V2_SIGNATURE,
    ProxyHeaderError,
    TrustedProxies,
    read_proxy_header,
)
from server.ssh.options import SSHLimits

from .realdoor import RealDoor, real_door
from .sshkit import TIMEOUT, closing, connect, connect_guest, open_terminal

LOCALHOST = (ipaddress.ip_network("127.0.0.1/32"),)
PLAYER = "203.0.113.7"


def v1_header(source: str, source_port: int = 51234) -> bytes:
    family = "TCP6" if ":" in source else "TCP4"
    destination = "::1" if family == "TCP6" else "127.0.0.1"
    return f"PROXY {family} {source} {destination} {source_port} 2222\r\n".encode()


def v2_header(source: str | None, source_port: int = 51234, tlvs: bytes = b"") -> bytes:
    """HAProxy's send-proxy-v2 (None: the LOCAL command of its health checks)."""
    if source is None:
        return V2_SIGNATURE + bytes([0x20, 0x00]) + struct.pack("!H", len(tlvs)) + tlvs
    address = ipaddress.ip_address(source)
    family = 0x11 if address.version == 4 else 0x21
    destination = ipaddress.ip_address("127.0.0.1" if address.version == 4 else "::1")
    body = address.packed + destination.packed + struct.pack("!HH", source_port, 2222) + tlvs
    return V2_SIGNATURE + bytes([0x21, family]) + struct.pack("!H", len(body)) + body


class Bytes:
    """``read_exactly`` over bytes, remembering how far it read."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.position = 0

    async def read_exactly(self, count: int) -> bytes:
        end = self.position + count
        if end > len(self.data):
            raise asyncio.IncompleteReadError(self.data[self.position :], count)
        chunk, self.position = self.data[self.position : end], end
        return chunk


def parse(data: bytes) -> tuple[Any, int]:
    """The header's result and the bytes read for it."""
    reader = Bytes(data)
    return asyncio.run(read_proxy_header(reader.read_exactly)), reader.position


# -- the headers -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "source"),
    [
        (v1_header("203.0.113.7"), ("203.0.113.7", 51234)),
        (v1_header("2001:db8::7", 0), ("2001:db8::7", 0)),
        (b"PROXY UNKNOWN\r\n", None),
        (b"PROXY UNKNOWN ffff::1 ffff::2 1 2\r\n", None),
        (v2_header("203.0.113.7"), ("203.0.113.7", 51234)),
        (v2_header("2001:db8::7", 65535), ("2001:db8::7", 65535)),
        (v2_header("203.0.113.7", tlvs=b"\x03\x00\x04abcd"), ("203.0.113.7", 51234)),
        (v2_header(None), None),
    ],
)
def test_a_header_gives_the_source_and_is_read_to_its_end_only(
    header: bytes, source: tuple[str, int] | None
) -> None:
    ssh = b"SSH-2.0-OpenSSH_9.2\r\n"
    assert parse(header + ssh) == (source, len(header))


@pytest.mark.parametrize(
    "header",
    [
        b"SSH-2.0-OpenSSH_9.2p1\r\n",
        b"PROXY TCP4 203.0.113.7 127.0.0.1 51234 2222\n",  # LF alone
        b"PROXY TCP4 203.0.113.7  127.0.0.1 51234 2222\r\n",  # two spaces
        b"PROXY TCP4 2001:db8::7 127.0.0.1 51234 2222\r\n",  # not IPv4
        b"PROXY TCP4 203.0.113.007 127.0.0.1 51234 2222\r\n",  # leading zeros
        b"PROXY TCP4 203.0.113.7 127.0.0.1 051234 2222\r\n",
        b"PROXY TCP4 203.0.113.7 127.0.0.1 65536 2222\r\n",
        b"PROXY TCP4 203.0.113.7 127.0.0.1 +1 2222\r\n",
        b"PROXY UDP4 203.0.113.7 127.0.0.1 1 2222\r\n",
        b"PROXY TCP4 \xc3\xa9 127.0.0.1 1 2222\r\n",
        b"PROXY TCP4 203.0.113.7\r127.0.0.1 1 2222\r\n",
        b"PROXY " + b"9" * 200 + b"\r\n",  # never read past 107 bytes
        V2_SIGNATURE + bytes([0x11, 0x11, 0, 12]) + bytes(12),  # version 1
        V2_SIGNATURE + bytes([0x22, 0x11, 0, 12]) + bytes(12),  # command 2
        V2_SIGNATURE + bytes([0x21, 0x41, 0, 12]) + bytes(12),  # family 4
        V2_SIGNATURE + bytes([0x21, 0x11, 0, 11]) + bytes(11),  # short addresses
        V2_SIGNATURE + bytes([0x21, 0x21, 0, 12]) + bytes(12),  # IPv6 in 12 bytes
        V2_SIGNATURE + bytes([0x21, 0x11, 0xFF, 0xFF]),  # 65535 bytes announced
    ],
)
def test_a_bad_header_is_refused_with_a_reason(header: bytes) -> None:
    with pytest.raises(ProxyHeaderError):
        parse(header + bytes(300))


def test_a_v1_line_is_read_at_most_to_its_bound() -> None:
    reader = Bytes(b"PROXY " + b"1" * 500)
    with pytest.raises(ProxyHeaderError, match="longer than"):
        asyncio.run(read_proxy_header(reader.read_exactly))
    assert reader.position == V1_MAX_LENGTH


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.binary(max_size=300),
        st.binary(max_size=300).map(lambda tail: b"PROXY " + tail),
        st.binary(max_size=300).map(lambda tail: V2_SIGNATURE + tail),
    )
)
def test_any_bytes_are_a_header_a_refusal_or_too_few(data: bytes) -> None:
    reader = Bytes(data)
    with contextlib.suppress(ProxyHeaderError, asyncio.IncompleteReadError):
        asyncio.run(read_proxy_header(reader.read_exactly))
    assert reader.position <= 16 + 2048


def test_trust_is_by_address_or_network() -> None:
    trusted = TrustedProxies(
        [ipaddress.ip_network("10.0.0.0/8"), ipaddress.ip_network("2001:db8::1")]
    )
    assert ("10.1.2.3", 5) in trusted
    assert ("::ffff:10.1.2.3", 5, 0, 0) in trusted  # a dual-stack socket's IPv4 peer
    assert ("2001:db8::1", 5, 0, 0) in trusted
    assert ("11.0.0.1", 5) not in trusted
    assert "/run/socket" not in trusted


# -- the door ------------------------------------------------------------------------


@pytest.fixture
async def door(tmp_path: Path) -> AsyncIterator[RealDoor]:
    """A door behind a balancer on 127.0.0.1 that takes one connection per address."""
    limits = replace(SSHLimits(), max_connections_per_address=1, proxy_header_timeout=1.0)
    async with real_door(tmp_path, trusted_proxies=LOCALHOST, connection_limits=limits) as started:
        yield started


async def through_balancer(port: int, header: bytes) -> socket.socket:
    """A connection to the door that starts as HAProxy's would."""
    loop = asyncio.get_running_loop()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setblocking(False)
    await asyncio.wait_for(loop.sock_connect(sock, ("127.0.0.1", port)), TIMEOUT)
    await loop.sock_sendall(sock, header)
    return sock


async def lobby_addresses(started: RealDoor) -> list[tuple[str, str]]:
    """``skyjo-server admin players``: each player's name and address."""
    listed = (await players(started.server, {}))["players"]
    return sorted((p["name"], p["address"]) for p in listed)


async def listed_as(started: RealDoor, expected: list[tuple[str, str]]) -> None:
    """Wait (bounded) until ``admin players`` lists exactly ``expected``."""
    async with asyncio.timeout(TIMEOUT):
        while await lobby_addresses(started) != expected:  # noqa: ASYNC110 - the admin's view
            await asyncio.sleep(0.05)


async def test_admin_players_shows_the_address_the_balancer_gives(door: RealDoor) -> None:
    sock = await through_balancer(door.port, v2_header(PLAYER))
    conn = await connect_guest(door.port, "alice", sock=sock)
    async with closing(conn), open_terminal(conn) as term:
        await term.shows("alice")
        await listed_as(door, [("alice", PLAYER)])


async def test_the_cap_per_address_counts_the_player_not_the_balancer(door: RealDoor) -> None:
    first = await connect_guest(
        door.port, "alice", sock=await through_balancer(door.port, v1_header(PLAYER))
    )
    async with closing(first):
        # The same player again: over the cap of one per address.
        sock = await through_balancer(door.port, v2_header(PLAYER, 40000))
        with pytest.raises(asyncssh.DisconnectError, match="Too many connections"):
            await connect_guest(door.port, "bob", sock=sock)
        # Another player through the same balancer: in.
        other = await connect_guest(
            door.port, "carol", sock=await through_balancer(door.port, v1_header("203.0.113.8"))
        )
        async with closing(other):
            assert door.door.manager is not None
            connections = door.door.manager.connections
            assert (connections.count(PLAYER), connections.count("203.0.113.8")) == (1, 1)
            assert connections.count("127.0.0.1") == 0


async def test_a_trusted_connection_without_a_header_is_dropped_and_counted(
    door: RealDoor, caplog: pytest.LogCaptureFixture
) -> None:
    with pytest.raises((asyncssh.Error, OSError)):
        await connect_guest(door.port, "mallory")  # plain SSH from the balancer's address
    silent = await through_balancer(door.port, b"")  # says nothing: the deadline drops it
    try:
        loop = asyncio.get_running_loop()
        assert await asyncio.wait_for(loop.sock_recv(silent, 100), TIMEOUT) == b""
    finally:
        silent.close()
    assert door.door.proxy_refusals.count == 2
    said = [r.getMessage() for r in caplog.records if "PROXY header" in r.getMessage()]
    assert len(said) == 1  # the second is counted, said in a minute's report
    assert "127.0.0.1: no PROXY header" in said[0]


async def test_from_anyone_else_nothing_is_read_as_a_header(tmp_path: Path) -> None:
    elsewhere = (ipaddress.ip_network("192.0.2.1/32"),)
    async with real_door(tmp_path, trusted_proxies=elsewhere) as started:
        # A stranger claiming to be someone else is not believed (nor served).
        sock = await through_balancer(started.port, v2_header(PLAYER))
        with pytest.raises((asyncssh.Error, OSError)):
            await connect_guest(started.port, "mallory", sock=sock)
        # Plain SSH from outside the balancers is served, at its own address.
        conn = await connect_guest(started.port, "alice")
        async with closing(conn), open_terminal(conn) as term:
            await term.shows("alice")
            await listed_as(started, [("alice", "127.0.0.1")])
        assert started.door.proxy_refusals.count == 0


async def test_from_options_of_authorized_keys_match_the_players_address(tmp_path: Path) -> None:
    """A private server behind the balancer: ``from="203.0.113.7"`` lets that key in from
    the player's address the header gives, and from no other."""
    friend = asyncssh.generate_private_key("ssh-ed25519")
    keys_file = tmp_path / "friends"
    keys_file.write_text(f'from="{PLAYER}" {friend.export_public_key().decode()}')
    async with real_door(
        tmp_path / "data", trusted_proxies=LOCALHOST, authorized_keys=keys_file
    ) as started:

        async def login(source: str) -> asyncssh.SSHClientConnection:
            sock = await through_balancer(started.port, v2_header(source))
            return await connect(
                started.port, "skyjo", sock=sock, client_keys=[friend], preferred_auth="publickey"
            )

        async with closing(await login(PLAYER)):
            pass
        with pytest.raises(asyncssh.PermissionDenied):
            await login("203.0.113.9")
