"""A table: its seats, its people, its status, and how it is described on the wire.

The game itself (the engine's ``Game``, the bots, the timers) lives in
``play.TablePlay``; this module is the table as the lobby sees it. A table is
built whole: given the lobby's ``Places`` and the maker of its ``TablePlay``, it
has both from its first line on. Its status is not kept: it follows from its game
(``status_of``).
"""

from __future__ import annotations

import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..engine import Game, GamePhase, Settings
from ..protocol import IN_GAME, TablePush, TableStatus, encode_frame
from ..ratings import bot_subject, player_subject
from .story import Story

if TYPE_CHECKING:
    from .places import Place, Places
    from .play import TablePlay
    from .session import Session

HUMAN, BOT = "human", "bot"
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ"  # no I or O: codes are read aloud and typed
#: A table's chat lines kept (in the store, across restarts), and sent to whoever
#: arrives at the table: sits down, watches, or comes back.
CHAT_HISTORY = 50


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))


_STATUS_OF_PHASE = {
    GamePhase.PLAYING: TableStatus.PLAYING,
    GamePhase.BETWEEN_ROUNDS: TableStatus.BETWEEN_ROUNDS,
    GamePhase.GAME_OVER: TableStatus.FINISHED,
}


def status_of(game: Game | None) -> TableStatus:
    """A table's status, from its game (None: none dealt yet): the game's phase is the
    one record of where it stands, the status only says it in the lobby's words."""
    return TableStatus.WAITING if game is None else _STATUS_OF_PHASE[game.phase]


@dataclass(slots=True)
class Seat:
    kind: str  # HUMAN or BOT
    name: str
    player_id: int | None = None  # people only
    level: str | None = None  # bots only
    left: bool = False  # the person left (or was kicked) during a game: a bot finishes it
    ready: bool = False
    rematch: bool = False

    @property
    def is_person(self) -> bool:
        """A person still in this seat (not a bot, not someone who left)."""
        return self.kind == HUMAN and not self.left

    @property
    def rating_subject(self) -> str | None:
        """Whose rating this seat's result moves (``server.ratings``): its person's,
        or its bot level's; None for a person who left (a bot finished for them)."""
        if self.is_person and self.player_id is not None:
            return player_subject(self.player_id)
        if self.kind == BOT and self.level is not None:
            return bot_subject(self.level)
        return None

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


@dataclass(frozen=True, slots=True)
class GameSeat:
    """Who sat in one seat of a game, fixed when it was dealt: the game's own roster.

    A game's player number is the index of its ``GameSeat`` in ``Table.game_seats``,
    whoever sits in the table's seat of that number now: the table's seats change
    once a game is over (someone leaves, someone new sits down for the rematch), the
    game's do not. Every name shown for a game, and its stored record, come from here.
    """

    kind: str  # HUMAN or BOT
    name: str
    player_id: int | None = None  # people only
    level: str | None = None  # bots only

    @classmethod
    def of(cls, seat: Seat) -> GameSeat:
        return cls(seat.kind, seat.name, seat.player_id, seat.level)

    def to_wire(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "player_id": self.player_id,
            "level": self.level,
        }

    @classmethod
    def from_meta(cls, data: dict[str, Any]) -> GameSeat:
        return cls(data["kind"], data["name"], data.get("player_id"), data.get("level"))


@dataclass(frozen=True, slots=True)
class Removal:
    """The host (``by``) removed the person ``name`` (``player_id``) from their seat: the
    table is told so in the ``table`` push of that change, and only there."""

    player_id: int
    name: str
    by: int

    def to_wire(self) -> dict[str, Any]:
        return {"player_id": self.player_id, "name": self.name, "by": self.by}


