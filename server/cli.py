"""``skyjo-server``: host Skyjo tables on this machine.

    skyjo-server                       # all interfaces (IPv4 and IPv6), port 7777
    skyjo-server --host 127.0.0.1      # this machine only
    skyjo-server --port 7000 --data-dir ./skyjo-data --max-tables 50
    skyjo-server --config /etc/skyjo/skyjo-server.toml   # any option, from a file
    skyjo-server admin players         # talk to the running server (same user)

Logs go to stderr. SIGINT or SIGTERM stops it cleanly; every table in play is
stored as it goes, so even a killed server resumes every game where it was.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import logging
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .app import SkyjoServer
from .config import Limits, Pace, ServerConfig, default_data_dir
from .configfile import parse_with_config
from .descriptors import DESCRIPTORS_PER_PLAYER, RESERVED, players_within, raise_open_files_limit
from .doors.options import (
    DoorPlugin,
    add_host_arguments,
    host_options_from_args,
    network,
    port,
)
from .link import options as roles
from .logformat import LOG_FORMATS, configure_logging
from .ssh.options import SSH_DOOR
from .version import version_text
from .web.options import WEB_DOOR

if TYPE_CHECKING:
    from .doors.host import GameHost

logger = logging.getLogger("server")

#: The ways in besides TCP. A door's dependencies (asyncssh, Textual, aiohttp)
#: are imported only when it is on.
DOORS: list[DoorPlugin] = [SSH_DOOR, WEB_DOOR]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="skyjo-server",
        description="Host Skyjo tables: players connect with `skyjo --connect HOST[:PORT]`.",
        epilog="A running server is looked after with `skyjo-server admin` (see its --help).",
    )
    parser.add_argument(
        "--host",
        type=_host,
        default=None,
        metavar="ADDRESS",
        help="the address or host name to listen on, for TCP, SSH and the web page "
        "(default: all interfaces, IPv4 and IPv6)",
    )
    parser.add_argument("--port", type=port, default=7777, help="TCP port (default 7777)")
    parser.add_argument(
        "--tcp-trust-proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        type=network,
        help="a TCP load balancer (address or network) in front of --port that sends the "
        "PROXY protocol (HAProxy's send-proxy or send-proxy-v2): its connections must "
        "start with it, and it gives the client's address (repeatable; default: none)",
    )
    parser.add_argument(
        "--data-dir", type=Path, default=None, help=f"where data is kept ({default_data_dir()})"
    )
    parser.add_argument(
        "--sync",
        choices=("full", "normal"),
        default="full",
        help="full: every move survives a power cut; normal: survives a crash, faster",
    )
    parser.add_argument(
        "--log-level", type=_log_level, default="INFO", help="DEBUG, INFO, WARNING, ERROR"
    )
    parser.add_argument(
        "--log-format",
        choices=LOG_FORMATS,
        default="text",
        help="text (default), or json: one JSON object per line",
    )
    parser.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help="read options from this TOML file (command-line options win; "
        "see docs/skyjo-server.example.toml)",
    )
    parser.add_argument("--version", action="version", version=version_text("skyjo-server"))
    parser.add_argument(
        "--no-admin",
        action="store_true",
        help="no admin socket (for `skyjo-server admin ...`) in the data directory",
    )
    parser.add_argument(
        "--qr",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="print the web page's address as a QR code at start, for phones' cameras "
        "(default: when the output is a terminal; never in the log)",
    )
    roles.add_role_arguments(parser)
    _add_limits(parser, Limits())
    _add_pace(parser, Pace())
    add_host_arguments(parser)
    for door in DOORS:
        door.add_arguments(parser)
    metrics = parser.add_argument_group("metrics (server/metrics.py; needs prometheus-client)")
    metrics.add_argument(
        "--metrics-port",
        type=int,
        default=None,
        metavar="PORT",
        help="serve Prometheus metrics on this port at /metrics (default: off)",
    )
    metrics.add_argument(
        "--metrics-host",
        default="127.0.0.1",
        metavar="ADDRESS",
        help="the address metrics are served on (default 127.0.0.1: this machine)",
    )
    return parser


def _log_level(text: str) -> str:
    level = text.strip().upper()
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise argparse.ArgumentTypeError(f"{text!r} is not DEBUG, INFO, WARNING or ERROR")
    return level


def _host(text: str) -> str | None:
    """An empty ``--host ""`` means the default, every interface (as in asyncio)."""
    return text.strip() or None


#: Limits of tables and names set from the command line, by field name: (flag, type, help).
TABLE_LIMITS: tuple[tuple[str, type, str], ...] = (
    ("--tables-per-player", int, "open tables one player may have created"),
    (
        "--tables-per-address",
        int,
        "open tables created from one address (raise it when many share one)",
    ),
    ("--tables-page", int, "tables in one page of the lobby's list"),
    (
        "--forget-guests-after",
        float,
        "seconds unused before a name with no finished game and no reservation is forgotten",
    ),
)


def _field(flag: str) -> str:
    """The ``Limits`` field (and argparse destination) of ``--a-flag``: ``a_flag``."""
    return flag.removeprefix("--").replace("-", "_")


def _add_limits(parser: argparse.ArgumentParser, limits: Limits) -> None:
    group = parser.add_argument_group("limits")
    group.add_argument("--max-connections", type=int, default=limits.max_connections)
    group.add_argument(
        "--max-per-address",
        type=int,
        default=limits.max_connections_per_address,
        help="connections from one address",
    )
    group.add_argument("--max-tables", type=int, default=limits.max_tables)
    for flag, kind, text in TABLE_LIMITS:
        group.add_argument(flag, type=kind, default=getattr(limits, _field(flag)), help=text)
    group.add_argument("--max-frame", type=int, default=limits.max_frame, help="bytes per message")
    group.add_argument(
        "--messages-per-second", type=float, default=limits.messages_per_second, help="per client"
    )
    group.add_argument(
        "--idle-timeout", type=float, default=limits.idle_timeout, help="seconds of silence"
    )
    group.add_argument(
        "--output-buffer",
        type=int,
        default=limits.output_buffer,
        help="bytes queued to a slow client before it is dropped",
    )


def _add_pace(parser: argparse.ArgumentParser, pace: Pace) -> None:
    group = parser.add_argument_group("pace")
    group.add_argument(
        "--bot-delay", type=float, default=pace.bot_delay, help="seconds between bot moves"
    )
    group.add_argument(
        "--grace",
        type=float,
        default=pace.grace_period,
        help="seconds a table waits for a dropped player before a bot plays for them",
    )
    group.add_argument(
        "--between-rounds",
        type=float,
        default=pace.between_rounds,
        help="seconds before the next round starts if not everyone is ready",
    )
    group.add_argument(
        "--empty-table",
        type=float,
        default=pace.empty_table,
        help="seconds a table with nobody connected keeps its seats before it closes",
    )


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    limits = Limits(
        max_connections=args.max_connections,
        max_connections_per_address=args.max_per_address,
        max_tables=args.max_tables,
        **{_field(flag): getattr(args, _field(flag)) for flag, _, _ in TABLE_LIMITS},
        max_frame=args.max_frame,
        messages_per_second=args.messages_per_second,
        message_burst=max(1, int(args.messages_per_second * 2)),
        idle_timeout=args.idle_timeout,
        output_buffer=args.output_buffer,
    )
    pace = Pace(
        bot_delay=args.bot_delay,
        grace_period=args.grace,
        between_rounds=args.between_rounds,
        empty_table=args.empty_table,
    )
    return ServerConfig(
        host=args.host,
        port=args.port,
        trusted_proxies=tuple(args.tcp_trust_proxy),
        data_dir=args.data_dir,
        limits=limits,
        pace=pace,
        sync=args.sync,
    )


def attach_doors(server: Any, args: argparse.Namespace) -> GameHost | None:
    """The doors that are on, after the one host that runs their players' screens (returned);
    none for ``--role lobby``."""
    doors = [door for door in DOORS if door.enabled(args) and args.role != roles.LOBBY]
    if not doors:
        return None
    from .doors.host import GameHost, HostOptions  # Textual: only with a door on

    limits, workers = host_options_from_args(args)
    game_host = GameHost(HostOptions(limits=limits, workers=workers))
    server.add_front_door(game_host)  # first: started before the doors, stopped after
    for door in doors:
        door.attach_to(server, args, game_host)
    return game_host


async def serve(server: Any, started: Callable[[], None] | None = None) -> None:
    """Run until SIGINT or SIGTERM, then stop cleanly; ``started`` is called once it listens."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    await server.start()
    if started is not None:
        started()
    try:
        await stop.wait()
        logger.info("stopping")
    finally:
        await server.stop()
        logger.info("stopped; everything is saved")


