"""``skyjo-server admin ...``: look after the running server from the same machine.

    skyjo-server admin players                 # who is online, where, by which door
    skyjo-server admin tables
    skyjo-server admin announce "Restarting in 5 minutes"
    skyjo-server admin kick alice
    skyjo-server admin ban key SHA256:abc...   # that SSH key cannot log in any more
    skyjo-server admin ban name alice          # nobody may play as alice
    skyjo-server admin unban name alice
    skyjo-server admin bans
    skyjo-server admin close t1a2b3

It connects to the server's admin socket in its data directory (the same
``--data-dir`` or ``--config`` as the server's), which only the server's
user can open: run it as that user (``sudo -u skyjo skyjo-server admin ...``).
Exit status: 0 done, 1 refused or no server, 2 a usage error.
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from ..config import default_data_dir
from .socketfile import admin_socket_path, check_socket_path

TIMEOUT: Final = 30.0  # seconds to connect and to get the answer


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="skyjo-server admin",
        description="Talk to the running skyjo-server on this machine (as the user it runs as).",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--data-dir", type=Path, help=f"the server's data directory ({default_data_dir()})"
    )
    where.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help="the server's config file (its data_dir is used)",
    )
    where.add_argument("--socket", type=Path, help="the admin socket itself")
    parser.add_argument("--json", action="store_true", help="print the server's answer as JSON")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_parser("players", help="who is online, where, by which door")
    commands.add_parser("tables", help="every table, its status and players")
    announce = commands.add_parser("announce", help="a message everyone online sees")
    announce.add_argument("text")
    kick = commands.add_parser("kick", help="disconnect a player (their seat is kept)")
    kick.add_argument("name")
    for name, text in (
        ("ban", "ban an SSH key or a name (stored: it lasts)"),
        ("unban", "lift a ban"),
    ):
        command = commands.add_parser(name, help=text)
        command.add_argument("kind", choices=("key", "name"))
        command.add_argument("value", help="SHA256:... for a key, else the name")
    commands.add_parser("bans", help="every ban")
    close = commands.add_parser("close", help="close a table (everyone at it goes to the lobby)")
    close.add_argument("table_id", metavar="TABLE", help="its id, as `tables` shows")
    return parser


def request_of(args: argparse.Namespace) -> dict[str, Any]:
    fields = {
        k: v for k, v in vars(args).items() if k not in ("data_dir", "config", "socket", "json")
    }
    return fields


def socket_path_of(
    args: argparse.Namespace,
    parser: argparse.ArgumentParser,
    server_parser: Callable[[], argparse.ArgumentParser],
) -> Path:
    if args.socket is not None:
        socket_path: Path = args.socket
        return socket_path
    data_dir = args.data_dir
    if args.config is not None:
        from ..configfile import ConfigError, read_config

        try:
            data_dir = read_config(args.config, server_parser()).get("data_dir")
        except ConfigError as exc:
            parser.error(str(exc))
    return admin_socket_path(data_dir or default_data_dir())


def ask(path: Path, request: dict[str, Any], timeout: float = TIMEOUT) -> dict[str, Any]:
    """Send one request to the admin socket at ``path``; the server's answer.

    Raises ``OSError`` (no server, refused) with a message for the admin."""
    check_socket_path(path)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        try:
            sock.connect(str(path))
        except (FileNotFoundError, ConnectionRefusedError):
            raise OSError(f"no skyjo-server is running with its admin socket at {path}") from None
        except PermissionError:
            raise OSError(f"{path}: permission denied: run this as the server's user") from None
        sock.sendall(json.dumps(request).encode() + b"\n")
        answer = sock.makefile("rb").readline()
    if not answer:
        raise OSError("the server closed the admin connection without answering")
    reply = json.loads(answer)
    if not isinstance(reply, dict):
        raise ValueError(f"the server's answer is not a JSON object: {answer[:200]!r}")
    return reply


def main(argv: Sequence[str] | None, server_parser: Callable[[], argparse.ArgumentParser]) -> int:
    """``skyjo-server admin ...`` (``server.cli`` hands over, with its own parser, which
    reads the data directory from ``--config`` as the server itself would)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    path = socket_path_of(args, parser, server_parser)
    try:
        reply = ask(path, request_of(args))
    except (OSError, ValueError) as exc:  # no server, not ours (UnsafeAdminSocket), garbled
        print(f"skyjo-server admin: {exc}", file=sys.stderr)
        return 1
    if not reply.get("ok"):
        print(f"skyjo-server admin: {printable(str(reply.get('error')))}", file=sys.stderr)
        return 1
    result = reply.get("result", {})
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=True))
    else:
        print(describe(args.command, result))
    return 0


# -- printing -----------------------------------------------------------------------------


def printable(text: str) -> str:
    """Players' words as data on the admin's terminal: anything a terminal could
    act on (controls, escapes, bidi overrides) is shown escaped, never sent as is."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


def _columns(rows: list[list[str]]) -> str:
    if not rows:
        return ""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in rows
    )


def describe(command: str, result: dict[str, Any]) -> str:
    """The answer to ``command`` for a person to read."""
    if command == "players":
        rows = [
            [
                printable(str(p["name"])),
                p["where"],
                p["door"],
                printable(str(p.get("door_host") or "-")),
                p["identity"] or "-",
                p["address"],
            ]
            for p in result["players"]
        ]
        return (
            _columns([["NAME", "WHERE", "DOOR", "DOOR HOST", "IDENTITY", "ADDRESS"], *rows])
            if rows
            else "nobody is online"
        )
    if command == "tables":
        rows = [
            [
                t["table_id"],
                printable(t["name"]),
                t["status"],
                t["seats"],
                ", ".join(printable(n) for n in t["players"]) or "-",
            ]
            for t in result["tables"]
        ]
        return (
            _columns([["TABLE", "NAME", "STATUS", "SEATS", "PLAYERS"], *rows])
            if rows
            else "no tables"
        )
    if command == "bans":
        rows = [[b["kind"], printable(b["value"])] for b in result["bans"]]
        return _columns([["KIND", "VALUE"], *rows]) if rows else "nobody is banned"
    if command == "announce":
        return f"sent to {result['sent_to']} connection(s)"
    if command == "kick":
        return "disconnected: " + ", ".join(printable(n) for n in result["kicked"])
    if command == "ban":
        gone = ", ".join(printable(n) for n in result["disconnected"])
        text = f"banned {printable(result['banned'])}" + (
            "" if result["new"] else " (it already was)"
        )
        return text + (f"; disconnected: {gone}" if gone else "")
    if command == "unban":
        return f"unbanned {printable(result['unbanned'])}"
    if command == "close":
        return f"closed {result['closed']} ({printable(result['name'])})"
    return json.dumps(result, ensure_ascii=True)
