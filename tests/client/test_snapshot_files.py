"""Every kept snapshot belongs to a snapshot test that still exists.

syrupy fails a whole run that leaves a snapshot unused, but not under pytest-xdist (the
README's ``-n auto``), where no process sees every test: this checks the same, by name.
"""

from __future__ import annotations

from pathlib import Path

from . import test_snapshots

SNAPSHOTS = Path(__file__).parent / "__snapshots__" / "test_snapshots"


def test_each_snapshot_file_is_a_test_of_test_snapshots() -> None:
    kept = sorted(SNAPSHOTS.glob("*.svg"))
    assert kept, f"no snapshots in {SNAPSHOTS}"
    # A parametrized test's snapshot is named test_name[id].svg.
    orphans = [path.name for path in kept if not hasattr(test_snapshots, path.stem.split("[")[0])]
    assert not orphans, f"snapshots of no test (delete them, or restore their test): {orphans}"
