"""A recorded game as a list of frames to step through (forward, back, by round).

The engine plays the record again one step at a time (``replay_steps``),
checking every move as it goes and the scores at the end; a tampered or
foreign record is refused with the engine's reason. After each step the
public view is kept, so moving back and forth costs nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from server.engine import Event, InvalidSetup, PlayerView, public_event, read_records, view_for
from server.engine.records import replay_steps

from .names import SeatInfo


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
    """The public view after every step of ``record``, checked by the engine."""
    try:
        frames = tuple(
            Frame(step.round, step.move, tuple(public_event(e) for e in step.events), view_for(step.game, None))
            for step in replay_steps(record)
        )
    except InvalidSetup as exc:  # ReplayDivergence included
        raise ReplayError(str(exc)) from exc
    seats = tuple(SeatInfo(str(seat["name"]), seat.get("bot")) for seat in record["seats"])
    return Recording(seats, frames, dict(record["settings"]))
