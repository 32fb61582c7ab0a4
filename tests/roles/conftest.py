"""What the tests of the roles share: the door secret's file."""

from __future__ import annotations

from pathlib import Path

import pytest

SECRET = "0123456789abcdef0123456789abcdef\n"


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """The door secret's file, as the lobby and its door hosts are given it."""
    path = tmp_path / "door-secret"
    path.write_text(SECRET)
    return path
