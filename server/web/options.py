"""The browser door's options and its ``skyjo-server`` plugin (standard library only).

``server/cli.py`` lists ``WEB_DOOR``: it adds ``--web-port``, ``--no-web``,
``--web-origin``, ``--web-trust-proxy`` and the caps to the parser, and
unless ``--no-web`` attaches a ``WebFrontDoor`` on the server's shared host
(``server.web.door.attach_web_front_door``).  The door itself (and aiohttp)
is imported only then.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import Any, Final

from ..doors.options import DoorPlugin, network, port, positive
from ..listen import IPNetwork
from ..termhost.options import HostLimits

DEFAULT_WEB_PORT: Final = 8080


@dataclass(frozen=True)
class WebOptions:
    """How the browser door runs (from ``web_options_from_args`` or by hand)."""

    enabled: bool = True
    port: int = DEFAULT_WEB_PORT
    host: str | None = None
    """The address to listen on; None: the lobby server's ``config.host``
    (whose None is every interface, IPv4 and IPv6)."""
    origins: tuple[str, ...] = ()
    """Page origins allowed besides the page's own (``https://play.example.org``)."""
    trusted_proxies: tuple[IPNetwork, ...] = ()
    """Peers whose X-Forwarded-For/-Proto/-Host are believed (none by default)."""
    max_connections: int = 300
    max_connections_per_address: int = 20
    """Several players behind one NAT share an address: keep this generous."""
    max_pending: int = 256
    """Connections not upgraded to the game's WebSocket yet (pages, files,
    health checks, requests on their way), in total: one more closes the oldest."""
    max_pending_per_address: int = 64
    """...and from one address (but a trusted proxy): one more is closed at once.
    A page load opens up to 6 (a browser's connections to one server), open
    for ``handshake_timeout`` after; players behind one NAT share an address."""
    max_message: int = 64 * 1024
    """Bytes in one WebSocket message from a browser; a bigger one closes that
    connection (1009)."""
    handshake_timeout: float = 10.0
    """Seconds a connection has to send a whole request (slow headers included)."""
    heartbeat: float = 20.0
    """Seconds between pings; a browser that does not answer in half of it is gone."""
    max_bad_messages: int = 100
    """Unknown or malformed messages ignored before the connection is closed."""
    limits: HostLimits = HostLimits()
    """The host's limits, when the door runs its own host (no shared ``GameHost``)."""
    app_options: dict[str, Any] = field(default_factory=dict)
    """Likewise: options for the client's ``build_app`` (tests pass ``pace="off"``)."""


def add_web_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("browser front door (a web page with the same game)")
    defaults = WebOptions()
    group.add_argument(
        "--web-port",
        type=port,
        default=DEFAULT_WEB_PORT,
        help=f"HTTP port of the page (default {DEFAULT_WEB_PORT}); it listens on --host",
    )
    group.add_argument("--no-web", action="store_true", help="do not serve the page")
    group.add_argument(
        "--web-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        type=_origin,
        help="another page origin allowed to open game connections, e.g. "
        "https://play.example.org (repeatable; the page's own is always allowed)",
    )
    group.add_argument(
        "--web-trust-proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        type=network,
        help="a reverse proxy (address or network) whose X-Forwarded-For/-Proto/-Host "
        "headers are believed (repeatable; default: none)",
    )
    group.add_argument(
        "--web-max-connections",
        type=positive,
        default=defaults.max_connections,
        help="browser connections in total",
    )
    group.add_argument(
        "--web-max-per-address",
        type=positive,
        default=defaults.max_connections_per_address,
        help="browser connections from one address",
    )
    group.add_argument(
        "--web-max-pending",
        type=positive,
        default=defaults.max_pending,
        help="connections to the web port not yet a game (pages, files, requests on their "
        "way), in total; one more closes the oldest",
    )
    group.add_argument(
        "--web-max-pending-per-address",
        type=positive,
        default=defaults.max_pending_per_address,
        help="...from one address; one more is closed at once",
    )


def web_options_from_args(args: argparse.Namespace) -> WebOptions:
    return WebOptions(
        enabled=not args.no_web,
        port=args.web_port,
        origins=tuple(args.web_origin),
        trusted_proxies=tuple(args.web_trust_proxy),
        max_connections=args.web_max_connections,
        max_connections_per_address=args.web_max_per_address,
        max_pending=args.web_max_pending,
        max_pending_per_address=args.web_max_pending_per_address,
    )


WEB_DOOR: Final = DoorPlugin(
    add_web_arguments, lambda args: not args.no_web, "server.web.door:attach_web_front_door"
)
"""For ``server.cli.DOORS``."""


def _origin(text: str) -> str:
    from .policy import normalize_origin

    origin = normalize_origin(text)
    if origin is None:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an origin: give scheme://host[:port], e.g. https://play.example.org"
        )
    return origin
