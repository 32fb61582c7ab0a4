"""Whole games between bots, played through the engine.

A bot gets exactly what a person in its seat would get: every public event
(``public_event``) as it happens, and its own ``view_for`` when it must act.
``skyjo-sim``, the bot benchmark, the tests and the server's tables all drive
bots through the helpers here.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from server.engine import Action, Event, Game, GamePhase, Settings, public_event, view_for
from server.engine.records import Seat, game_record

from . import make_bot
from .base import Bot


@dataclass(slots=True)
class MatchResult:
    """The outcome of one game, with how long each seat took to decide."""

    levels: tuple[str, ...]
    seed: int | str
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    round_scores: list[tuple[int, ...]]  # each round's final scores (after the penalty)
    decision_times: list[list[float]]  # per seat, the CPU seconds of each choose()
    game: Game  # the finished game (secret state: server-side only)
    record: dict[str, Any] | None = field(default=None)

    @property
    def rounds(self) -> int:
        return len(self.round_scores)


def seats_to_act(game: Game) -> list[int]:
    """Who must act now: every seat owing initial flips, else the current player."""
    if game.phase is not GamePhase.PLAYING:
        return []
    flippers = game.round.pending_flippers()
    if flippers:
        return flippers
    return [] if game.current_player is None else [game.current_player]


def tell_bots(bots: Sequence[Bot], events: Sequence[Event]) -> None:
    """Show every bot the events as the table sees them (no secret reshuffle order)."""
    public = [public_event(e) for e in events]
    for bot in bots:
        bot.observe(public)


def bot_move(bot: Bot, game: Game) -> Action:
    """Ask ``bot`` for its move from its own view only."""
    return bot.choose(view_for(game, bot.seat))


def make_bots(levels: Sequence[str], seed: int | str, settings: Settings) -> list[Bot]:
    """One bot per seat, each with its own seed derived from the game's."""
    return [make_bot(level, seat, f"{seed}/{seat}", settings) for seat, level in enumerate(levels)]


def play_game(
    levels: Sequence[str],
    settings: Settings = Settings(),
    seed: int | str = 0,
    *,
    record: bool = False,
) -> MatchResult:
    """Play one whole game between bots of ``levels`` (seat order) and return its outcome."""
    bots = make_bots(levels, seed, settings)
    game = Game(len(bots), settings, seed)
    times: list[list[float]] = [[] for _ in bots]
    scores: list[tuple[int, ...]] = []
    tell_bots(bots, [game.round.start_event()])
    while True:
        _play_round(game, bots, times)
        assert game.round.final_scores is not None
        scores.append(game.round.final_scores)
        if game.phase is GamePhase.GAME_OVER:
            break
        tell_bots(bots, game.next_round())
    return MatchResult(
        levels=tuple(levels),
        seed=seed,
        totals=game.totals,
        winners=game.winners,
        round_scores=scores,
        decision_times=times,
        game=game,
        record=_record_of(game, levels) if record else None,
    )


def _play_round(game: Game, bots: Sequence[Bot], times: list[list[float]]) -> None:
    while seats := seats_to_act(game):
        for seat in seats:
            started = time.process_time()
            action = bot_move(bots[seat], game)
            times[seat].append(time.process_time() - started)
            tell_bots(bots, game.apply(action))


def _record_of(game: Game, levels: Sequence[str]) -> dict[str, Any]:
    """The game's record (docs/records.md), each seat named after its bot."""
    seats = [Seat(f"{level} {seat + 1}", level) for seat, level in enumerate(levels)]
    return game_record(game, seats)
