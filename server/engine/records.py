"""Game records: one JSON object per game, enough to re-check every rule.

``game_record`` writes a record from a ``Game`` and the seats the caller names
(people or bots); ``replay`` plays a record back through the engine, checks
that every move causes exactly the recorded events and that every score,
total and winner matches, and returns the rebuilt game. ``replay_steps`` is
the same replay one step at a time (each round's deal, then each move), for
those who show a game as it went. The format is documented in
docs/records.md; ``record_line``/``read_records`` keep one record per line of
a file.
"""

from __future__ import annotations

import json
from collections.abc import Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Action, ActionKind
from .deal import Deal
from .errors import EngineError, InvalidSetup, ReplayDivergence
from .events import Event, PileReshuffled, RoundScored, TotalsUpdated, TurnBegan
from .game import Game
from .movelog import PlayedMove, RoundLog, Standin
from .settings import Settings

FORMAT = "skyjo-record"
VERSION = 1


@dataclass(frozen=True, slots=True)
class Seat:
    """Who sat in a seat: a name, and the bot level when a bot played it."""

    name: str
    bot: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Seat:
        name, bot = data.get("name"), data.get("bot")
        if not isinstance(name, str) or not (bot is None or isinstance(bot, str)):
            raise InvalidSetup(f"a seat is a name and an optional bot level, got {data!r}")
        return cls(name, bot)


