"""A table's settings in a few words, for lists of tables and the room."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .i18n import Translator

DEFAULTS = {"starter": "highest-pair", "clear-columns": "on", "closer-penalty": "double"}


def rules_brief(settings: Mapping[str, Any], tr: Translator, *, whole: bool = False) -> str:
    """ "to 100" ("Game to 100 points" ``whole``, where there is room for the sentence), then
    only the variants that differ from the defaults."""
    key = "rules.game_to" if whole else "rules.end_score"
    parts = [tr(key, score=settings.get("end-score", 100))]
    for name, default in DEFAULTS.items():
        value = settings.get(name, default)
        if value != default:
            parts.append(tr(f"rules.{name}.{value}"))
    return " · ".join(str(p) for p in parts)


def timer_brief(seconds: Any, tr: Translator) -> str:
    return tr("rules.timer", seconds=seconds) if seconds else tr("rules.no_timer")


def hints_brief(hints: Any, tr: Translator) -> str:
    """ "no hints" where the host turned the coach off; nothing otherwise (the default)."""
    return tr("rules.no_hints") if hints is False else ""


def table_brief(settings: Mapping[str, Any], timer: Any, tr: Translator, hints: Any = True) -> str:
    """The rules, then the turn timer when there is one, then "no hints" when so."""
    parts = [rules_brief(settings, tr)]
    if timer:
        parts.append(tr("rules.timer_short", seconds=timer))
    parts.append(hints_brief(hints, tr))
    return " · ".join(part for part in parts if part)
