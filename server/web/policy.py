"""What the browser door decides from a request's headers (pure: no I/O, no aiohttp).

- where the client is (``resolve_client``): its address, scheme and host,
  from the socket, or from X-Forwarded-* when the direct peer is a proxy the
  operator trusts;
- whether a WebSocket's ``Origin`` may open a game (``origin_allowed``);
- who the player is (``identity_of`` the ``skyjo_id`` cookie);
- the terminal environment a browser implies (``terminal_environment``).
"""

from __future__ import annotations

import hashlib
import ipaddress
import re
import secrets
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

from skyjo_tui.i18n import LANGUAGE_INFO

from ..listen import IPNetwork

COOKIE_NAME: Final = "skyjo_id"
COOKIE_MAX_AGE: Final = 400 * 24 * 3600
"""Seconds: about 400 days, the longest browsers keep a cookie."""
IDENTITY_PREFIX: Final = "web:"
_COOKIE_VALUE: Final = re.compile(r"[A-Za-z0-9_-]{43}")
"""``secrets.token_urlsafe(32)``: 43 URL-safe characters."""
_DEFAULT_PORTS: Final = {"http": 80, "https": 443}
TERM_TYPE: Final = "xterm-256color"


@dataclass(frozen=True)
class ClientPlace:
    """Where a request comes from, as far as this server may believe."""

    address: str
    """The client's address (through trusted proxies), e.g. ``192.0.2.7``."""
    scheme: str
    """``http`` or ``https``: how the browser reached the page."""
    host: str
    """The ``host[:port]`` the browser asked for (Host or X-Forwarded-Host)."""

    @property
    def secure(self) -> bool:
        return self.scheme == "https"

    @property
    def origin(self) -> str | None:
        """The page's own origin, normalized (None: no usable Host)."""
        return normalize_origin(f"{self.scheme}://{self.host}")


def resolve_client(
    peer: str,
    headers: Mapping[str, str],
    *,
    direct_scheme: str,
    trusted: Collection[IPNetwork],
) -> ClientPlace:
    """The client of a request that arrived from ``peer``.

    X-Forwarded-For is read right to left, skipping trusted proxies: the
    first address that is not one is the client (entries left of it were
    written by the client itself and prove nothing).  -Proto and -Host are
    the nearest proxy's.  From an untrusted peer every X-Forwarded-* header
    is ignored.
    """
    host = headers.get("Host", "")
    if not is_trusted_proxy(peer, trusted):
        return ClientPlace(peer, direct_scheme, host)
    address = peer
    for hop in reversed(_header_list(headers.get("X-Forwarded-For", ""))):
        if _parse_ip(hop) is None:
            break  # garbage: keep the last address we could trust
        address = hop
        if not is_trusted_proxy(hop, trusted):
            break
    proto = _last(headers.get("X-Forwarded-Proto", "")).lower()
    scheme = proto if proto in _DEFAULT_PORTS else direct_scheme
    forwarded_host = _last(headers.get("X-Forwarded-Host", ""))
    return ClientPlace(address, scheme, forwarded_host or host)


def normalize_origin(text: str) -> str | None:
    """``scheme://host:port`` in lower case with the port spelled out, or None
    when ``text`` is not an http(s) origin.  ``https://Example.org`` and
    ``https://example.org:443`` are the same origin."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/"):
        return None
    if parts.username is not None or parts.query or parts.fragment:
        return None
    hostname = parts.hostname.lower()
    if ":" in hostname:
        hostname = f"[{hostname}]"
    return f"{scheme}://{hostname}:{port or _DEFAULT_PORTS[scheme]}"


def origin_allowed(origin: str | None, place: ClientPlace, extra: Collection[str]) -> bool:
    """May a WebSocket with this ``Origin`` header open a game?

    A browser always sends Origin on a WebSocket: a missing one is a program
    (a bot, a benchmark), which could forge any header anyway and gains
    nothing a TCP client does not have.  A page on another site must not
    drive a player's game with their cookie (cross-site WebSocket hijacking):
    only the page's own origin and the operator's ``extra`` ones pass.
    """
    if origin is None:
        return True
    normalized = normalize_origin(origin)
    if normalized is None:
        return False  # "null" (a sandboxed frame, a file://) or garbage
    return normalized == place.origin or normalized in extra


def new_cookie_value() -> str:
    return secrets.token_urlsafe(32)


def valid_cookie(value: str | None) -> bool:
    return value is not None and _COOKIE_VALUE.fullmatch(value) is not None


def identity_of(cookie: str | None) -> str | None:
    """The lobby identity a ``skyjo_id`` cookie proves (None: a guest).

    Only a digest is ever stored or logged: the cookie itself is a password.
    """
    if not valid_cookie(cookie):
        return None
    assert cookie is not None
    return IDENTITY_PREFIX + hashlib.sha256(cookie.encode("ascii")).hexdigest()


def terminal_environment(accept_language: str) -> dict[str, str]:
    """The environment a browser's terminal has: xterm.js shows 24-bit colour,
    and the player's preferred language (of those the client speaks) is LANG."""
    env = {"COLORTERM": "truecolor"}
    lang = preferred_language(accept_language)
    if lang is not None:
        env["LANG"] = LANGUAGE_INFO[lang].locale
    return env


def preferred_language(accept_language: str) -> str | None:
    """The first language of ``Accept-Language`` (by weight) that the client
    speaks, e.g. ``fr-CH, fr;q=0.9, en;q=0.8`` -> ``fr``; None if none."""
    weighted: list[tuple[float, int, str]] = []
    for position, item in enumerate(_header_list(accept_language[:1000])):
        tag, _, params = item.partition(";")
        weight = 1.0
        name, _, value = params.strip().partition("=")
        if name.strip().lower() == "q":
            try:
                weight = float(value)
            except ValueError:
                continue
        if weight > 0:
            weighted.append((-weight, position, tag.strip().lower()[:2]))
    for _, _, lang in sorted(weighted):
        if lang in LANGUAGE_INFO:
            return lang
    return None


def terminal_size(query: Mapping[str, str]) -> tuple[int, int]:
    """``?width=C&height=R`` as textual.js sends it (the host clamps it)."""
    return _int(query.get("width"), 80), _int(query.get("height"), 24)


def _int(text: str | None, default: int) -> int:
    if text is None or not text.isdigit() or len(text) > 5:
        return default
    return int(text)


def _header_list(value: str) -> list[str]:
    return [item.strip() for item in value.split(",") if item.strip()]


def _last(value: str) -> str:
    items = _header_list(value)
    return items[-1] if items else ""


def _parse_ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def is_trusted_proxy(address: str, trusted: Collection[IPNetwork]) -> bool:
    """Whether ``address`` is one of the operator's reverse proxies (``trusted``)."""
    ip = _parse_ip(address)
    return ip is not None and any(ip in network for network in trusted)
