"""The systemd unit and the container file run the real command with options it takes.

No service manager or container engine runs here: what can be checked is
checked: ``systemd-analyze verify`` on the unit (when it is installed), and
both files' command lines against the real entry points and the real parser.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from server.cli import build_parser
from server.configfile import parse_with_config

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "contrib" / "skyjo-server.service"
#: One unit a role (docs/scaling.md): held to the same hardening as the one above.
UNITS = [UNIT, ROOT / "contrib" / "skyjo-lobby.service", ROOT / "contrib" / "skyjo-doors.service"]
CONTAINERFILE = ROOT / "Containerfile"
SCRIPTS = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]


def unit_settings(unit: Path = UNIT) -> dict[str, dict[str, list[str]]]:
    """Section -> key -> values (a key may be given more than once)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    for line in unit.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


@pytest.mark.parametrize("unit", UNITS, ids=lambda unit: unit.name)
def test_the_unit_runs_the_real_command_as_its_own_user_hardened(unit: Path) -> None:
    service = unit_settings(unit)["Service"]
    program, *options = shlex.split(service["ExecStart"][0])
    assert Path(program).name == "skyjo-server" and "skyjo-server" in SCRIPTS
    args = parse_with_config(build_parser(), options)
    # The data directory (the database, the host key, the admin socket) is systemd's StateDirectory.
    assert args.data_dir == Path("/var/lib") / service["StateDirectory"][0]
    assert service["StateDirectoryMode"] == ["0700"]
    assert service["User"][0] not in ("", "root")
    assert service["Restart"] == ["on-failure"]
    for key, value in (
        ("NoNewPrivileges", "yes"),
        ("ProtectSystem", "strict"),
        ("ProtectHome", "yes"),
        ("PrivateTmp", "yes"),
    ):
        assert service[key] == [value], key
    assert service["CapabilityBoundingSet"] == [""]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
@pytest.mark.parametrize("original", UNITS, ids=lambda unit: unit.name)
def test_systemd_accepts_the_unit(tmp_path: Path, original: Path) -> None:
    """``systemd-analyze verify``: every key known, the command there (the installed one)."""
    installed = Path(sys.executable).with_name("skyjo-server")
    unit = tmp_path / original.name
    unit.write_text(original.read_text().replace("/opt/skyjo/bin/skyjo-server", str(installed)))
    done = subprocess.run(
        ["systemd-analyze", "verify", str(unit)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0 and done.stderr.strip() == "", done.stderr


def instructions() -> list[tuple[str, str]]:
    lines, joined = [], ""
    for line in CONTAINERFILE.read_text().splitlines():
        if line.lstrip().startswith("#") and not joined:
            continue
        joined += line.rstrip("\\").strip() + " "
        if not line.endswith("\\"):
            if joined.strip():
                word, _, rest = joined.strip().partition(" ")
                lines.append((word.upper(), rest.strip()))
            joined = ""
    return lines


def test_the_container_runs_the_real_command_unprivileged_with_its_data_in_a_volume() -> None:
    found = instructions()
    single = dict(found)
    entrypoint, cmd = json.loads(single["ENTRYPOINT"]), json.loads(single["CMD"])
    assert entrypoint[0] in SCRIPTS
    parser = build_parser()
    args = parse_with_config(parser, entrypoint[1:] + cmd)
    assert json.loads(single["VOLUME"]) == [str(args.data_dir)]
    assert single["USER"] not in ("root", "0")
    exposed = {int(port) for port in single["EXPOSE"].split()}
    defaults = vars(parser.parse_args([]))
    assert {defaults["port"], defaults["ssh_port"]} <= exposed  # the ports it listens on
    assert defaults.get("web_port", 8080) in exposed
    for word, rest in found:  # what it copies is in the repository
        if word == "COPY":
            *sources, _ = rest.split()
            for source in sources:
                assert (ROOT / source).exists(), source
