"""Each SSH journey's last screen: ``python -m tests.ssh.journey_shots DIR``.

The journeys of ``test_journeys.py`` run as tests (real OpenSSH in tmux at
80x24); with ``SKYJO_JOURNEY_SHOTS`` set, each keeps the screen it ends on in
``DIR/NAME.txt`` (text) and ``DIR/NAME.ansi`` (with colours).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import pytest

from .test_journeys import SHOTS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, default=Path("ssh-journey-shots"))
    args = parser.parse_args()
    os.environ[SHOTS] = str(args.out.resolve())
    journeys = Path(__file__).with_name("test_journeys.py")
    status = pytest.main(["-q", "-p", "no:cacheprovider", str(journeys)])
    for shot in sorted(args.out.glob("*.txt")):
        print(shot)
    sys.exit(status)


if __name__ == "__main__":
    main()
