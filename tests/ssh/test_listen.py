"""Where the SSH front door listens: the lobby's host, by default every
interface, IPv4 and IPv6, on one port.

A real ``SkyjoServer`` with the real front door on port 0; asyncssh clients
only ever connect to 127.0.0.1 and ::1.  No session is opened: a client that
completes the handshake and logs in has found the door.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from server.app import SkyjoServer
from server.config import ServerConfig
from server.listen import ALL_INTERFACES
from server.ssh.frontdoor import SSHFrontDoor, SSHOptions
from server.termhost import HostLimits

from ..support_server import LOOPBACKS, needs_ipv6_loopback
from .sshkit import TIMEOUT, GuestClient


@contextlib.asynccontextmanager
async def lobby_with_ssh(
    data_dir: Path, host: str | None, authorized_keys: Path | None = None
) -> AsyncIterator[SSHFrontDoor]:
    """A lobby on ``host`` (None: the default) with the SSH front door; always stopped."""
    server = SkyjoServer(ServerConfig(host=host, port=0, data_dir=data_dir))
    door = SSHFrontDoor(
        SSHOptions(
            port=0,
            limits=HostLimits(stop_timeout=2.0),
            gc_policy=None,
            authorized_keys=authorized_keys,
        )
    )
    server.add_front_door(door)
    await server.start()
    try:
        yield door
    finally:
        await server.stop()


async def guest_login(host: str, port: int) -> asyncssh.SSHClientConnection:
    """A guest logged in at ``host`` (the user's own ssh setup ignored)."""
    return await asyncio.wait_for(
        asyncssh.connect(
            host,
            port,
            username="skyjo",
            client_factory=GuestClient,
            known_hosts=None,
            client_keys=None,
            agent_path=None,
            config=None,
        ),
        TIMEOUT,
    )


@pytest.mark.parametrize("loopback", LOOPBACKS)
async def test_the_default_host_lets_players_in_over_ipv4_and_ipv6(
    tmp_path: Path, loopback: str
) -> None:
    async with lobby_with_ssh(tmp_path, host=None) as door:
        conn = await guest_login(loopback, door.port)
        try:
            host_key = conn.get_server_host_key()
            assert host_key is not None
            assert host_key.get_fingerprint("sha256") == door.host_key_fingerprint
        finally:
            conn.close()
            await asyncio.wait_for(conn.wait_closed(), TIMEOUT)


@pytest.mark.skipif(not socket.has_dualstack_ipv6(), reason="no dual-stack sockets here")
async def test_the_log_says_all_interfaces_and_the_port(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="server.ssh.frontdoor")
    async with lobby_with_ssh(tmp_path, host=None) as door:
        assert f"SSH front door on {ALL_INTERFACES}, port {door.port} (" in caplog.text


@needs_ipv6_loopback
async def test_the_lobby_host_is_the_only_way_in(tmp_path: Path) -> None:
    async with lobby_with_ssh(tmp_path, host="127.0.0.1") as door:
        conn = await guest_login("127.0.0.1", door.port)
        conn.close()
        await asyncio.wait_for(conn.wait_closed(), TIMEOUT)
        with pytest.raises(ConnectionRefusedError):
            await guest_login("::1", door.port)


@pytest.mark.skipif(not socket.has_dualstack_ipv6(), reason="no dual-stack sockets here")
async def test_from_options_see_ipv4_clients_of_the_default_host_as_ipv4(tmp_path: Path) -> None:
    """On the dual-stack socket an IPv4 client is ::ffff:127.0.0.1 to the kernel;
    ``from="127.0.0.1"`` in authorized_keys must still match it."""
    here, elsewhere = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    keys_file = tmp_path / "friends"
    keys_file.write_text(
        f'from="127.0.0.1" {here.export_public_key().decode()}'
        f'from="192.0.2.1" {elsewhere.export_public_key().decode()}'
    )

    def login(key: asyncssh.SSHKey) -> Any:
        return asyncio.wait_for(
            asyncssh.connect(
                "127.0.0.1",
                door.port,
                username="skyjo",
                client_keys=[key],
                known_hosts=None,
                agent_path=None,
                config=None,
                preferred_auth="publickey",
            ),
            TIMEOUT,
        )

    async with lobby_with_ssh(tmp_path / "data", host=None, authorized_keys=keys_file) as door:
        conn = await login(here)
        conn.close()
        await asyncio.wait_for(conn.wait_closed(), TIMEOUT)
        with pytest.raises(asyncssh.PermissionDenied):
            await login(elsewhere)
