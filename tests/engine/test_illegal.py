"""An illegal or out-of-turn action raises IllegalAction and changes nothing."""

from __future__ import annotations

import random

import pytest

from server.engine import Action, ActionKind, Game, GamePhase, IllegalAction, Settings

from .support import acting_seat, every_action, random_moves, snapshot


def states_of_a_game(seed: int, players: int, every: int) -> list[Game]:
    """Copies of a random game at every ``every``-th move (rebuilt from plain data)."""
    game = Game(players, seed=seed)
    states = []
    for count, _ in enumerate(random_moves(game, random.Random(seed), draw_bias=0.5)):
        if count % every == 0 and game.phase is GamePhase.PLAYING:
            states.append(Game.from_dict(game.to_dict()))
    return states


@pytest.mark.parametrize("players", [2, 3])
def test_every_action_outside_the_legal_list_is_refused_and_changes_nothing(players: int) -> None:
    universe = every_action(players)
    for game in states_of_a_game(players, players, every=17):
        legal = {action for seat in range(players) for action in game.legal_actions(seat)}
        before = snapshot(game)
        for action in universe:
            if action in legal:
                continue
            with pytest.raises(IllegalAction):
                game.apply(action)
        assert snapshot(game) == before


def test_legal_actions_are_exactly_the_actions_the_round_accepts() -> None:
    for game in states_of_a_game(4, 4, every=5):
        for action in every_action(4):
            assert game.round.is_legal(action) == (action in game.legal_actions(action.player))


def test_out_of_turn_moves_are_refused_with_a_reason() -> None:
    game = Game(2, seed=3)
    for player in (0, 1):
        for pos in (0, 1):
            game.apply(Action.flip(player, pos))
    other = 1 - acting_seat(game)
    with pytest.raises(IllegalAction, match="not your turn"):
        game.apply(Action.draw(other))
    with pytest.raises(IllegalAction, match="no such seat"):
        game.apply(Action.draw(2))


@pytest.mark.parametrize(
    "action",
    [
        Action(ActionKind.DRAW, 0, 3),  # a draw takes no position
        Action(ActionKind.TAKE_DISCARD, 0, None),
        Action(ActionKind.TAKE_DISCARD, 0, 12),
        Action(ActionKind.TAKE_DISCARD, 0, -1),
        Action(ActionKind.TAKE_DISCARD, 0, "3"),  # type: ignore[arg-type]
        Action(ActionKind.DRAW, "0"),  # type: ignore[arg-type]
        Action(ActionKind.DRAW, -1),
    ],
)
def test_malformed_actions_are_illegal_not_crashes(action: Action) -> None:
    game = Game(2, seed=3)
    for player in (0, 1):
        for pos in (0, 1):
            game.apply(Action.flip(player, pos))
    before = snapshot(game)
    with pytest.raises(IllegalAction):
        game.apply(action)
    assert snapshot(game) == before


def test_no_move_is_accepted_between_rounds() -> None:
    game = Game(2, Settings(end_score=1000), seed=9)
    moves = random_moves(game, random.Random(9))
    while game.phase is GamePhase.PLAYING:
        next(moves)
    assert game.phase is GamePhase.BETWEEN_ROUNDS
    before = snapshot(game)
    with pytest.raises(IllegalAction, match="round is over"):
        game.apply(Action.draw(0))
    assert snapshot(game) == before
