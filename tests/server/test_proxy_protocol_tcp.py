"""The TCP lobby door behind a load balancer (``--tcp-trust-proxy``): the PROXY header of
a trusted balancer's connection gives the client's address to the caps and to ``admin
players``; without a valid one the connection is closed and counted.  The balancer is
the test on 127.0.0.1, writing what HAProxy writes (tests/ssh/test_proxy_protocol.py has
the headers; tests/hosts, HAProxy itself)."""

from __future__ import annotations

import asyncio
import ipaddress
from dataclasses import replace

from server.admin.commands import players
from server.netclient import ConnectionLost, ServerConnection

from ..ssh.test_proxy_protocol import v1_header, v2_header
from .conftest import ServerFactory
from .support import TEST_LIMITS, WAIT

LOCALHOST = (ipaddress.ip_network("127.0.0.1/32"),)


async def through_balancer(port: int, header: bytes) -> ServerConnection:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(header)
    return ServerConnection.from_streams(reader, writer)


async def test_a_client_through_the_balancer_is_seen_at_its_own_address(
    make_server: ServerFactory,
) -> None:
    limits = replace(TEST_LIMITS, max_connections_per_address=1)
    server = await make_server(trusted_proxies=LOCALHOST, limits=limits)
    first = await through_balancer(server.port, v2_header("203.0.113.7"))
    second = await through_balancer(server.port, v1_header("203.0.113.8"))
    again = await through_balancer(server.port, v1_header("203.0.113.7", 4000))
    try:
        await first.hello(name="alice")
        await second.hello(name="bob")
        listed = (await players(server, {}))["players"]
        assert sorted((p["name"], p["address"]) for p in listed) == [
            ("alice", "203.0.113.7"),
            ("bob", "203.0.113.8"),
        ]
        try:  # the cap of one per address counts alice's, not the balancer's
            await asyncio.wait_for(again.hello(name="carol"), WAIT)
        except ConnectionLost as lost:
            assert "Too many connections from your address" in str(lost)
        else:
            raise AssertionError("a second connection from alice's address was let in")
    finally:
        for conn in (first, second, again):
            await conn.close()


async def test_a_trusted_connection_without_a_header_is_closed_and_counted(
    make_server: ServerFactory,
) -> None:
    server = await make_server(trusted_proxies=LOCALHOST)
    plain = await through_balancer(server.port, b"")
    try:
        try:
            await asyncio.wait_for(plain.hello(name="mallory"), WAIT)
        except ConnectionLost:
            pass
        else:
            raise AssertionError("a connection without a PROXY header was served")
    finally:
        await plain.close()
    assert server.proxy_refusals.count == 1


async def test_from_anyone_else_nothing_is_read_as_a_header(make_server: ServerFactory) -> None:
    server = await make_server(trusted_proxies=(ipaddress.ip_network("192.0.2.1/32"),))
    conn = await through_balancer(server.port, b"")
    try:
        await conn.hello(name="alice")
        listed = (await players(server, {}))["players"]
        assert [(p["name"], p["address"]) for p in listed] == [("alice", "127.0.0.1")]
    finally:
        await conn.close()
    assert server.proxy_refusals.count == 0
