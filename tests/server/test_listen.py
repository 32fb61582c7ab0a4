"""Where the lobby listens: by default every interface, IPv4 and IPv6, on one port.

Real servers on port 0; the tests only ever connect to 127.0.0.1 and ::1.
"""

from __future__ import annotations

import logging
import socket

import pytest

from server import cli
from server.config import ServerConfig
from server.listen import ALL_INTERFACES, peer_host
from server.netclient import ServerConnection

from ..support_server import LOOPBACKS, needs_ipv6_loopback
from .conftest import ServerFactory


async def say_hello(host: str, port: int, name: str) -> str | None:
    """Log in as ``name`` over TCP to ``host``; the name the server welcomed."""
    conn = await ServerConnection.open(host, port)
    try:
        return (await conn.hello(name=name)).name
    finally:
        await conn.close()


def test_every_interface_is_the_default() -> None:
    assert ServerConfig().host is None
    assert cli.config_from_args(cli.build_parser().parse_args([])).host is None
    assert cli.config_from_args(cli.build_parser().parse_args(["--host", ""])).host is None
    explicit = cli.build_parser().parse_args(["--host", "127.0.0.1"])
    assert cli.config_from_args(explicit).host == "127.0.0.1"
    help_text = " ".join(cli.build_parser().format_help().split())
    assert "(default: all interfaces, IPv4 and IPv6)" in help_text


@pytest.mark.parametrize("loopback", LOOPBACKS)
async def test_the_default_host_takes_players_on_ipv4_and_ipv6(
    make_server: ServerFactory, loopback: str
) -> None:
    server = await make_server(host=None)
    assert await say_hello(loopback, server.port, "Ada") == "Ada"


@pytest.mark.skipif(not socket.has_dualstack_ipv6(), reason="no dual-stack sockets here")
async def test_the_log_says_all_interfaces_and_the_port(
    make_server: ServerFactory, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="server.app")
    server = await make_server(host=None)
    assert f"listening on {ALL_INTERFACES}, port {server.port} (TCP)" in caplog.text


@needs_ipv6_loopback
async def test_an_explicit_host_is_the_only_way_in(
    make_server: ServerFactory, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="server.app")
    server = await make_server(host="127.0.0.1")
    assert f"listening on 127.0.0.1:{server.port} (TCP)" in caplog.text
    assert await say_hello("127.0.0.1", server.port, "Ada") == "Ada"
    with pytest.raises(ConnectionRefusedError):
        await ServerConnection.open("::1", server.port)


async def test_without_dual_stack_sockets_every_family_gets_its_own_socket(
    make_server: ServerFactory, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Systems without IPv6, or that keep IPv4 and IPv6 apart: asyncio binds
    each address family there is, and the log names each socket."""
    monkeypatch.setattr(socket, "has_dualstack_ipv6", lambda: False)
    caplog.set_level(logging.INFO, logger="server.app")
    server = await make_server(host=None)
    ipv4_port = next(port for address, port, *_ in server.tcp.addresses if address == "0.0.0.0")
    [listening] = [r.getMessage() for r in caplog.records if r.getMessage().startswith("listening")]
    assert f"all IPv4 interfaces, port {ipv4_port}" in listening
    assert ALL_INTERFACES not in listening
    assert await say_hello("127.0.0.1", ipv4_port, "Ada") == "Ada"


def test_an_ipv4_client_of_a_dual_stack_socket_is_known_by_its_ipv4_address() -> None:
    assert peer_host(("::ffff:192.0.2.7", 50000, 0, 0)) == "192.0.2.7"
    assert peer_host(("2001:db8::7", 50000, 0, 0)) == "2001:db8::7"
    assert peer_host(("192.0.2.7", 50000)) == "192.0.2.7"
    assert peer_host(None) == "?"
