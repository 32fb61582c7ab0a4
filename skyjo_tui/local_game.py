"""A local game's set-up: the bots and the variants, as protocol requests."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from server.protocol import DEFAULT_NAME_MAX_LENGTH

from .i18n import Translator

MIN_BOTS: Final = 1
MAX_BOTS: Final = 7
DEFAULT_BOTS: Final = 3  # a first game's, before any was set up


@dataclass(frozen=True, slots=True)
class LocalSetup:
    levels: tuple[str, ...]  # one bot level per bot seat
    settings: Mapping[str, Any] = field(default_factory=dict)  # RULES.md names

    def __post_init__(self) -> None:
        if not MIN_BOTS <= len(self.levels) <= MAX_BOTS:
            raise ValueError(f"a local game has {MIN_BOTS} to {MAX_BOTS} bots")

    def create_request(self, table_name: str) -> dict[str, Any]:
        return {
            "type": "create_table",
            "name": table_name,
            "seats": len(self.levels) + 1,
            "settings": dict(self.settings),
            "private": True,
            "hints": True,  # the coach is on at home; a server's host may turn it off
        }


def default_name(environ: Mapping[str, str], tr: Translator) -> str:
    """The login name, capitalised, when it is a plausible player name."""
    login = (environ.get("USER") or environ.get("LOGNAME") or "").strip()
    if login and login.isprintable() and len(login) <= DEFAULT_NAME_MAX_LENGTH and login != "root":
        return login[:1].upper() + login[1:]
    return tr("default.name")
