"""``skyjo-server``'s roles and the door-host link's options (plain data and
argparse: no ssl context is built and no socket opened here)."""

from __future__ import annotations

import argparse
import socket
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from .proof import read_door_secret

ALL, LOBBY, DOORS = "all", "lobby", "doors"
ROLES: Final = (ALL, LOBBY, DOORS)
DEFAULT_LOBBY_PORT: Final = 7777


@dataclass(frozen=True)
class LobbyAddress:
    host: str
    port: int = DEFAULT_LOBBY_PORT

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"


def lobby_address(text: str) -> LobbyAddress:
    """``HOST:PORT``, ``HOST`` (port 7777) or ``[IPv6]:PORT``."""
    text = text.strip()
    host, port = text, str(DEFAULT_LOBBY_PORT)
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        if rest:
            if not rest.startswith(":"):
                raise argparse.ArgumentTypeError(f"{text!r} is not HOST:PORT")
            port = rest[1:]
    elif text.count(":") == 1:
        host, port = text.split(":")
    if not host or not port.isdigit() or not 0 < int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not HOST:PORT (e.g. lobby.lan:7777)")
    return LobbyAddress(host, int(port))


@dataclass(frozen=True)
class GateOptions:
    """The lobby's side: who may claim identities for players (``gate.DoorGate``)."""

    secret: bytes = field(repr=False)
    tls_cert: Path | None = None
    """With ``tls_key``: door hosts link over TLS only (``door_tls``), with this certificate."""
    tls_key: Path | None = None


@dataclass(frozen=True)
class LinkOptions:
    """The door host's side: where the lobby is and how to prove it is ours."""

    lobby: LobbyAddress
    secret: bytes = field(repr=False)
    name: str = ""
    """This door host's name, as ``skyjo-server admin players`` shows it."""
    tls: bool = False
    ca_file: Path | None = None
    """TLS verified with these certificates (None: the system's)."""


def add_role_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "roles: door hosts in front, one lobby behind (docs/scaling.md)"
    )
    group.add_argument(
        "--role",
        choices=ROLES,
        default=ALL,
        help="all (default): everything in this process; lobby: the lobby, its data, "
        "the bots, TCP and the admin socket, and door hosts link to it; doors: the SSH "
        "and browser doors only, their players playing on --lobby",
    )
    group.add_argument(
        "--lobby",
        type=lobby_address,
        metavar="HOST:PORT",
        help="--role doors: the lobby's TCP address (its --port)",
    )
    group.add_argument(
        "--door-secret",
        type=Path,
        metavar="FILE",
        help="the secret shared by the lobby and its door hosts (at least 16 bytes; "
        "openssl rand -hex 32 > FILE): only who holds it may say who a player is",
    )
    group.add_argument(
        "--door-name",
        metavar="NAME",
        default="",
        help="--role doors: this door host's name in `skyjo-server admin players` "
        "(default: the machine's host name)",
    )
    group.add_argument(
        "--door-tls-cert",
        type=Path,
        metavar="FILE",
        help="the lobby: door hosts link over TLS with this certificate (PEM, with "
        "--door-tls-key); without it the link is plain TCP (a private network)",
    )
    group.add_argument("--door-tls-key", type=Path, metavar="FILE", help="its private key (PEM)")
    group.add_argument(
        "--lobby-tls",
        action="store_true",
        help="--role doors: link to the lobby over TLS, its certificate verified "
        "(with the system's certificates, or --lobby-ca)",
    )
    group.add_argument(
        "--lobby-ca",
        type=Path,
        metavar="FILE",
        help="--role doors: the certificates (PEM) the lobby's is verified with; "
        "implies --lobby-tls",
    )


def check_role_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """A role's options that do not go together: a usage error before anything starts."""
    role = args.role
    if role == DOORS and (args.lobby is None or args.door_secret is None):
        parser.error("--role doors needs --lobby HOST:PORT and --door-secret FILE")
    if role == LOBBY and args.door_secret is None:
        parser.error("--role lobby needs --door-secret FILE (the door hosts hold it too)")
    if role != DOORS and (args.lobby is not None or args.lobby_tls or args.lobby_ca):
        parser.error("--lobby, --lobby-tls and --lobby-ca are for --role doors")
    if (args.door_tls_cert is None) != (args.door_tls_key is None):
        parser.error("--door-tls-cert and --door-tls-key go together")
    if role == DOORS and args.door_tls_cert is not None:
        parser.error("--door-tls-cert is the lobby's; a door host verifies it with --lobby-ca")
    if args.door_secret is not None:
        try:
            args.door_secret_bytes = read_door_secret(args.door_secret)
        except ValueError as exc:
            parser.error(str(exc))


def gate_options_from_args(args: argparse.Namespace) -> GateOptions | None:
    """The lobby's gate for door hosts; None: it takes none (no ``--door-secret``)."""
    if args.role == DOORS or args.door_secret is None:
        return None
    return GateOptions(args.door_secret_bytes, args.door_tls_cert, args.door_tls_key)


def link_options_from_args(args: argparse.Namespace) -> LinkOptions:
    return LinkOptions(
        lobby=args.lobby,
        secret=args.door_secret_bytes,
        name=args.door_name or socket.gethostname(),
        tls=args.lobby_tls or args.lobby_ca is not None,
        ca_file=args.lobby_ca,
    )
