"""``skyjo``: play against bots, join a server, or replay a recorded game."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from server.version import version_text

from .address import parse_address, tcp_connector
from .i18n import LANGUAGE_INFO, LANGUAGES
from .table.pacing import PACES

DESCRIPTION = """Skyjo in the terminal.

With no option, opens the home screen: a game against bots is two key
presses away (Enter, Enter). Keys are shown at the bottom of every screen;
press F1 or ? for the rules and every key."""


def _languages() -> str:
    """ "de (Deutsch), en (English), ...": each code with the name its speakers know."""
    return ", ".join(f"{code} ({language.name})" for code, language in LANGUAGE_INFO.items())


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="skyjo", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--connect", metavar="HOST[:PORT]", help="join the server at HOST (port 7777 by default)"
    )
    where.add_argument(
        "--replay", metavar="FILE", type=Path, help="step through the games recorded in FILE"
    )
    p.add_argument("--name", help="your player name (asked for when needed)")
    p.add_argument(
        "--lang",
        choices=LANGUAGES,
        metavar="LANG",
        help=f"the language: {_languages()} (default: from the locale)",
    )
    p.add_argument(
        "--pace",
        choices=list(PACES),
        help="how long others' moves are shown (default: your setting)",
    )
    p.add_argument("--data-dir", type=Path, help="where settings and local games are kept")
    p.add_argument("--version", action="version", version=version_text("skyjo"))
    return p


def not_a_terminal(stdin: TextIO | None, stdout: TextIO | None, stderr: TextIO | None) -> str:
    """Which standard stream is not a terminal ("" when all three are).

    Textual's Linux driver reads keys from stdin, draws on stderr and takes the
    window's size from stdout. With stdin at end of file (``< /dev/null``, or a
    background job started by a POSIX ``sh``) its input thread spins forever.
    """
    for stream, name in ((stdin, "stdin"), (stdout, "stdout"), (stderr, "stderr")):
        if stream is None or not stream.isatty():
            return name
    return ""


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    connect, label = None, ""
    if args.connect:
        try:
            host, port = parse_address(args.connect)
        except ValueError as exc:
            parser().error(str(exc))
        connect, label = tcp_connector(host, port), f"{host}:{port}"
    if args.replay is not None and not args.replay.is_file():
        what = "not a file" if args.replay.exists() else "no such file"
        parser().error(f"--replay {args.replay}: {what}")
    stream = not_a_terminal(sys.__stdin__, sys.__stdout__, sys.__stderr__)
    if stream:
        print(
            f"skyjo needs a terminal: its {stream} is not one"
            " (redirected, piped, or started in the background?)",
            file=sys.stderr,
        )
        return 1
    # Loaded once the arguments are known to be good: Textual and the whole client take a
    # moment to import, which ``skyjo --help``, ``--version`` and a mistyped option skip.
    from server.config import default_data_dir

    from .app import build_app

    app = build_app(
        connect,
        name=args.name,
        lang=args.lang,
        environ=os.environ,
        data_dir=args.data_dir or default_data_dir() / "client",
        replay=args.replay,
        server_label=label,
        pace=args.pace,
    )
    app.run()
    return app.return_code or 0


if __name__ == "__main__":
    sys.exit(main())