class Table:
    def __init__(
        self,
        table_id: str,
        name: str,
        capacity: int,
        settings: Settings,
        *,
        places: Places,
        play: Callable[[Table], TablePlay],
        private: bool = False,
        turn_timer: int | None = None,
        code: str | None = None,
        seed: int | None = None,
        hints: bool = True,
    ) -> None:
        self.id = table_id
        self.name = name
        self.capacity = capacity
        self.settings = settings
        self.private = private
        self.turn_timer = turn_timer
        self.hints = hints  # the coach answers ``hint`` requests here (the host's choice)
        self.code = code or new_code()
        # Chosen by the host of a private table: its games are dealt from it (see
        # ``game_seed``), to compare players deal for deal; they are not rated.
        self.seed = seed
        self.seats: list[Seat | None] = [None] * capacity
        self.host_id: int | None = None
        self.game_id: int | None = None  # the last finished game, once stored
        # Who sat where in the game in play or last played (``GameSeat``); empty before one.
        self.game_seats: list[GameSeat] = []
        # Everyone who sat or watched here during the current (or last) game: of a
        # private table, the only ones who see it once it is stored.
        self.audience: set[int] = set()
        self.games_played = 0
        self.created = time.time()
        # The stored chat's latest lines, oldest first (chat.py keeps both in step).
        self.chat: deque[dict[str, Any]] = deque(maxlen=CHAT_HISTORY)
        # What everyone here was told during the game, in order, for whoever arrives.
        self.story = Story()
        self.places = places  # the lobby's record of who is where
        self.play = play(self)  # last: it may look at the table it plays

    @property
    def status(self) -> TableStatus:
        return status_of(self.play.game)

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

    def seat_in_game(self, player_id: int) -> int | None:
        """The player number ``player_id`` has in the game in play or last played (None: they
        did not play it). The same as their seat number while a game is on; once it is over,
        only the game's roster knows it (see ``GameSeat``)."""
        return next(
            (i for i, seat in enumerate(self.game_seats) if seat.player_id == player_id), None
        )

    # -- who is here (all derived from the lobby's places) ---------------------------

    def place_at(self, index: int) -> Place | None:
        """The place of the person in seat ``index`` (None for a bot or an empty seat)."""
        seat = self.seats[index]
        if seat is None or not seat.is_person or seat.player_id is None:
            return None
        place = self.places.where(seat.player_id)
        if place is None or place.table is not self or place.watching:
            return None
        return place

    def session_at(self, index: int) -> Session | None:
        """The connection of the person in seat ``index``, while they are connected."""
        place = self.place_at(index)
        return None if place is None else self.places.session_of(place.player_id)

    def plays_itself(self, index: int) -> bool:
        """A bot decides this seat's moves: a bot seat, someone who left, or a stand-in."""
        seat = self.seats[index]
        assert seat is not None
        place = self.place_at(index)
        return not seat.is_person or (place is not None and place.standin)

    def watchers(self) -> list[Place]:
        """Everyone watching, connected or away (they come back to watching)."""
        return [p for p in self.places.at(self) if p.watching]

    def spectators(self) -> list[Session]:
        """The watchers connected now."""
        sessions = (self.places.session_of(p.player_id) for p in self.watchers())
        return [s for s in sessions if s is not None]

    def sessions(self) -> list[Session]:
        """Everyone who receives this table's pushes: people seated here, then watchers."""
        seated = (self.session_at(i) for i, _ in self.filled())
        return [s for s in seated if s is not None] + self.spectators()

    def see_the_game(self) -> None:
        """Everyone at the table now has seen (part of) the game in play."""
        self.audience.update(place.player_id for place in self.places.at(self))

    def anyone_here(self) -> bool:
        return bool(self.sessions())

    def pass_host(self) -> None:
        """The host is the first person seated, if the current one is gone."""
        people = self.people()
        if not any(s.player_id == self.host_id for s in people):
            self.host_id = people[0].player_id if people else None

    def compact(self) -> None:
        """Close up empty seats: seat numbers become the game's player numbers."""
        taken = [s for s in self.seats if s is not None]
        self.seats = taken + [None] * (self.capacity - len(taken))

    def game_seed(self, number: int) -> int | None:
        """The seed of the table's game ``number`` (1: its first): the table's seed,
        then the next number for each rematch (as ``skyjo-sim --seed`` seeds a
        series); None at a table without a seed."""
        return None if self.seed is None else self.seed + number - 1

    def bot_name(self, level: str) -> str:
        """A new bot's name: its level and the lowest number no bot at the table has.

        Numbers are counted over every level, not per level, so that each bot's number
        is its own ("Casual bot 1", "Expert bot 2", "Casual bot 3"): a local game's
        set-up names its rows Bot 1, Bot 2, ..., and two bots of a table never share
        a number a person might mention."""
        names = {s.name for _, s in self.filled()}
        numbers = {s.name.rpartition(" ")[2] for _, s in self.filled() if s.kind == BOT}
        number = 1
        while str(number) in numbers or f"{level.capitalize()} bot {number}" in names:
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
            "spectators": len(self.spectators()),
            "settings": self.settings.to_dict(),
            "turn_timer": self.turn_timer,
            "hints": self.hints,
        }

    def seat_to_wire(self, index: int, seat: Seat) -> dict[str, Any]:
        place = self.place_at(index)
        connected = seat.kind == BOT or (place is not None and place.away_since is None)
        return {
            "seat": index,
            "kind": seat.kind,
            "name": seat.name,
            "player_id": seat.player_id,
            "level": seat.level,
            "host": seat.is_person and seat.player_id == self.host_id,
            "connected": connected,
            "left": seat.left,
            "ready": seat.ready or seat.kind == BOT,
            "autoplay": seat.kind == HUMAN and self.plays_itself(index),
            "autoplay_in": self.play.standin_in(place),
            "rating": self._rating(seat),
        }

    def _rating(self, seat: Seat) -> int | None:
        """The seat's rating as shown (None: no rated game yet, or a person who left)."""
        subject = seat.rating_subject
        rating = None if subject is None else self.play.store.rating_of(subject)
        return None if rating is None else rating.shown

    def to_wire(self, your_seat: int | None) -> dict[str, Any]:
        play = self.play
        return {
            **self.summary(),
            "code": self.code,
            "private": self.private,
            "seeded": self.seed is not None,
            "seats": [
                None if s is None else self.seat_to_wire(i, s) for i, s in enumerate(self.seats)
            ],
            "host_id": self.host_id,
            "your_seat": your_seat,
            "watchers": sorted(
                (s.name for s in self.spectators() if s.name is not None), key=str.casefold
            ),
            "round": play.round_number(),
            "next_round_in": play.next_round_in()
            if self.status == TableStatus.BETWEEN_ROUNDS
            else None,
            "rematch": [i for i, s in self.filled() if s.rematch]
            if self.status == TableStatus.FINISHED
            else [],
            "game_id": self.game_id,
            "game_seats": [s.to_wire() for s in self.game_seats] if play.game is not None else None,
        }

    def wire_for(self, session: Session) -> dict[str, Any]:
        """The table as ``session`` sees it (with their own seat)."""
        return self.to_wire(self.places.seat_of(session))

    def push_table(self, removed: Removal | None = None, arrived: Session | None = None) -> None:
        """Tell everyone at the table how it looks now (each with their own seat), and,
        when this change is the host removing someone, who was removed and by whom.

        Whoever just ``arrived`` is also sent the table's chat so far, and the story of its
        game (nobody else: they heard it); the story tells this change too."""
        news = None if removed is None else removed.to_wire()
        table = self.to_wire(None)
        self.story.seen(table, news)
        for session in self.sessions():
            seen = {**table, "your_seat": self.places.seat_of(session)}
            push = TablePush(seen, removed=news)
            if session is arrived:
                told = self.story.told(session.muted) if self.story.begun else None
                push = TablePush(seen, news, self.chat_for(session), told)
            session.send(push.to_wire())

    def chat_for(self, session: Session) -> list[dict[str, Any]]:
        """The table's chat so far as ``session`` may hear it: not the lines of those it muted."""
        return [line for line in self.chat if line["from_id"] not in session.muted]

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
            "seed": self.seed,
            "hints": self.hints,
            "host_id": self.host_id,
            # Derived, and stored all the same: the restore asks whether the finished game
            # was stored (``TablePlay.restore``), and older servers read it.
            "status": self.status,
            "seats": [None if s is None else s.to_meta() for s in self.seats],
            "watchers": sorted(p.player_id for p in self.watchers()),
            "audience": sorted(self.audience),
            "game_id": self.game_id,
            "game_seats": [s.to_wire() for s in self.game_seats],
            "games_played": self.games_played,
            "created": self.created,
        }

    @classmethod
    def from_meta(
        cls,
        table_id: str,
        meta: dict[str, Any],
        *,
        places: Places,
        play: Callable[[Table], TablePlay],
    ) -> Table:
        """The table as stored (its game is brought back by ``TablePlay.restore``)."""
        table = cls(
            table_id,
            meta["name"],
            meta["capacity"],
            Settings.from_dict(meta["settings"]),
            places=places,
            play=play,
            private=meta["private"],
            turn_timer=meta["turn_timer"],
            code=meta["code"],
            seed=meta.get("seed"),
            hints=meta.get("hints", True),
        )
        table.seats = [None if s is None else Seat.from_meta(s) for s in meta["seats"]]
        table.host_id = meta["host_id"]
        table.game_id = meta.get("game_id")
        if "game_seats" in meta:
            table.game_seats = [GameSeat.from_meta(s) for s in meta["game_seats"]]
        elif meta["status"] != TableStatus.WAITING:
            # Stored before tables kept their game's roster: the seats, as they are (right
            # unless someone left the finished game, which such a server did not keep).
            table.game_seats = [GameSeat.of(s) for _, s in table.filled()]
        table.audience = set(meta.get("audience", []))
        table.games_played = meta.get("games_played", 0)
        table.created = meta.get("created", table.created)
        return table


__all__ = [
    "BOT",
    "CHAT_HISTORY",
    "HUMAN",
    "IN_GAME",
    "GameSeat",
    "Removal",
    "Seat",
    "Table",
    "new_code",
    "status_of",
]
