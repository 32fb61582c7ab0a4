"""``skyjo-server --config FILE``: every command-line option, from a TOML file.

The parser is the one list of options: a key of the file is an option's
destination (``--max-tables`` is ``max_tables``; ``max-tables`` works too),
its value goes through the option's own type function and choices, so a
file and a command line accept exactly the same things. Keys may sit at the
top level or in any ``[section]`` (sections only group them for people to
read). The file gives the defaults; the command line wins over it (a
repeatable option, e.g. ``--web-origin``, is a list in the file, and the
command line adds to it).

A bad file is refused before anything starts, naming the file, the line
(when it can be found) and the key, with argparse's usage error (status 2).
"""

from __future__ import annotations

import argparse
import difflib
import re
import tomllib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Final

#: Options that are about this run of the command, not the server: never in a file.
NOT_IN_FILE: Final = frozenset({"help", "version", "config"})


class ConfigError(ValueError):
    """The config file cannot be used; the message names the file and the key."""


def file_options(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """The keys a config file may hold (each option's destination) and their options."""
    # argparse has no public list of a parser's options; ``_actions`` is it (since 2.7).
    return {
        action.dest: action
        for action in parser._actions  # noqa: SLF001 - argparse's (private.py)
        if action.option_strings and action.dest not in NOT_IN_FILE
    }


def parse_with_config(
    parser: argparse.ArgumentParser, argv: Sequence[str] | None, *, config_dest: str = "config"
) -> argparse.Namespace:
    """``parser.parse_args(argv)``, with the file named by ``--config`` (if given)
    as the defaults; a bad file is a usage error (exit status 2)."""
    args = parser.parse_args(argv)
    path: Path | None = getattr(args, config_dest, None)
    if path is None:
        return args
    try:
        values = read_config(path, parser)
    except ConfigError as exc:
        parser.error(str(exc))
    # Parsed into a namespace that already holds the file's values: argparse only
    # sets a default where the namespace has none, so the command line wins.
    return parser.parse_args(argv, namespace=argparse.Namespace(**values))


def read_config(path: Path, parser: argparse.ArgumentParser) -> dict[str, Any]:
    """The file's options, by destination, converted as the command line would."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the config file: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: the config file is not UTF-8 text") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:  # its message ends with "(at line N, column M)"
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    options = file_options(parser)
    values: dict[str, Any] = {}
    for section, key, value in _entries(path, text, data):
        where = _where(path, text, section, key)
        dest = key.replace("-", "_")
        action = options.get(dest)
        if action is None:
            raise ConfigError(f"{where}: unknown option {key!r}{_did_you_mean(dest, options)}")
        if dest in values:
            raise ConfigError(f"{where}: {key!r} is given more than once")
        values[dest] = _convert(action, value, f"{where}: {key}")
    return values


def _entries(path: Path, text: str, data: dict[str, Any]) -> Iterator[tuple[str | None, str, Any]]:
    """(section or None, key, value) for every key at the top level or in a section."""
    for key, value in data.items():
        if not isinstance(value, dict):
            yield None, key, value
            continue
        for inner, inner_value in value.items():
            if isinstance(inner_value, dict):
                where = _where(path, text, key, inner)
                raise ConfigError(f"{where}: [{key}.{inner}]: sections do not nest")
            yield key, inner, inner_value


def _convert(action: argparse.Action, value: Any, where: str) -> Any:
    """``value`` as the option would have it from the command line."""
    if action.nargs == 0:  # a flag (--no-ssh): the file says what its destination is
        if not isinstance(value, bool):
            raise ConfigError(f"{where}: must be true or false, not {value!r}")
        return value
    # repeatable: a list (or one value)
    if isinstance(action, argparse._AppendAction):  # noqa: SLF001 - argparse's (private.py)
        values = value if isinstance(value, list) else [value]
        return [_convert_one(action, item, where) for item in values]
    return _convert_one(action, value, where)


def _convert_one(action: argparse.Action, value: Any, where: str) -> Any:
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise ConfigError(f"{where}: must be a string or a number, not {value!r}")
    text = str(value)
    try:
        converted = action.type(text) if callable(action.type) else text
    except argparse.ArgumentTypeError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    except (TypeError, ValueError):
        kind = getattr(action.type, "__name__", "")
        raise ConfigError(
            f"{where}: {value!r} is not a valid {kind} value".replace("  ", " ")
        ) from None
    if action.choices is not None and converted not in action.choices:
        choices = ", ".join(repr(choice) for choice in action.choices)
        raise ConfigError(f"{where}: {value!r} is not one of {choices}")
    return converted


def _did_you_mean(dest: str, options: dict[str, argparse.Action]) -> str:
    close = difflib.get_close_matches(dest, options, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _where(path: Path, text: str, section: str | None, key: str) -> str:
    """``FILE, line N`` of ``key`` (in ``[section]``), or just ``FILE`` if not found.

    tomllib gives no positions for values it parsed, so the line is looked for:
    the first ``key =`` in the right section (bare or quoted key)."""
    assignment = re.compile(r"\s*([\"']?)" + re.escape(key) + r"\1\s*=")
    header = re.compile(r"\s*\[\s*([\"']?)([^\]\"']+)\1\s*\]")
    current: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        found = header.match(line)
        if found:
            current = found.group(2).strip()
        elif current == section and assignment.match(line):
            return f"{path}, line {number}"
    return str(path)
