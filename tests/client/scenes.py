"""Real tables for the client's tests: games played by the engine and its bots.

The table screen is fed exactly what a server sends (``game`` pushes built
from ``view_for`` and ``public_event``), so snapshots show real positions
without a server, deterministically (seeded games, no clock).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from server.bots import make_bot
from server.bots.match import bot_move, play_game, seats_to_act, tell_bots
from server.engine import Game, GamePhase, Settings, public_event, view_for

NAMES = ("Alice", "Bruno", "Chloé", "Dmitri", "Emma", "Farid", "Gaëlle", "Hugo")


def table_map(
    players: int,
    your_seat: int | None = 0,
    status: str = "playing",
    *,
    server_bot_names: bool = False,
) -> dict[str, Any]:
    """A table as the server describes it: seat 0 a person, the others bots (greedy),
    named like people, or (``server_bot_names``) as the server names bots: "Greedy bot 2"."""
    seats = [
        {
            "seat": seat,
            "kind": "human" if seat == 0 else "bot",
            "name": f"Greedy bot {seat}" if server_bot_names and seat else NAMES[seat],
            "player_id": 1 if seat == 0 else None,
            "level": None if seat == 0 else "greedy",
            "host": seat == 0,
            "connected": True,
            "ready": True,
            "autoplay": False,
        }
        for seat in range(players)
    ]
    return {
        "table_id": "t1",
        "name": "Test table",
        "code": "ABCDEF",
        "private": False,
        "status": status,
        "seats": seats,
        "host_id": 1,
        "settings": Settings().to_dict(),
        "turn_timer": None,
        "spectators": 0,
        "your_seat": your_seat,
        "round": 1,
        "next_round_in": None,
        "rematch": [],
        "game_id": None,
    }


def finished_game(players: int, seed: int, settings: Settings | None = None) -> Game:
    """A whole game between greedy bots, as the engine played it."""
    return play_game(["greedy"] * players, settings or Settings(), seed).game


def game_pushes(
    players: int,
    seed: int,
    until: Callable[[Game, int], bool],
    *,
    viewer: int | None = 0,
    settings: Settings | None = None,
) -> list[dict[str, Any]]:
    """The ``game`` pushes ``viewer`` receives from the deal until ``until(game, moves)``."""
    settings = settings or Settings()
    game = Game(players, settings, seed)
    bots = [make_bot("greedy", seat, seed, settings) for seat in range(players)]
    pushes = [_push(game, [game.round.start_event()], viewer, 0)]
    moves = 0
    while not until(game, moves) and game.phase is not GamePhase.GAME_OVER:
        if game.phase is GamePhase.BETWEEN_ROUNDS:
            events = game.next_round()
        else:
            events = game.apply(bot_move(bots[seats_to_act(game)[0]], game))
        tell_bots(bots, events)
        moves += 1
        pushes.append(_push(game, [public_event(e) for e in events], viewer, moves))
    return pushes


def _push(game: Game, events: list[Any], viewer: int | None, seq: int) -> dict[str, Any]:
    return {
        "type": "game",
        "table_id": "t1",
        "seq": seq,
        "events": [e.to_dict() for e in events],
        "view": view_for(game, viewer).to_dict(),
        "timer": None,
    }


def moves(count: int) -> Callable[[Game, int], bool]:
    return lambda game, played: played >= count


def round_over(game: Game, played: int) -> bool:
    return game.phase is not GamePhase.PLAYING
