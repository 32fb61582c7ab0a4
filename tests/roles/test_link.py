"""The door-host link through real sockets: over TLS, a door host that verifies the
lobby's certificate claims its players there (in its own process, or relayed to a
worker's socket), and a lobby that wants TLS refuses a plain claim; a linked door
host's players all come back at once after a lobby restart, past the caps per address."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import ipaddress
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from server.app import SkyjoServer
from server.link.client import LinkRefused, LobbyLink
from server.link.options import GateOptions, LinkOptions, LobbyAddress
from server.netclient import ServerConnection
from server.protocol import HEADER, HEADER_SIZE, ErrorCode, decode_body

from ..server.support import TEST_LIMITS, server_config

SECRET = b"a door secret of 32 bytes, or so"


def self_signed(directory: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and its key (PEM files)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "skyjo lobby")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert, key_file = directory / "lobby.crt", directory / "lobby.key"
    cert.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert, key_file


@pytest.fixture
async def tls_lobby(tmp_path: Path) -> AsyncIterator[tuple[SkyjoServer, Path]]:
    cert, key = self_signed(tmp_path)
    server = SkyjoServer(server_config(tmp_path / "lobby"), GateOptions(SECRET, cert, key))
    await server.start()
    try:
        yield server, cert
    finally:
        await server.stop()


def link_to(server: SkyjoServer, *, ca: Path | None) -> LobbyLink:
    return LobbyLink(
        LinkOptions(
            LobbyAddress("127.0.0.1", server.port),
            SECRET,
            name="door-t",
            tls=ca is not None,
            ca_file=ca,
        )
    )


async def test_players_claimed_over_tls_are_who_the_door_host_says(
    tls_lobby: tuple[SkyjoServer, Path],
) -> None:
    server, cert = tls_lobby
    link = link_to(server, ca=cert)
    try:
        reader, writer = await link.open_player("ssh-key:SHA256:tia", "ssh", "198.51.100.7")
        tia = ServerConnection.from_streams(reader, writer)
        relayed = await link.open_player_socket("web:" + "ab" * 32, "web", "2001:db8::5")
        reader, writer = await asyncio.open_connection(sock=relayed)  # as a worker does
        wes = ServerConnection.from_streams(reader, writer)
        try:
            assert (await tia.hello(name="Tia")).name == "Tia"
            assert (await wes.hello(name="Wes")).name == "Wes"
            seen = {
                s.name: (s.identity, s.door, s.address, s.door_host, s.tls)
                for s in server.lobby.sessions
                if s.welcomed
            }
            assert seen == {
                "Tia": ("ssh-key:SHA256:tia", "ssh", "198.51.100.7", "door-t", True),
                "Wes": ("web:" + "ab" * 32, "web", "2001:db8::5", "door-t", True),
            }
        finally:
            await tia.close()
            await wes.close()
    finally:
        await link.stop()


async def test_a_lobby_that_wants_tls_refuses_a_plain_claim(
    tls_lobby: tuple[SkyjoServer, Path],
) -> None:
    server, _ = tls_lobby
    link = link_to(server, ca=None)
    with pytest.raises(LinkRefused, match="TLS only"):
        await link.open_player("ssh-key:SHA256:tia", "ssh", "198.51.100.7")
    assert not [s for s in server.lobby.sessions if s.identity is not None]


async def test_a_linked_door_hosts_players_are_not_held_to_the_caps_per_address(
    tmp_path: Path,
) -> None:
    """Every player of a door host comes from its address: after a lobby restart they
    all connect again at once, which a cap of 2 per address would refuse."""
    limits = dataclasses.replace(TEST_LIMITS, max_connections_per_address=2)
    server = SkyjoServer(server_config(tmp_path / "lobby", limits=limits), GateOptions(SECRET))
    await server.start()
    link = link_to(server, ca=None)
    players: list[ServerConnection] = []
    try:
        await link.start()
        await asyncio.wait_for(link.linked.wait(), 10)
        opened = await asyncio.gather(
            *(link.open_player(f"ssh-key:SHA256:p{i}", "ssh", f"198.51.100.{i}") for i in range(6))
        )
        players = [ServerConnection.from_streams(reader, writer) for reader, writer in opened]
        welcomes = await asyncio.gather(*(p.hello(name=f"P{i}") for i, p in enumerate(players)))
        assert [w.name for w in welcomes] == [f"P{i}" for i in range(6)]
    finally:
        for player in players:
            await player.close()
        await link.stop()
        await server.stop()


async def test_connections_from_a_linked_door_hosts_address_still_count_in_the_total(
    tmp_path: Path,
) -> None:
    """Exempt from the cap per address is not exempt from every cap: connections from a
    linked door host's address that claim no player (a stranger behind the same NAT, a
    program beside the door host) are counted in the total, and refused past it."""
    limits = dataclasses.replace(TEST_LIMITS, max_connections=4, max_connections_per_address=2)
    server = SkyjoServer(server_config(tmp_path / "lobby", limits=limits), GateOptions(SECRET))
    await server.start()
    link = link_to(server, ca=None)
    strangers: list[asyncio.StreamWriter] = []
    try:
        await link.start()
        await asyncio.wait_for(link.linked.wait(), 10)
        for _ in range(limits.max_connections):  # each waits for a hello that never comes
            _, writer = await asyncio.open_connection("127.0.0.1", server.port)
            strangers.append(writer)
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        strangers.append(writer)
        (length,) = HEADER.unpack(await asyncio.wait_for(reader.readexactly(HEADER_SIZE), 10))
        refusal = decode_body(await asyncio.wait_for(reader.readexactly(length), 10))
        assert (refusal["type"], refusal["code"]) == ("bye", ErrorCode.SERVER_FULL)
    finally:
        for writer in strangers:
            writer.close()
        await link.stop()
        await server.stop()