SeatLike = Seat | Mapping[str, Any] | str


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One step of a replayed game: the deal of a round, or one recorded move.

    ``game`` is the game just after the step. It is one object for the whole
    replay, changed in place by the next step: take what you need from it
    (``view_for(step.game, seat)``) before asking for the next step.
    ``events`` are the engine's own, secrets included (a reshuffle's order):
    pass them through ``public_event`` before showing them.
    """

    round: int  # 1-based
    move: int  # 0 for the deal, then 1, 2, ... per recorded action of the round
    action: Action | None  # None for the deal
    events: tuple[Event, ...]
    game: Game
    standin: Standin | None = None  # a bot chose this move for the person in the seat


def game_record(game: Game, seats: Sequence[SeatLike]) -> dict[str, Any]:
    """The record of ``game`` so far (finished or not), as plain JSON-ready data.

    ``seats`` names each seat in play order: a ``Seat``, a mapping with its
    fields, or just a name (a person's seat).
    """
    if len(seats) != game.players:
        raise InvalidSetup(f"{len(seats)} seats named for a game of {game.players} players")
    return {
        "format": FORMAT,
        "version": VERSION,
        "settings": game.settings.to_dict(),
        "seed": game.seed,
        "seats": [_seat(seat).to_dict() for seat in seats],
        "rounds": [
            _round_record(number, log, game.players)
            for number, log in enumerate(game.history, start=1)
        ],
        "totals": list(game.totals),
        "winners": list(game.winners),
        "finished": game.is_over,
    }


def replay(record: Mapping[str, Any]) -> Game:
    """Rebuild the game of ``record`` through the rules; raise ``ReplayDivergence``
    at the first move, score or field that the engine does not reproduce."""
    step: ReplayStep | None = None
    for step in replay_steps(record):  # noqa: B007 - the last step is the one wanted
        pass
    assert step is not None  # a valid record has at least the first deal
    return step.game


def replay_steps(record: Mapping[str, Any]) -> Iterator[ReplayStep]:
    """Play ``record`` back through the rules one step at a time.

    Yields the deal of each round, then each recorded move, with the game
    after it (see ``ReplayStep``). Each move is checked as it is played; once
    the last step is taken, the whole rebuilt record (scores, totals, winners,
    seats...) is compared with the given one. Raises ``ReplayDivergence`` at
    the first difference, so a consumer that goes to the end has checked the
    whole record, exactly as ``replay`` does.
    """
    if record.get("format") != FORMAT or record.get("version") != VERSION:
        raise ReplayDivergence(f"not a {FORMAT} version {VERSION} record")
    try:
        game = yield from _replay_moves(record)
        rebuilt = game_record(game, [Seat.from_dict(seat) for seat in record["seats"]])
    except ReplayDivergence:
        raise
    except (EngineError, KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        raise ReplayDivergence(f"not a valid record: {exc}") from exc
    difference = _first_difference(rebuilt, record, "record")
    if difference:
        raise ReplayDivergence(difference)


def record_line(record: Mapping[str, Any]) -> str:
    """One record as one line of JSON (no newline inside)."""
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False)


def read_records(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """The records of a file of one JSON object per line (blank lines skipped)."""
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InvalidSetup(f"line {number}: not JSON: {exc}") from exc
        if not isinstance(record, dict):
            raise InvalidSetup(f"line {number}: a record is a JSON object")
        yield record


# -- writing ------------------------------------------------------------------


def _seat(seat: SeatLike) -> Seat:
    if isinstance(seat, Seat):
        return seat
    if isinstance(seat, str):
        return Seat(seat)
    if isinstance(seat, Mapping):
        return Seat.from_dict(seat)
    raise InvalidSetup(f"a seat is a Seat, a mapping or a name, got {seat!r}")


def _round_record(number: int, log: RoundLog, players: int) -> dict[str, Any]:
    flips: list[list[int]] = [[] for _ in range(players)]
    for move in log.moves:
        if move.action.kind is ActionKind.FLIP:
            flips[move.action.player].append(move.action.pos)  # type: ignore[arg-type]
    events = [event for move in log.moves for event in move.events]
    record: dict[str, Any] = {
        "number": number,
        "deal": log.deal.to_dict(),
        "initial_flips": flips,
        "starter": next((e.player for e in events if isinstance(e, TurnBegan)), None),
        "moves": [_move_record(move) for move in log.moves],
    }
    for event in events:
        if isinstance(event, RoundScored):
            record["closer"] = event.closer
            record["raw_scores"] = list(event.raw_scores)
            record["final_scores"] = list(event.final_scores)
            record["closer_doubled"] = event.closer_doubled
        elif isinstance(event, TotalsUpdated):
            record["totals"] = list(event.totals)
    return record


def _move_record(move: PlayedMove) -> dict[str, Any]:
    """A move as the record has it: ``standin`` only on a move a bot chose for a person,
    so a game without stand-ins has the same record as before they were marked."""
    data = {"action": move.action.to_dict(), "events": [event.to_dict() for event in move.events]}
    if move.standin is not None:
        data["standin"] = move.standin.to_dict()
    return data


def without_standins(record: Mapping[str, Any]) -> dict[str, Any]:
    """``record`` as it was before stand-ins were marked: no move has a ``standin`` field.

    For readers written before the field existed: this project's own replay (until it
    knew the field) refuses a record with a field it does not rebuild."""
    rounds = [
        {
            **round_data,
            "moves": [
                {key: value for key, value in move.items() if key != "standin"}
                for move in round_data["moves"]
            ],
        }
        for round_data in record["rounds"]
    ]
    return {**record, "rounds": rounds}


# -- replaying ----------------------------------------------------------------


def _replay_moves(record: Mapping[str, Any]) -> Generator[ReplayStep, None, Game]:
    """Every step of ``record``, checked move by move; returns the game at the end."""
    rounds = record["rounds"]
    game = Game(
        len(record["seats"]),
        Settings.from_dict(record["settings"]),
        record["seed"],
        deal=Deal.from_dict(rounds[0]["deal"]),
    )
    for number, round_data in enumerate(rounds, start=1):
        if number == 1:
            dealt: list[Event] = [game.round.start_event()]
        else:
            dealt = game.next_round(Deal.from_dict(round_data["deal"]))
        yield ReplayStep(number, 0, None, tuple(dealt), game)
        for move_number, move in enumerate(round_data["moves"], start=1):
            where = f"round {number}, move {move_number}"
            standin = None if move.get("standin") is None else Standin.from_dict(move["standin"])
            action, events = _replay_move(game, move, standin, where)
            yield ReplayStep(number, move_number, action, tuple(events), game, standin)
    return game


def _replay_move(
    game: Game, move: Mapping[str, Any], standin: Standin | None, where: str
) -> tuple[Action, list[Event]]:
    """Apply one recorded action, with the recorded reshuffle order, and compare."""
    expected = move["events"]
    for event in expected:
        if event.get("type") == PileReshuffled.TYPE:
            game.round.force_next_reshuffles(event["order"])
    action = Action.from_dict(move["action"])
    try:
        events = game.apply(action, standin)
    except EngineError as exc:  # an illegal action, or a reshuffle of other cards
        raise ReplayDivergence(f"{where}: the engine refuses the recorded move: {exc}") from exc
    got = [event.to_dict() for event in events]
    difference = _first_difference(got, expected, "events")
    if difference:
        raise ReplayDivergence(f"{where} ({action}): {difference}")
    return action, events


def _first_difference(got: Any, expected: Any, path: str) -> str | None:
    """Where the engine's data and the record's first differ, said plainly."""
    if isinstance(got, dict) and isinstance(expected, dict):
        for key in sorted(got.keys() | expected.keys()):
            if key not in got or key not in expected:
                side = "the record lacks" if key not in expected else "the record has an extra"
                return f"{side} field {path}.{key}"
            found = _first_difference(got[key], expected[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(got, list) and isinstance(expected, list):
        for index, (mine, theirs) in enumerate(
            zip(got, expected, strict=False)
        ):  # lengths compared below
            found = _first_difference(mine, theirs, f"{path}[{index}]")
            if found:
                return found
        if len(got) != len(expected):
            return f"{path}: the engine gives {len(got)} items, the record {len(expected)}"
        return None
    if got != expected or type(got) is not type(expected):
        return f"{path}: the engine gives {got!r}, the record says {expected!r}"
    return None
