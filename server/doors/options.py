"""Command-line options of the host that every door shares (plain data: no
Textual, no asyncssh, so ``skyjo-server --help`` and a server without doors
load neither)."""

from __future__ import annotations

import argparse
import importlib
import ipaddress
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..listen import IPNetwork
from ..termhost.options import HostLimits, WorkerOptions


def non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} must be 0 or more")
    return value


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be at least 1")
    return value


def port(text: str) -> int:
    number = int(text)
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"{number} is not a port number (0-65535)")
    return number


def network(text: str) -> IPNetwork:
    """An address or network (``10.0.0.7``, ``10.0.0.0/8``, ``fd00::/8``)."""
    try:
        return ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an IP address or network (e.g. 127.0.0.1, 10.0.0.0/8)"
        ) from None


def add_host_arguments(parser: argparse.ArgumentParser) -> None:
    """``--workers``, ``--recycle-after``, ``--max-screens``, ``--idle-minutes``: how SSH and browser
    players' screens run.  The ``--ssh-...`` spellings of earlier versions still work."""
    group = parser.add_argument_group("players' screens (SSH and browser players)")
    workers = WorkerOptions()
    group.add_argument(
        "--workers",
        "--ssh-workers",
        dest="workers",
        type=non_negative,
        metavar="N",
        default=workers.processes,
        help="worker processes running the players' screens (default %(default)s; "
        "0: inside the server process, one process for a few friends, but a "
        "large server pauses for seconds to free memory)",
    )
    group.add_argument(
        "--recycle-after",
        "--ssh-recycle-after",
        dest="recycle_after",
        type=positive,
        metavar="N",
        default=workers.recycle_after,
        help="replace a worker once this many of its sessions have ended "
        "(default %(default)s); it exits when its last player leaves",
    )
    group.add_argument(
        "--max-screens",
        dest="max_screens",
        type=positive,
        metavar="N",
        default=HostLimits().max_sessions,
        help="players' screens at once, every door together (default "
        "%(default)s; each takes a few MiB); past it a player is told the "
        "server is full",
    )
    group.add_argument(
        "--idle-minutes",
        "--ssh-idle-minutes",
        dest="idle_minutes",
        type=float,
        metavar="MIN",
        default=(HostLimits().idle_timeout or 0) / 60,
        help="close a screen after this long without a key press "
        "(default %(default)g; 0: never); the seat is kept",
    )


def host_options_from_args(args: argparse.Namespace) -> tuple[HostLimits, WorkerOptions]:
    idle = args.idle_minutes * 60 if args.idle_minutes > 0 else None
    limits = replace(HostLimits(), idle_timeout=idle, max_sessions=args.max_screens)
    return limits, WorkerOptions(processes=args.workers, recycle_after=args.recycle_after)


@dataclass(frozen=True)
class DoorPlugin:
    """A door of ``skyjo-server``, as the command line sees it."""

    add_arguments: Callable[[argparse.ArgumentParser], None]
    enabled: Callable[[argparse.Namespace], bool]
    attach: str
    """``"module:function"``, called as ``function(server, args, game_host)``;
    imported only when the door is on, so its dependencies load only then."""

    def attach_to(self, server: Any, args: argparse.Namespace, game_host: Any) -> None:
        module_name, _, name = self.attach.partition(":")
        getattr(importlib.import_module(module_name), name)(server, args, game_host)
