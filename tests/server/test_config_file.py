"""``skyjo-server --config FILE``: every option from TOML, the command line winning,
bad keys and values refused by name (the real parser; the command in a subprocess)."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from server.cli import build_parser, config_from_args
from server.configfile import ConfigError, file_options, parse_with_config, read_config

from .processes import WAIT

SERVER = Path(sys.executable).with_name("skyjo-server")
EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "skyjo-server.example.toml"
#: ``# key = value`` lines of the example: options shown at their default.
COMMENTED = re.compile(r"^#\s*([a-z_]+)\s*=\s*(.+?)\s*(?:#.*)?$")


def parse(tmp_path: Path, text: str, *argv: str) -> argparse.Namespace:
    path = tmp_path / "server.toml"
    path.write_text(text)
    return parse_with_config(build_parser(), ["--config", str(path), *argv])


def refusal(tmp_path: Path, text: str) -> str:
    path = tmp_path / "server.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as refused:
        read_config(path, build_parser())
    return str(refused.value)


def test_the_file_sets_options_and_the_command_line_wins(tmp_path: Path) -> None:
    args = parse(
        tmp_path,
        """
port = 7000
data-dir = "/srv/skyjo"
[limits]
max_tables = 12
messages_per_second = 2.5
[ssh]
no_ssh = true
ssh_port = 2022
""",
        "--port",
        "7100",
    )
    assert args.port == 7100  # the command line wins
    assert args.data_dir == Path("/srv/skyjo") and args.max_tables == 12
    assert args.no_ssh is True and args.ssh_port == 2022
    config = config_from_args(args)
    assert config.limits.messages_per_second == 2.5 and config.limits.message_burst == 5
    assert parse(tmp_path, "ssh_port = 2022\n", "--ssh-port", "2222").ssh_port == 2222


def test_every_option_is_accepted_from_a_file(tmp_path: Path) -> None:
    """Each option of the real parser, at its default written as TOML, gives that default."""
    parser = build_parser()
    defaults = vars(parser.parse_args([]))
    lines = []
    for dest in file_options(parser):
        value = defaults[dest]
        if value is None:
            continue  # no default to write (e.g. --authorized-keys: checked below)
        lines.append(f"{dest} = {_toml(value)}")
    keys = tmp_path / "authorized_keys"
    keys.write_text(
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHc8ofYPRLNhNCaHiZb5j0qAEPPyAgcrk1IPq7oEtf5f a@b\n"
    )
    lines += [f'authorized_keys = "{keys}"', 'data_dir = "/srv/skyjo"', 'host = "127.0.0.1"']
    args = parse(tmp_path, "\n".join(lines) + "\n")
    assert args.authorized_keys == keys and args.host == "127.0.0.1"
    for dest, value in defaults.items():
        if value is not None:
            assert getattr(args, dest) == value, dest


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, list):  # a repeatable option (e.g. --web-origin)
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return '"' + str(value) + '"'


def test_the_example_parses_shows_every_option_and_their_true_defaults(tmp_path: Path) -> None:
    parser = build_parser()
    values = read_config(EXAMPLE, parser)  # its live lines are valid
    tomllib.loads(EXAMPLE.read_text())
    shown = dict(values)
    defaults = vars(parser.parse_args([]))
    for line in EXAMPLE.read_text().splitlines():
        found = COMMENTED.match(line)
        if found is None:
            continue
        key, text = found.groups()
        if defaults.get(key) in (None, []):  # an example value (a file that need not exist here)
            shown[key] = text
            continue
        (converted,) = read_config(_one(tmp_path, f"{key} = {text}\n"), parser).values()
        shown[key] = converted
        assert converted == defaults[key], key  # "at its default": the parser's, not a stale copy
    assert set(shown) == set(file_options(parser))  # every option, none unknown


def _one(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "one.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("prot = 7000\n", "line 1: unknown option 'prot' (did you mean 'port'?)"),
        ("\n[limits]\nport = 99999\n", "line 3: port: 99999 is not a port number (0-65535)"),
        ('max_tables = "many"\n', "line 1: max_tables: 'many' is not a valid int value"),
        ('sync = "sometimes"\n', "line 1: sync: 'sometimes' is not one of 'full', 'normal'"),
        ('no_ssh = "yes"\n', "line 1: no_ssh: must be true or false"),
        ("port = true\n", "line 1: port: must be a string or a number"),
        ("workers = -1\n", "line 1: workers: -1 must be 0 or more"),
        ("port = 1\n[net]\nport = 2\n", "line 3: 'port' is given more than once"),
        ('config = "other.toml"\n', "unknown option 'config'"),
        ("port = [\n", "not valid TOML"),
    ],
)
def test_a_bad_key_or_value_is_named(tmp_path: Path, text: str, expected: str) -> None:
    assert expected in refusal(tmp_path, text)


def test_the_command_refuses_a_bad_file_with_status_2(tmp_path: Path) -> None:
    path = tmp_path / "server.toml"
    path.write_text("[limits]\nmax_tables = 0.5\n")
    done = subprocess.run(
        [str(SERVER), "--config", str(path)],
        capture_output=True,
        text=True,
        timeout=WAIT,
        check=False,
    )
    assert done.returncode == 2
    assert f"{path}, line 2: max_tables: 0.5 is not a valid int value" in done.stderr
    done = subprocess.run(
        [str(SERVER), "--config", str(tmp_path / "missing.toml")],
        capture_output=True,
        text=True,
        timeout=WAIT,
        check=False,
    )
    assert done.returncode == 2 and "cannot read the config file" in done.stderr


def test_a_repeatable_option_is_a_list_the_command_line_adds_to(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", type=Path)
    parser.add_argument("--origin", action="append", default=[], type=str.lower)
    path = tmp_path / "server.toml"
    path.write_text('origin = ["HTTPS://A.example", "https://b.example"]\n')
    args = parse_with_config(parser, ["--config", str(path), "--origin", "https://C.example"])
    assert args.origin == ["https://a.example", "https://b.example", "https://c.example"]
    path.write_text('origin = "https://one.example"\n')
    assert parse_with_config(parser, ["--config", str(path)]).origin == ["https://one.example"]
    path.write_text("origin = [1.5, true]\n")
    with pytest.raises(ConfigError, match="origin: must be a string or a number, not True"):
        read_config(path, parser)


def test_the_readmes_example_is_a_valid_config(tmp_path: Path) -> None:
    readme = (EXAMPLE.parents[1] / "README.md").read_text()
    (block,) = re.findall(r"```toml\n(.*?)```", readme, re.S)
    values = read_config(_one(tmp_path, block), build_parser())
    assert values["max_tables"] == 100 and values["log_format"] == "json"
