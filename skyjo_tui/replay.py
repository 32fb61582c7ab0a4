"""A recorded game as a list of frames to step through (forward, back, by round).

The engine plays the record again one step at a time (``replay_steps``),
checking every move as it goes and the scores at the end; a tampered or
foreign record is refused with the engine's reason. After each step the
public view is kept, so moving back and forth costs nothing, and so are the
face-down cards' values (the record holds every deal): a finished game's
replay may show them, a game still in play never.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from server.engine import (
    Event,
    Game,
    InvalidSetup,
    PlayerView,
    public_event,
    read_records,
    view_for,
)
from server.engine.cards import ROWS, TABLEAU_SIZE
from server.engine.movelog import Standin
from server.engine.records import replay_steps
from server.engine.views import TableauView, ViewPhase
from server.printable import printable

from .names import SeatInfo


class ReplayError(Exception):
    """The file cannot be replayed; the message says why, in plain words."""


@dataclass(frozen=True, slots=True)
class Frame:
    round: int  # 1-based
    move: int  # 0 for the deal, then 1.. per recorded action
    events: tuple[Event, ...]
    view: PlayerView
    hidden: tuple[tuple[int | None, ...], ...] = ()  # per seat, the face-down cards' values
    player: int | None = None  # the seat that moved (None for the deal)
    standin: Standin | None = None  # a bot chose this move for that seat's person

    def revealed(self) -> tuple[PlayerView, dict[int, frozenset[int]]]:
        """The view with every face-down card turned up, and (per seat) which were down."""
        tableaux, down = [], {}
        for seat, (tableau, hidden) in enumerate(zip(self.view.tableaux, self.hidden, strict=True)):
            down[seat] = frozenset(pos for pos, value in enumerate(hidden) if value is not None)
            pairs = zip(tableau.cards, hidden, strict=True)
            cards = tuple(value if value is not None else card for card, value in pairs)
            tableaux.append(TableauView(cards, tableau.removed_columns, tableau.visible_score))
        return replace(self.view, tableaux=tuple(tableaux)), down


@dataclass(frozen=True, slots=True)
class Recording:
    seats: tuple[SeatInfo, ...]
    frames: tuple[Frame, ...]  # frames[i] is the game after the record's step i
    settings: Mapping[str, Any]
    record: Mapping[str, Any]  # the record itself, for its review
    # Dealt from a seed its host chose (the server says so beside the record; a record
    # alone does not): not rated, not counted.
    seeded: bool = False

    def person_seat(self, name: str | None) -> int:
        """The seat to review: ``name``'s, else the first person's, else the first seat."""
        named = [i for i, seat in enumerate(self.seats) if name is not None and seat.name == name]
        people = [i for i, seat in enumerate(self.seats) if seat.bot is None]
        return (named or people or [0])[0]

    @property
    def finished(self) -> bool:
        """The game was played to its end: only then may its hidden cards be shown."""
        return bool(self.frames) and self.frames[-1].view.phase is ViewPhase.GAME_OVER

    def standin_begins(self, index: int) -> bool:
        """Frame ``index`` is a stand-in's move, and the move before it was not the same
        bot's for the same seat: where the log says a bot plays for that person."""
        frame = self.frames[index]
        if frame.standin is None:
            return False
        before = self.frames[index - 1] if index else None
        return before is None or (before.player, before.standin) != (frame.player, frame.standin)

    def round_starts(self) -> list[int]:
        """The frame index where each round begins."""
        return [i for i, frame in enumerate(self.frames) if frame.move == 0]


def load_file(path: Path) -> list[Recording]:
    """Every game of a records file (one JSON object per line)."""
    try:
        with path.open(encoding="utf-8") as lines:
            records = [printable(record) for record in read_records(lines)]  # someone's file
    except OSError as exc:
        raise ReplayError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except (InvalidSetup, UnicodeDecodeError) as exc:
        raise ReplayError(f"{path} is not a file of game records: {exc}") from exc
    if not records:
        raise ReplayError(f"{path} holds no game record")
    return [recording(record) for record in records]


def recording(record: Mapping[str, Any], *, seeded: bool = False) -> Recording:
    """The public view after every step of ``record``, checked by the engine;
    ``seeded``: as the server's ``game_record`` reply says."""
    try:
        frames = tuple(
            Frame(
                step.round,
                step.move,
                tuple(public_event(e) for e in step.events),
                view_for(step.game, None),
                face_down(step.game),
                None if step.action is None else step.action.player,
                step.standin,
            )
            for step in replay_steps(record)
        )
    except InvalidSetup as exc:  # ReplayDivergence included
        raise ReplayError(str(exc)) from exc
    return Recording(record_seats(record), frames, dict(record["settings"]), record, seeded)


def record_request(game_id: int) -> dict[str, Any]:
    """The ``game_record`` request for a stored game: with the moves a bot chose for a
    person marked (docs/protocol.md), for the review and the replay to say so."""
    return {"type": "game_record", "game_id": game_id, "standins": True}


def record_seats(record: Mapping[str, Any]) -> tuple[SeatInfo, ...]:
    """Who sat at each seat of ``record``, as its seats say."""
    return tuple(SeatInfo(str(seat["name"]), seat.get("bot")) for seat in record["seats"])


def face_down(game: Game) -> tuple[tuple[int | None, ...], ...]:
    """Per seat, the value of each face-down card still in play (None elsewhere)."""
    round_ = game.round
    return tuple(
        tuple(
            round_.cards[seat][pos]
            if not round_.face_up[seat][pos] and not round_.removed[seat][pos // ROWS]
            else None
            for pos in range(TABLEAU_SIZE)
        )
        for seat in range(game.players)
    )
