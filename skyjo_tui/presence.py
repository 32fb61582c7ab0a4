"""Who is at the table, in words: players sitting down, watchers coming and going,
players away and back, and who asks for a rematch.

Pure (no Textual): from two successive table maps of the server (the seats'
``connected``, ``autoplay`` and ``autoplay_in``, the table's ``watchers`` and
``rematch``) and what the server's push said of them (``removed``: whom the host
removed; a seat that empties looks the same either way), the lines a person is
told ("Bob is away: a bot plays for them in 60 s", "Bob left the game: a bot plays
for them to its end").
Seats are matched by player, not by number: seats close up when a game starts.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from .i18n import Translator

Table = Mapping[str, Any]


def watchers(table: Table) -> list[str]:
    return [str(name) for name in table.get("watchers") or []]


def watchers_line(table: Table, tr: Translator) -> str:
    """ "Watching: Carol and Dan", or "" when nobody watches."""
    names = watchers(table)
    return tr("presence.watching", names=tr.join_names(names)) if names else ""


def _people(table: Table) -> dict[int, Mapping[str, Any]]:
    seats = table.get("seats") or []
    return {
        seat["player_id"]: seat
        for seat in seats
        if seat is not None and seat.get("kind") == "human" and seat.get("player_id") is not None
    }


def presence_news(
    before: Table | None,
    after: Table,
    tr: Translator,
    removed: Mapping[str, Any] | None = None,
    me: int | None = None,
) -> list[str]:
    """What changed in who is here between ``before`` and ``after`` (None: just arrived).

    ``removed`` is the server's word, in the push of ``after``, that the host removed
    someone (``{player_id, name, by}``); ``me`` is our player id, to tell the host apart
    (and not to tell us that we sat down)."""
    if before is None:
        line = watchers_line(after, tr)
        return [line] if line else []
    lines: list[str] = []
    earlier = _people(before)
    gone = removed.get("player_id") if removed is not None else None
    for player_id, seat in _people(after).items():
        was = earlier.get(player_id)
        name = str(seat.get("name", ""))
        if was is None:  # sat down: for the first time here, not "back" (we know we did)
            if player_id != me and not seat.get("left"):
                lines.append(tr("presence.joined", who=name))
            continue
        if player_id == gone:  # removed mid-game: not away, not coming back
            continue
        if seat.get("left"):  # gone for good: not "away", and not "back" later
            if not was.get("left"):
                lines.append(tr("presence.left", who=name))
        elif was.get("connected", True) and not seat.get("connected", True):
            wait = seat.get("autoplay_in")
            if wait is None:
                lines.append(tr("presence.away", who=name))
            else:
                lines.append(tr("presence.away_standin", who=name, seconds=math.ceil(wait)))
        elif not was.get("autoplay") and seat.get("autoplay") and not seat.get("connected", True):
            lines.append(tr("presence.standin", who=name))
        elif not was.get("connected", True) and seat.get("connected", True):
            lines.append(tr("presence.back", who=name))
    old, new = watchers(before), watchers(after)
    lines += [tr("presence.watcher_came", who=name) for name in new if name not in old]
    lines += [tr("presence.watcher_left", who=name) for name in old if name not in new]
    return lines + removal_news(removed, me, tr) + rematch_news(before, after, tr)


def removal_news(removed: Mapping[str, Any] | None, me: int | None, tr: Translator) -> list[str]:
    """Whom the host removed, as the server said: "You removed Bob" to the host, "The host
    removed Bob" to everyone else at the table (the removed player is told on their own)."""
    if not isinstance(removed, Mapping):
        return []
    ours = me is not None and removed.get("by") == me
    return [
        tr(
            "presence.removed" if ours else "presence.host_removed",
            who=str(removed.get("name", "")),
        )
    ]


def rematch_news(before: Table, after: Table, tr: Translator) -> list[str]:
    """Who asked for a rematch since ``before``: not we ourselves, whose screen says so.

    ``rematch`` lists seat numbers; seats stay where they are until the next game starts."""
    seats = after.get("seats") or []
    asked = set(before.get("rematch") or [])
    return [
        tr("presence.rematch", who=str(seats[index].get("name", "")))
        for index in after.get("rematch") or []
        if index not in asked
        and index != after.get("your_seat")
        and index < len(seats)
        and seats[index] is not None
    ]
