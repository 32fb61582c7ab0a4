"""Who is here, in words: the server's page of the players online and where each is. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .i18n import Translator

#: The names asked for at once: the lobby has room for a line or two of them.
WHO_LIMIT = 20


def where_text(entry: Mapping[str, Any], tr: Translator) -> str:
    where, table = entry.get("where"), entry.get("table_name")
    if where == "seated":
        return tr("who.seated", table=table) if table else tr("who.seated_private")
    if where == "watching":
        return tr("who.watching", table=table) if table else tr("who.watching_private")
    return tr("who.lobby")


def who_line(page: Mapping[str, Any], tr: Translator) -> str:
    """ "Here (3): Alice (in the lobby) · Bob (at Friday) · …"; names shown as they are."""
    players = [p for p in page.get("players") or [] if isinstance(p, Mapping)]
    given = page.get("total")
    total = given if isinstance(given, int) else len(players)
    parts = [f"{p.get('name', '?')} ({where_text(p, tr)})" for p in players]
    line = tr("who.title", count=total) + " " + " · ".join(parts)
    more = total - len(players) - int(page.get("offset") or 0)
    return line + (" " + tr("who.more", count=more) if more > 0 else "")
