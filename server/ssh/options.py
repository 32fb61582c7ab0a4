"""The SSH door's options (plain data and argparse: importing this loads no
asyncssh, so a server started with ``--no-ssh`` never does)."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from ..config import ServerConfig
from ..doors.options import DoorPlugin, host_options_from_args, network, port, positive
from ..listen import IPNetwork
from ..termhost.gcpolicy import DEFAULT_GC_POLICY, GCPolicy
from ..termhost.options import HostLimits, WorkerOptions
from .naming import DEFAULT_LOBBY_USERNAME

DEFAULT_SSH_PORT: Final = 2222
HOST_KEY_FILENAME: Final = "ssh_host_ed25519_key"


@dataclass(frozen=True)
class SSHLimits:
    """Bounds of the SSH door itself (the host's are ``HostLimits``)."""

    input_window: int = 64 * 1024
    """SSH receive window per session: the most input buffered while paused."""
    max_env_vars: int = 32
    """Environment variables kept per session (each name and value is capped too)."""
    max_connections: int = 300
    max_connections_per_address: int = 20
    """Several players behind one NAT share an address: keep this generous."""
    idle_connection_timeout: float = 30.0
    """Seconds a logged-in connection may stay open without a running session."""
    proxy_header_timeout: float = 5.0
    """Seconds a trusted balancer's connection has to send its PROXY header."""


@dataclass(frozen=True)
class SSHOptions:
    """How the SSH front door runs (from ``ssh_options_from_args`` or by hand)."""

    enabled: bool = True
    port: int = DEFAULT_SSH_PORT
    host: str | None = None
    """The address to listen on; None: the lobby server's ``config.host``
    (whose None is every interface, IPv4 and IPv6)."""
    lobby_username: str = DEFAULT_LOBBY_USERNAME
    authorized_keys: Path | None = None
    trusted_proxies: tuple[IPNetwork, ...] = ()
    """TCP load balancers whose connections start with a PROXY protocol header (v1 or
    v2) giving the player's address (``server.ssh.proxied``); none by default."""
    host_key: Path | None = None
    """The host key file; None: ``<data dir>/ssh_host_ed25519_key``."""
    data_dir: Path | None = None
    """Where the host key lives when ``host_key`` is None; None: the lobby
    server's data directory."""
    connection_limits: SSHLimits = SSHLimits()
    limits: HostLimits = HostLimits()
    """The host's limits, when the door runs its own host (no shared ``GameHost``)."""
    workers: WorkerOptions | None = None
    """Likewise: worker processes for a host of its own (``doors.host.HostOptions``)."""
    worker_app_options: Mapping[str, Any] = field(default_factory=dict)
    """``build_app`` options for the apps in workers (tests: ``pace="off"``)."""
    gc_policy: GCPolicy | None = DEFAULT_GC_POLICY
    asyncssh_options: Mapping[str, Any] = field(default_factory=dict)
    """Extra ``asyncssh.create_server`` options (e.g. ``login_timeout``)."""
    page: str | None = None
    """The browser door's page (``http://host:8080``): the rooms show their tables' links
    and QR codes; ``skyjo-server`` gives it when it serves the page on a known port."""

    def host_key_path(self, server_config: ServerConfig) -> Path:
        if self.host_key is not None:
            return self.host_key
        return (self.data_dir or server_config.data_path) / HOST_KEY_FILENAME


def add_ssh_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the SSH front door's options to ``skyjo-server``'s parser."""
    group = parser.add_argument_group(
        "SSH front door (players connect with: ssh -p PORT skyjo@HOST)"
    )
    group.add_argument(
        "--ssh-port",
        type=port,
        default=DEFAULT_SSH_PORT,
        metavar="PORT",
        help=f"SSH port (default {DEFAULT_SSH_PORT}; see the README to use 22)",
    )
    group.add_argument("--no-ssh", action="store_true", help="do not serve the game over SSH")
    group.add_argument(
        "--authorized-keys",
        type=_authorized_keys_file,
        metavar="FILE",
        help="private server: only these public keys (OpenSSH authorized_keys "
        "format, re-read when it changes) may play; no guests",
    )
    group.add_argument(
        "--ssh-username",
        default=DEFAULT_LOBBY_USERNAME,
        metavar="NAME",
        help="the SSH user that asks for a name (default %(default)s); "
        "any other user name is the name to play as",
    )
    group.add_argument(
        "--ssh-trust-proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        type=network,
        help="a TCP load balancer (address or network) that sends the PROXY protocol "
        "(HAProxy's send-proxy or send-proxy-v2): its connections must start with it, "
        "and it gives the player's address (repeatable; default: none)",
    )
    defaults = SSHLimits()
    group.add_argument(
        "--ssh-max-connections",
        type=positive,
        metavar="N",
        default=defaults.max_connections,
        help="SSH connections at once (default %(default)s)",
    )
    group.add_argument(
        "--ssh-max-per-address",
        type=positive,
        metavar="N",
        default=defaults.max_connections_per_address,
        help="SSH connections from one address (default %(default)s)",
    )


def ssh_options_from_args(args: argparse.Namespace) -> SSHOptions:
    """``SSHOptions`` from arguments parsed with ``add_ssh_arguments``.

    The interface and the data directory are the lobby server's own.
    """
    connection_limits = replace(
        SSHLimits(),
        max_connections=args.ssh_max_connections,
        max_connections_per_address=args.ssh_max_per_address,
    )
    limits, workers = host_options_from_args(args)
    return SSHOptions(
        enabled=not args.no_ssh,
        port=args.ssh_port,
        lobby_username=args.ssh_username,
        authorized_keys=args.authorized_keys,
        trusted_proxies=tuple(args.ssh_trust_proxy),
        connection_limits=connection_limits,
        limits=limits,
        workers=workers,
        page=_page(args),
    )


def _page(args: argparse.Namespace) -> str | None:
    """Where this server's page is for a phone, if it serves one on a known port."""
    if getattr(args, "no_web", True) or not getattr(args, "web_port", 0):
        return None
    from ..web.address import page_address  # the standard library only

    return page_address(args.host, args.web_port).rstrip("/")


def _authorized_keys_file(text: str) -> Path:
    """A usable authorized keys file, or a usage error before anything starts."""
    from .identity import AuthorizedKeys  # asyncssh: only when the option is given

    path = Path(text).expanduser()
    try:
        AuthorizedKeys(path)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return path


SSH_DOOR: Final = DoorPlugin(
    add_ssh_arguments, lambda args: not args.no_ssh, "server.ssh.frontdoor:attach_ssh_front_door"
)
"""For ``server.cli.DOORS``."""
