"""``HOST[:PORT]`` as typed by a player, and the connector that dials it."""

from __future__ import annotations

from typing import Final

from server.netclient import ServerConnection

from .link import Connector

DEFAULT_PORT: Final = 7777


def parse_address(text: str) -> tuple[str, int]:
    """``"host"``, ``"host:7777"``, ``"[::1]:7777"`` -> (host, port); ValueError when malformed."""
    text = text.strip()
    if not text:
        raise ValueError("type the server's address, e.g. example.org:7777")
    host, port_text = text, ""
    if text.startswith("["):  # [IPv6]:port
        end = text.find("]")
        if end < 0:
            raise ValueError(f"missing ']' in {text!r}")
        host, rest = text[1:end], text[end + 1 :]
        if rest and not rest.startswith(":"):
            raise ValueError(f"unexpected {rest!r} after the address")
        port_text = rest[1:]
    elif text.count(":") == 1:
        host, port_text = text.split(":")
    if not host or any(c.isspace() for c in host):
        raise ValueError(f"{text!r} is not a host name")
    if not port_text:
        return host, DEFAULT_PORT
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError(f"{port_text!r} is not a port number (1 to 65535)")
    return host, int(port_text)


def tcp_connector(host: str, port: int) -> Connector:
    async def connect() -> ServerConnection:
        return await ServerConnection.open(host, port)

    return connect
