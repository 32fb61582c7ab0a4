"""docs/scaling.md's HAProxy configuration is one HAProxy takes (``haproxy -c``), as is
the one the tests run."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from .kit import HAPROXY, Backend, balancer_config

SCALING = Path(__file__).parents[2] / "docs" / "scaling.md"
#: The certificate the example names is the operator's: its line is left out of the check.
CERTIFICATE_LINE = re.compile(r"^\s*bind \S+ ssl crt .*\n", re.M)

pytestmark = pytest.mark.skipif(HAPROXY is None, reason="needs haproxy (apt-get install haproxy)")


def check(config: str, folder: Path) -> subprocess.CompletedProcess[str]:
    path = folder / "haproxy.cfg"
    path.write_text(config)
    return subprocess.run(
        [HAPROXY or "haproxy", "-c", "-f", str(path)],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


def test_the_documented_configuration_is_valid(tmp_path: Path) -> None:
    (example,) = re.findall(r"```haproxy\n(.*?)```", SCALING.read_text(), re.S)
    assert "send-proxy-v2" in example and "option forwardfor" in example
    checked = check(CERTIFICATE_LINE.sub("", example), tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_tests_configuration_is_valid(tmp_path: Path) -> None:
    doors = [Backend("door1", "10.77.0.11", 2222), Backend("door2", "10.77.0.12", 2222)]
    web = (8080, [Backend("door1", "10.77.0.11", 8080)])
    checked = check(balancer_config("10.77.0.2", 2222, doors, web=web), tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
