"""Bots make the moves a player would expect in plain situations."""

from __future__ import annotations

from server.bots import make_bot
from server.bots.match import bot_move
from server.engine import Action, ActionKind

from .tables import crafted_game, play


def test_greedy_takes_an_obviously_good_discard() -> None:
    # Seat 0 shows a 12 and a 9; a -2 on the discard replaces the 12.
    game, events = crafted_game(2, {0: {0: 12, 4: 9}, 1: {0: 1, 4: 2}}, discard=-2, pile_top=[5])
    bot = make_bot("greedy", 0)
    play(game, [bot], events)
    assert game.current_player == 0
    assert bot_move(bot, game) == Action.take_discard(0, 0)


def test_greedy_leaves_an_obviously_bad_discard() -> None:
    game, events = crafted_game(2, {0: {0: 3, 4: 2}, 1: {0: 1, 4: 0}}, discard=12, pile_top=[5])
    bot = make_bot("greedy", 0)
    play(game, [bot], events)
    assert bot_move(bot, game) == Action.draw(0)


def test_bots_complete_a_column_of_three_when_offered() -> None:
    # Seat 0 shows two 7s in its first column; the discard is the third.
    for level in ("greedy", "expert"):
        game, events = crafted_game(2, {0: {0: 7, 1: 7}, 1: {0: 1, 4: 2}}, discard=7, pile_top=[5])
        bot = make_bot(level, 0)
        play(game, [bot], events)
        action = bot_move(bot, game)
        assert action == Action.take_discard(0, 2), level
        assert any(e.TYPE == "column_removed" for e in game.apply(action))


def test_expert_does_not_hand_the_next_player_their_column() -> None:
    # Seat 1 shows two 10s in a column and plays first; then seat 0 draws a 10.
    shown = {0: {0: 5, 4: 4}, 1: {0: 10, 1: 10}}
    game, events = crafted_game(2, shown, discard=6, pile_top=[6, 10])
    expert, greedy = make_bot("expert", 0), make_bot("greedy", 0)
    play(game, [expert, greedy], events, Action.draw(1), Action.discard_and_flip(1, 6))
    play(game, [expert, greedy], [], Action.draw(0))
    assert game.round.drawn == 10
    # Greedy, seeing no use for a 10, throws it away: right onto seat 1's column.
    assert bot_move(greedy, game).kind is ActionKind.DISCARD_AND_FLIP
    assert bot_move(expert, game).kind is ActionKind.SWAP_DRAWN
