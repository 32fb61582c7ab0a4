"""A recorded game as a list of frames to step through (forward, back, by round).

The record is first checked whole by the engine's ``replay`` (a tampered or
foreign record is refused with the engine's reason); then the engine plays it
again one recorded action at a time to take the public view after each one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from server.engine import (
    Action,
    Deal,
    Event,
    Game,
    InvalidSetup,
    PlayerView,
    Settings,
    public_event,
    read_records,
    replay,
    view_for,
)
from server.engine.events import PileReshuffled

from .presenter import SeatInfo


class ReplayError(Exception):
    """The file cannot be replayed; the message says why, in plain words."""


@dataclass(frozen=True, slots=True)
class Frame:
    round: int  # 1-based
    move: int  # 0 for the deal, then 1.. per recorded action
    events: tuple[Event, ...]
    view: PlayerView


@dataclass(frozen=True, slots=True)
class Recording:
    seats: tuple[SeatInfo, ...]
    frames: tuple[Frame, ...]
    settings: Mapping[str, Any]

    def round_starts(self) -> list[int]:
        """The frame index where each round begins."""
        return [i for i, frame in enumerate(self.frames) if frame.move == 0]


def load_file(path: Path) -> list[Recording]:
    """Every game of a records file (one JSON object per line)."""
    try:
        with path.open(encoding="utf-8") as lines:
            records = list(read_records(lines))
    except OSError as exc:
        raise ReplayError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except (InvalidSetup, UnicodeDecodeError) as exc:
        raise ReplayError(f"{path} is not a file of game records: {exc}") from exc
    if not records:
        raise ReplayError(f"{path} holds no game record")
    return [recording(record) for record in records]


def recording(record: Mapping[str, Any]) -> Recording:
    """Check ``record`` with the engine, then take a frame after every action."""
    try:
        replay(record)  # refuses, with the reason, anything the rules do not reproduce
        frames = tuple(_frames(record))
    except InvalidSetup as exc:
        raise ReplayError(str(exc)) from exc
    seats = tuple(SeatInfo(str(seat["name"]), seat.get("bot")) for seat in record["seats"])
    return Recording(seats, frames, dict(record["settings"]))


def _frames(record: Mapping[str, Any]) -> list[Frame]:
    rounds: Sequence[Mapping[str, Any]] = record["rounds"]
    game = Game(
        len(record["seats"]),
        Settings.from_dict(record["settings"]),
        record["seed"],
        deal=Deal.from_dict(rounds[0]["deal"]),
    )
    frames: list[Frame] = []
    for number, round_data in enumerate(rounds, 1):
        start = game.round.start_event() if number == 1 else game.next_round(Deal.from_dict(round_data["deal"]))[0]
        frames.append(Frame(number, 0, (start,), view_for(game, None)))
        for index, move in enumerate(round_data["moves"], 1):
            for event in move["events"]:
                if event.get("type") == PileReshuffled.TYPE:
                    game.round.force_next_reshuffles(event["order"])
            events = game.apply(Action.from_dict(move["action"]))
            public = tuple(public_event(e) for e in events)
            frames.append(Frame(number, index, public, view_for(game, None)))
    return frames
