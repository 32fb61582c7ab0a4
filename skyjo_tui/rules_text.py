"""A table's settings in a few words, for lists of tables and the room."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .i18n import Translator

DEFAULTS = {"starter": "highest-pair", "clear-columns": "on", "closer-penalty": "double"}


def rules_brief(settings: Mapping[str, Any], tr: Translator) -> str:
    """ "to 100", then only the variants that differ from the defaults."""
    parts = [tr("rules.end_score", score=settings.get("end-score", 100))]
    for name, default in DEFAULTS.items():
        value = settings.get(name, default)
        if value != default:
            parts.append(tr(f"rules.{name}.{value}"))
    return " · ".join(str(p) for p in parts)


def timer_brief(seconds: Any, tr: Translator) -> str:
    return tr("rules.timer", seconds=seconds) if seconds else tr("rules.no_timer")


def table_brief(settings: Mapping[str, Any], timer: Any, tr: Translator) -> str:
    """The rules, then the turn timer when there is one."""
    rules = rules_brief(settings, tr)
    return f"{rules} · {tr('rules.timer_short', seconds=timer)}" if timer else rules
