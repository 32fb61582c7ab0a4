"""The player's choices, kept in ``client.json`` of the data directory (if any).

A missing or damaged file gives the defaults (and is replaced on the next
save, after keeping the bad one aside), so a bad edit never stops the game.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Final

from .table.pacing import DEFAULT_PACE, PACES

logger = logging.getLogger(__name__)

FILE_NAME: Final = "client.json"
MAX_TOKENS: Final = 50


@dataclass(frozen=True, slots=True)
class Preferences:
    name: str = ""
    lang: str = ""  # "" follows the locale
    pace: str = DEFAULT_PACE  # one of pacing.PACES
    highlight: bool = True  # highlight the cards each move changed
    # The last local game's set-up: its bots' levels, by seat ([]: none yet), and its
    # variants under RULES.md names (the new-table dialog's too); screens check the values.
    bot_levels: list[str] = field(default_factory=list)
    variants: dict[str, Any] = field(default_factory=dict)
    # The last table opened on a server: "seats", "private", "hints", "turn_timer"
    # (the new-table dialog's fields but the name; the dialog checks the values).
    new_table: dict[str, Any] = field(default_factory=dict)
    last_server: str = ""  # host:port of the last server joined
    tokens: dict[str, str] = field(default_factory=dict)  # server address -> resume token
    keys: dict[str, str] = field(
        default_factory=dict
    )  # binding id -> key(s), e.g. "table.draw": "p"
    theme: str = ""  # one of theme.THEMES; "" is the first (Skyjo's dark one)
    turn_title: bool = True  # the terminal's title says when it becomes your turn
    turn_bell: bool = False  # and the terminal's bell rings

    def with_token(self, server: str, token: str | None) -> Preferences:
        tokens = {k: v for k, v in self.tokens.items() if k != server}
        if token:
            tokens[server] = token
        return replace(self, tokens=dict(list(tokens.items())[-MAX_TOKENS:]))


def load(data_dir: Path | None) -> Preferences:
    if data_dir is None:
        return Preferences()
    path = data_dir / FILE_NAME
    try:
        data = json.loads(path.read_text("utf-8"))
        return _from_dict(data)
    except FileNotFoundError:
        return Preferences()
    except (OSError, ValueError, TypeError) as exc:
        logger.warning("ignoring unreadable preferences %s: %s", path, exc)
        _keep_aside(path)
        return Preferences()


def save(data_dir: Path | None, preferences: Preferences) -> None:
    """Write atomically (a temporary file renamed over the old one)."""
    if data_dir is None:
        return
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / FILE_NAME
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(asdict(preferences), indent=2), "utf-8")
    os.replace(temporary, path)


def _from_dict(data: Any) -> Preferences:
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    defaults = Preferences()
    data = _from_earlier(data)
    values: dict[str, Any] = {}
    for f in fields(Preferences):
        value = data.get(f.name, getattr(defaults, f.name))
        if not isinstance(value, type(getattr(defaults, f.name))):
            raise TypeError(f"{f.name} has the wrong type")
        values[f.name] = value
    if values["pace"] not in PACES:
        values["pace"] = DEFAULT_PACE
    values["tokens"] = {str(k): str(v) for k, v in values["tokens"].items()}
    values["keys"] = {str(k): str(v) for k, v in values["keys"].items()}
    values["bot_levels"] = [str(level) for level in values["bot_levels"]]
    values["variants"] = {str(k): v for k, v in values["variants"].items()}
    values["new_table"] = {str(k): v for k, v in values["new_table"].items()}
    return Preferences(**values)


def _from_earlier(data: dict[str, Any]) -> dict[str, Any]:
    """A file of an earlier version kept the number of bots and one level for them all."""
    bots, level = data.get("bots"), data.get("bot_level")
    if "bot_levels" in data or not isinstance(bots, int) or not isinstance(level, str):
        return data
    return {**data, "bot_levels": [level] * max(0, min(bots, 20))}


def _keep_aside(path: Path) -> None:
    with contextlib.suppress(OSError):
        os.replace(path, path.with_suffix(".bad"))
