"""The installed version of this program, from the package's metadata (one owner:
``pyproject.toml``'s ``version``), for ``--version`` and the server's welcome."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from typing import Final

DISTRIBUTION: Final = "skyjo-tui"


def installed_version() -> str | None:
    """``"0.1.0"``; None when running from a source tree that is not installed."""
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return None


def version_text(program: str) -> str:
    """What ``PROGRAM --version`` prints: ``"skyjo-server 0.1.0"``."""
    return f"{program} {installed_version() or '(not installed)'}"
