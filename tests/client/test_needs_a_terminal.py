"""``skyjo`` without a terminal says so and exits, and its flags that need none still work.

The installed command runs as a real process, its stdin from /dev/null (as a
POSIX ``sh`` gives a background job): before, it drew and spun forever.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SKYJO = Path(sys.executable).with_name("skyjo")
pytestmark = pytest.mark.skipif(not SKYJO.exists(), reason="needs the skyjo command")
BOUND = 30.0  # a bound on a hang, not a timing


def skyjo(*args: str) -> subprocess.CompletedProcess[str]:
    """``skyjo ARGS < /dev/null``, its output read; killed if it outlives BOUND."""
    return subprocess.run(
        [str(SKYJO), *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=BOUND,
        check=False,
    )


@pytest.mark.parametrize("args", [[], ["--connect", "127.0.0.1:9"], ["--replay", __file__]])
def test_no_terminal_is_said_and_ends_it(args: list[str], tmp_path: Path) -> None:
    done = skyjo("--data-dir", str(tmp_path / "data"), *args)
    assert done.returncode != 0
    assert done.stderr.startswith("skyjo needs a terminal: its stdin is not one"), done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert not (tmp_path / "data").exists()  # nothing started: no settings, no local server


def test_flags_that_draw_nothing_need_no_terminal() -> None:
    assert skyjo("--version").stdout.startswith("skyjo ")
    assert skyjo("--help").stdout.startswith("usage: skyjo")
    refused = skyjo("--replay", "/nonexistent/games.jsonl")
    assert refused.returncode == 2 and "no such file" in refused.stderr  # the file's error first