def _raise_open_files_limit(args: argparse.Namespace) -> None:
    """As many open files as the system lets this process have, and what that allows."""
    limit = raise_open_files_limit()
    if limit is None:
        return
    # Connections on their way in to the browser door are capped apart.
    reserved = RESERVED + (0 if args.no_web else args.web_max_pending)
    logger.info(
        "%d open files allowed: room for about %d browser or SSH players at once "
        "(%d each; %d kept for connections on their way in, the database and the logs)",
        limit,
        players_within(limit, reserved),
        DESCRIPTORS_PER_PLAYER,
        reserved,
    )


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["admin"]:
        from .admin.cli import main as admin_main

        return admin_main(argv[1:], build_parser)
    parser = build_parser()
    args = parse_with_config(parser, argv)
    roles.check_role_arguments(parser, args)
    configure_logging(args.log_level, args.log_format)
    server: Any
    if args.role == roles.DOORS:  # the doors only, every player on the lobby at --lobby
        from .link.doorhost import DoorHostServer

        server = DoorHostServer(config_from_args(args), roles.link_options_from_args(args))
        game_host = attach_doors(server, args)
        if game_host is None:
            logger.error("--role doors with --no-ssh and --no-web: no door to serve")
            return 1
    else:
        server = SkyjoServer(config_from_args(args), roles.gate_options_from_args(args))
        game_host = attach_doors(server, args)
        if not args.no_admin:
            from .admin.door import AdminDoor

            server.add_front_door(AdminDoor())
    if args.metrics_port is not None:
        try:
            from .metrics import attach_metrics  # prometheus-client: only with the endpoint on
        except ImportError as exc:
            logger.error(
                "--metrics-port needs prometheus-client (pip install 'skyjo-tui[metrics]'): %s", exc
            )
            return 1
        attach_metrics(server, args, game_host)
    _raise_open_files_limit(args)
    try:
        asyncio.run(serve(server, functools.partial(_show_page_qr, server, args)))
    except OSError as exc:  # e.g. the port is taken, or datadir.CannotStart
        logger.error("cannot start: %s", exc)
        return 1
    return 0


def _show_page_qr(server: Any, args: argparse.Namespace) -> None:
    if not args.no_web and args.qr is not False:
        from .web.banner import show_page_qr  # aiohttp: only with the door on

        show_page_qr(server, args.qr)


if __name__ == "__main__":
    sys.exit(main())
