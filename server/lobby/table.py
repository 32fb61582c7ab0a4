"""A table: its seats, its people, its status, and how it is described on the wire.

The game itself (the engine's ``Game``, the bots, the timers) lives in
``play.TablePlay``; this module is the table as the lobby sees it.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..engine import Settings
from ..protocol import BETWEEN_ROUNDS, FINISHED, PLAYING, WAITING, encode_frame

if TYPE_CHECKING:
    from .play import TablePlay
    from .session import Session

HUMAN, BOT = "human", "bot"
IN_GAME = frozenset({PLAYING, BETWEEN_ROUNDS})
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ"  # no I or O: codes are read aloud and typed


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))


@dataclass(slots=True)
class Seat:
    kind: str  # HUMAN or BOT
    name: str
    player_id: int | None = None  # people only
    level: str | None = None  # bots only
    left: bool = False  # the person left (or was kicked) during a game: a bot finishes it
    ready: bool = False
    rematch: bool = False
    autoplay: bool = False  # a bot plays for the person (away past the grace time)
    away_since: float | None = None  # monotonic time the person's connection dropped
    session: Session | None = field(default=None, repr=False)

    @property
    def is_person(self) -> bool:
        """A person still in this seat (not a bot, not someone who left)."""
        return self.kind == HUMAN and not self.left

    @property
    def here(self) -> bool:
        """A person connected and in the seat."""
        return self.is_person and self.session is not None

    @property
    def plays_itself(self) -> bool:
        """A bot decides this seat's moves: a bot seat, someone who left, or autoplay."""
        return self.kind == BOT or self.left or self.autoplay

    def to_wire(self, index: int, host_id: int | None) -> dict[str, Any]:
        return {
            "seat": index,
            "kind": self.kind,
            "name": self.name,
            "player_id": self.player_id,
            "level": self.level,
            "host": self.player_id is not None and self.player_id == host_id and not self.left,
            "connected": self.kind == BOT or self.session is not None,
            "ready": self.ready or self.kind == BOT,
            "autoplay": self.kind == HUMAN and (self.left or self.autoplay),
        }

    def to_meta(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "player_id": self.player_id,
            "level": self.level,
            "left": self.left,
            "ready": self.ready,
            "rematch": self.rematch,
        }

    @classmethod
    def from_meta(cls, data: dict[str, Any]) -> Seat:
        return cls(
            kind=data["kind"],
            name=data["name"],
            player_id=data.get("player_id"),
            level=data.get("level"),
            left=bool(data.get("left")),
            ready=bool(data.get("ready")),
            rematch=bool(data.get("rematch")),
        )


class Table:
    def __init__(
        self,
        table_id: str,
        name: str,
        capacity: int,
        settings: Settings,
        *,
        private: bool = False,
        turn_timer: int | None = None,
        code: str | None = None,
    ) -> None:
        self.id = table_id
        self.name = name
        self.capacity = capacity
        self.settings = settings
        self.private = private
        self.turn_timer = turn_timer
        self.code = code or new_code()
        self.seats: list[Seat | None] = [None] * capacity
        self.host_id: int | None = None
        self.status = WAITING
        self.spectators: set[Session] = set()
        self.watcher_ids: set[int] = set()  # players watching, connected or not (they come back)
        self.game_id: int | None = None  # the last finished game, once stored
        self.games_played = 0
        self.created = time.time()
        self.play: TablePlay  # set by the lobby right after construction

    def __repr__(self) -> str:
        return f"<Table {self.id} {self.name!r} {self.status}>"

    # -- seats ---------------------------------------------------------------------

    def filled(self) -> list[tuple[int, Seat]]:
        return [(i, s) for i, s in enumerate(self.seats) if s is not None]

    def free_seat(self) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s is None), None)

    def seat_of(self, player_id: int) -> int | None:
        for index, seat in self.filled():
            if seat.player_id == player_id and seat.is_person:
                return index
        return None

    def people(self) -> list[Seat]:
        return [s for _, s in self.filled() if s.is_person]

    def sessions(self) -> list[Session]:
        """Everyone who receives this table's pushes: people seated here, then watchers."""
        seated = [s.session for s in self.people() if s.session is not None]
        return seated + list(self.spectators)

    def anyone_here(self) -> bool:
        return bool(self.spectators) or any(s.here for s in self.people())

    def pass_host(self) -> None:
        """The host is the first person seated, if the current one is gone."""
        people = self.people()
        if not any(s.player_id == self.host_id for s in people):
            self.host_id = people[0].player_id if people else None

    def compact(self) -> None:
        """Close up empty seats: seat numbers become the game's player numbers."""
        taken = [s for s in self.seats if s is not None]
        self.seats = taken + [None] * (self.capacity - len(taken))

    def bot_name(self, level: str) -> str:
        names = {s.name for _, s in self.filled()}
        number = 1
        while f"{level.capitalize()} bot {number}" in names:
            number += 1
        return f"{level.capitalize()} bot {number}"

    # -- on the wire ---------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        return {
            "table_id": self.id,
            "name": self.name,
            "seats_taken": len(self.filled()),
            "seats_total": self.capacity,
            "status": self.status,
            "spectators": len(self.spectators),
            "settings": self.settings.to_dict(),
            "turn_timer": self.turn_timer,
        }

    def to_wire(self, your_seat: int | None) -> dict[str, Any]:
        play = self.play
        return {
            **self.summary(),
            "code": self.code,
            "private": self.private,
            "seats": [
                None if s is None else s.to_wire(i, self.host_id) for i, s in enumerate(self.seats)
            ],
            "host_id": self.host_id,
            "your_seat": your_seat,
            "round": play.round_number(),
            "next_round_in": play.next_round_in() if self.status == BETWEEN_ROUNDS else None,
            "rematch": [i for i, s in self.filled() if s.rematch]
            if self.status == FINISHED
            else [],
            "game_id": self.game_id,
        }

    def push_table(self) -> None:
        """Tell everyone at the table how it looks now (each with their own seat)."""
        for session in self.sessions():
            session.send({"type": "table", "table": self.to_wire(session.seat)})

    def push_all(self, message: dict[str, Any]) -> None:
        """The same message to everyone at the table, encoded once."""
        data = encode_frame(message)
        for session in self.sessions():
            session.send_frame(data)

    # -- persistence ---------------------------------------------------------------

    def to_meta(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "code": self.code,
            "private": self.private,
            "capacity": self.capacity,
            "settings": self.settings.to_dict(),
            "turn_timer": self.turn_timer,
            "host_id": self.host_id,
            "status": self.status,
            "seats": [None if s is None else s.to_meta() for s in self.seats],
            "watchers": sorted(self.watcher_ids),
            "game_id": self.game_id,
            "games_played": self.games_played,
            "created": self.created,
        }

    @classmethod
    def from_meta(cls, table_id: str, meta: dict[str, Any]) -> Table:
        table = cls(
            table_id,
            meta["name"],
            meta["capacity"],
            Settings.from_dict(meta["settings"]),
            private=meta["private"],
            turn_timer=meta["turn_timer"],
            code=meta["code"],
        )
        table.seats = [None if s is None else Seat.from_meta(s) for s in meta["seats"]]
        table.host_id = meta["host_id"]
        table.status = meta["status"]
        table.game_id = meta.get("game_id")
        table.watcher_ids = set(meta.get("watchers", []))
        table.games_played = meta.get("games_played", 0)
        table.created = meta.get("created", table.created)
        return table


__all__ = ["BOT", "HUMAN", "IN_GAME", "Seat", "Table", "new_code"]
