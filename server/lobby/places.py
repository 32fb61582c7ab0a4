"""Who is connected, and where each player is: the lobby's one record of both.

A player is *online* through one connection (a ``Session``) and may have a
*place* at one table: a seat there, or watching it. A place outlives the
connection: a player who drops keeps it (away) and is put back in it when
they log in again. Nothing else keeps these facts: a session's table and
seat number, a seat's connection, who is away and since when, a table's
audience and its watchers are all answered from here. The seat *number* is
not kept either: it is wherever the player's ``Seat`` is in ``Table.seats``
now, so seats may close up (a game starts, a rematch) under anyone.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .session import Session
    from .table import Table


@dataclass(slots=True)
class Place:
    """Where one player is: at ``table``, seated or watching; connected or away."""

    player_id: int
    table: Table
    watching: bool
    away_since: float | None = None  # monotonic time the connection dropped; None while online
    standin: bool = False  # a bot plays for them: away past the grace time

    def reset_presence(self) -> None:
        self.away_since, self.standin = None, False


class Places:
    def __init__(self) -> None:
        self._online: dict[int, Session] = {}  # player id -> their connection
        self._places: dict[int, Place] = {}  # player id -> their place
        # The same places, by table: a table's audience without looking at everyone.
        self._by_table: dict[str, dict[int, Place]] = {}
        # Told whenever someone comes, goes or changes place (who is here follows it).
        self.on_change: Callable[[], None] = lambda: None

    # -- connections -------------------------------------------------------------

    def session_of(self, player_id: int) -> Session | None:
        return self._online.get(player_id)

    def online(self) -> Iterator[Session]:
        """Every online player's connection (one each)."""
        return iter(self._online.values())

    def is_online(self, player_id: int) -> bool:
        return player_id in self._online

    def current(self, session: Session) -> bool:
        """Whether ``session`` is its player's connection (not one replaced by a newer one)."""
        return session.player_id is not None and self._online.get(session.player_id) is session

    def come_online(self, session: Session) -> tuple[Session | None, Place | None]:
        """``session`` is now its player's connection: the one it replaced, and their place."""
        assert session.player_id is not None
        older = self._online.get(session.player_id)
        self._online[session.player_id] = session
        self.on_change()
        place = self._places.get(session.player_id)
        if place is not None:
            place.reset_presence()
        return (None if older is session else older), place

    def go_offline(self, session: Session) -> Place | None:
        """``session`` ended (or stopped being this player): their place, now away, if any."""
        if not self.current(session):
            return None
        assert session.player_id is not None
        del self._online[session.player_id]
        self.on_change()
        place = self._places.get(session.player_id)
        if place is not None:
            place.away_since, place.standin = time.monotonic(), False
        return place

    # -- places --------------------------------------------------------------------

    def place_of(self, session: Session) -> Place | None:
        """The place of ``session``'s player, if ``session`` is their connection."""
        if not self.current(session):
            return None
        assert session.player_id is not None
        return self._places.get(session.player_id)

    def table_of(self, session: Session) -> Table | None:
        place = self.place_of(session)
        return None if place is None else place.table

    def seat_of(self, session: Session) -> int | None:
        """``session``'s seat number at its table now (None: watching or not at a table)."""
        place = self.place_of(session)
        if place is None or place.watching:
            return None
        assert session.player_id is not None
        return place.table.seat_of(session.player_id)

    def in_lobby(self, session: Session) -> bool:
        """Named, connected and not at a table: hears lobby chat and table-list pushes."""
        return (
            session.welcomed
            and not session.closed
            and self.current(session)
            and self.place_of(session) is None
        )

    def online_sessions(self) -> Iterator[Session]:
        """Every player's connection now (welcomed: a player is online once named)."""
        return (s for s in self._online.values() if s.welcomed and not s.closed)

    def lobby_sessions(self) -> Iterator[Session]:
        return (s for s in self._online.values() if self.in_lobby(s))

    def held(self) -> set[int]:
        """Every player online or holding a place (seated or watching, even away)."""
        return set(self._online) | set(self._places)

    def where(self, player_id: int) -> Place | None:
        """The place a player holds, connected or not."""
        return self._places.get(player_id)

    def put(self, player_id: int, table: Table, *, watching: bool) -> Place:
        """``player_id`` sits at (or watches) ``table`` from now on, leaving any other place."""
        self.remove(player_id)
        place = Place(player_id, table, watching)
        if player_id not in self._online:
            place.away_since = time.monotonic()  # restored after a restart: away until they return
        self._places[player_id] = place
        self._by_table.setdefault(table.id, {})[player_id] = place
        self.on_change()
        return place

    def remove(self, player_id: int, table: Table | None = None) -> Place | None:
        """``player_id`` leaves their place (only if it is at ``table``, when given)."""
        place = self._places.get(player_id)
        if place is None or (table is not None and place.table is not table):
            return None
        del self._places[player_id]
        at_table = self._by_table[place.table.id]
        del at_table[player_id]
        if not at_table:
            del self._by_table[place.table.id]
        self.on_change()
        return place

    def at(self, table: Table) -> list[Place]:
        """Everyone whose place is at ``table``, connected or away."""
        return list(self._by_table.get(table.id, {}).values())

    def clear(self, table: Table) -> list[Place]:
        """Everyone leaves ``table`` (it closes): their places, as they were."""
        places = self.at(table)
        for place in places:
            self.remove(place.player_id)
        return places
