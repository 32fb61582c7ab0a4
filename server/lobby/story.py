"""A table's story: what everyone at the table was told during its game, in order.

The moves (each ``game`` push's public events, with its ``standin``), who came, went or
was away (the table's people as each ``table`` push showed them), and the table's chat:
a client that arrives (comes to watch, comes back after a drop or after quitting) is
given the story and tells it as those who stayed were told it, in the same order.

It begins with a table's first game (with the chat said before it, which a player reads
before the moves) and goes on through its rematches, as those who stay read them (each
``table`` entry names the game's players, ``game_seats``: a rematch's may differ); it is
kept in memory, in at most ``STORY_BYTES``: the oldest part goes first.
Pure (no I/O): the table feeds it what it pushes, when it pushes it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Container, Iterable, Mapping
from typing import Any

from ..protocol import encode_frame

#: The story's budget, in encoded bytes: a move is about 140 bytes a line of the log it
#: makes, so a little more than the 200 lines a client's log keeps (``LineLog``).
STORY_BYTES = 32 * 1024
#: What a seat of a ``table`` push says of who is here (``skyjo_tui.presence`` reads these).
PRESENCE_FIELDS = ("seat", "kind", "name", "player_id", "connected", "left", "autoplay")

Entry = dict[str, Any]


def people(table: Mapping[str, Any]) -> Entry:
    """Who is at the table, from its wire map: each seat's presence, who watches, who asked
    for a rematch (``autoplay_in`` too, as it was told, though it changes by itself), who
    plays the game (``game_seats``: the moves that follow are theirs)."""
    seats = [
        None
        if seat is None
        else {
            **{key: seat.get(key) for key in PRESENCE_FIELDS},
            "autoplay_in": seat.get("autoplay_in"),
        }
        for seat in table.get("seats") or []
    ]
    return {
        "kind": "table",
        "seats": seats,
        "watchers": list(table.get("watchers") or []),
        "rematch": list(table.get("rematch") or []),
        "game_seats": table.get("game_seats"),
    }


def _same_people(one: Entry, other: Entry) -> bool:
    """Nothing anyone is told differs: ``autoplay_in`` counts down by itself."""

    def told(entry: Entry) -> tuple[Any, ...]:
        seats = tuple(
            None if s is None else tuple(s.get(k) for k in PRESENCE_FIELDS) for s in entry["seats"]
        )
        return seats, tuple(entry["watchers"]), tuple(entry["rematch"]), entry["game_seats"]

    return told(one) == told(other)


class Story:
    """The entries of a table's story, oldest first, within ``max_bytes``.

    Entries (docs/protocol.md, ``log`` in the ``table`` push):
    ``{"kind": "table", "seats", "watchers", "rematch", "removed"?}`` (who is here),
    ``{"kind": "game", "events", "standin"?}`` (a move or a new round) and
    ``{"kind": "chat", "chat": line}`` (a line of the table's chat).
    """

    def __init__(self, max_bytes: int = STORY_BYTES) -> None:
        self.max_bytes = max_bytes
        self._entries: deque[tuple[Entry, int]] = deque()
        self._bytes = 0
        self._people: Entry | None = None  # the latest ``table`` entry, kept or dropped
        self._base: tuple[Entry, int] | None = None  # the latest dropped one, and its size
        self.begun = False

    def begin(self, table: Mapping[str, Any], chat: Iterable[Entry]) -> None:
        """The table's first game begins (or the one in play, after a restart): the story
        so far is forgotten, and starts with who is at the table and what was said before
        the game."""
        self._entries.clear()
        self._bytes = 0
        self._people = self._base = None
        self.begun = True
        self.seen(table)
        for line in chat:
            self.said(line)

    def dealt(self, table: Mapping[str, Any], chat: Iterable[Entry]) -> None:
        """A game begins: the first one begins the story (``chat``: what was said before
        it); a rematch goes on with it (its chat is in it already), from its players
        (``game_seats``)."""
        if self.begun:
            self.seen(table)
        else:
            self.begin(table, chat)

    def seen(self, table: Mapping[str, Any], removed: Mapping[str, Any] | None = None) -> None:
        """The table as a ``table`` push shows it: kept when who is here changed."""
        entry = people(table)
        if removed is not None:
            entry["removed"] = dict(removed)
        elif self._people is not None and _same_people(self._people, entry):
            return
        self._people = entry
        self._add(entry)

    def played(self, events: list[Entry], standin: Mapping[str, Any] | None) -> None:
        """A ``game`` push: its public events and, when a bot chose the move, ``standin``."""
        entry: Entry = {"kind": "game", "events": events}
        if standin is not None:
            entry["standin"] = dict(standin)
        self._add(entry)

    def said(self, line: Entry) -> None:
        """A line of the table's chat, as it was pushed."""
        self._add({"kind": "chat", "chat": line})

    def told(self, muted: Container[int]) -> list[Entry]:
        """The story as one person may read it: not the lines of those they muted."""
        return [
            entry
            for entry, _ in self._entries
            if entry["kind"] != "chat" or entry["chat"].get("from_id") not in muted
        ]

    def _add(self, entry: Entry) -> None:
        if not self.begun:
            return  # no game yet: the room says who is here, and its chat is sent on its own
        size = len(encode_frame(entry))
        self._entries.append((entry, size))
        self._bytes += size
        while self._bytes > self.max_bytes and len(self._entries) > 1:
            old, old_size = self._entries.popleft()
            self._bytes -= old_size
            if old["kind"] == "table":
                self._base = (old, old_size)
        if self._base is not None and self._entries[0][0]["kind"] != "table":
            # The story still begins with who was there: a reader tells what changed from it.
            self._entries.appendleft(self._base)
            self._bytes += self._base[1]
