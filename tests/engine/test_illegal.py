"""An illegal or out-of-turn action raises IllegalAction and changes nothing."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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


def test_a_plain_string_kind_or_no_action_at_all_is_an_illegal_action() -> None:
    game = Game(2, seed=3)
    before = snapshot(game)
    # "flip" equals ActionKind.FLIP, yet it is not the engine's kind: refused, with why.
    with pytest.raises(IllegalAction, match="kind is not an ActionKind"):
        game.apply(Action("flip", 0, 7))  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match=r"^None: not an Action$"):
        game.apply(None)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="not an Action"):
        game.round.check({"kind": "flip", "player": 0, "pos": 7})  # type: ignore[arg-type]
    assert snapshot(game) == before
    game.apply(Action.flip(0, 7))  # the same move, built by the engine, is played


def test_garbage_between_rounds_is_an_illegal_action() -> None:
    game = Game(2, Settings(end_score=1000), seed=9)
    moves = random_moves(game, random.Random(9))
    while game.phase is GamePhase.PLAYING:
        next(moves)
    before = snapshot(game)
    for garbage in (None, Action("draw", 0), Action(ActionKind.DRAW, None)):  # type: ignore[arg-type]
        with pytest.raises(IllegalAction, match="round is over"):
            game.apply(garbage)  # type: ignore[arg-type]
    assert snapshot(game) == before


#: Anything a careless caller might put in an action's fields.
anything = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 15),
    st.integers(),
    st.floats(allow_nan=True),
    st.text(max_size=12),
    st.sampled_from(ActionKind),
    st.sampled_from([kind.value for kind in ActionKind]),
    st.lists(st.integers(0, 11), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)
garbage_actions = st.one_of(
    anything,
    st.builds(Action, kind=anything, player=anything, pos=anything),
    st.builds(Action, kind=st.sampled_from(ActionKind), player=st.integers(-1, 8), pos=anything),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**16),
    moves=st.integers(0, 150),
    garbage=st.lists(garbage_actions, min_size=1, max_size=8),
)
def test_any_garbage_action_is_played_if_legal_else_refused_as_illegal_leaving_the_game_as_it_was(
    players: int, seed: int, moves: int, garbage: list[Any]
) -> None:
    game = Game(players, Settings(end_score=60), seed=seed)
    for _ in itertools.islice(random_moves(game, random.Random(seed)), moves):
        pass
    for action in garbage:
        legal = [a for seat in range(players) for a in game.legal_actions(seat)]
        before = snapshot(game)
        try:
            game.apply(action)
        except IllegalAction as refusal:
            assert str(refusal)  # a message saying what was refused and why
            assert snapshot(game) == before
        else:  # played: it was a legal move of the engine's own types
            assert type(action) is Action and type(action.kind) is ActionKind
            assert action in legal
