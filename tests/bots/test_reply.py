"""Master's two-player reply search sees a simulated round as a player sees the real one."""

from __future__ import annotations

from dataclasses import replace

from server.bots.match import bot_move, make_bots, seats_to_act, tell_bots
from server.bots.reply import public_view
from server.bots.simulation import copy_round
from server.engine import Game, GamePhase, Settings, view_for
from server.engine.position import Phase


def test_a_simulated_rounds_public_view_is_what_the_player_to_move_is_shown() -> None:
    """At every turn's start of a real two-player game, the reply search's view of the
    round (and of a copy of it, as the search plays on) is the engine's view for the
    player to move, but for what a round does not hold (the totals, the legal moves)."""
    settings = Settings(end_score=60)
    game = Game(2, settings, seed=11)
    bots = make_bots(["expert", "expert"], 11, settings)
    tell_bots(bots, [game.round.start_event()])
    compared = 0
    for _ in range(2000):
        if game.phase is GamePhase.GAME_OVER:
            break
        if game.phase is GamePhase.BETWEEN_ROUNDS:
            tell_bots(bots, game.next_round())
        round_ = game.round
        if round_.phase is Phase.CHOOSE:
            seat = round_.current
            assert seat is not None
            shown = replace(view_for(game, seat), totals=(0, 0), legal_actions=())
            assert public_view(round_, seat) == shown
            assert public_view(copy_round(round_), seat) == shown
            compared += 1
        for seat in seats_to_act(game):
            tell_bots(bots, game.apply(bot_move(bots[seat], game)))
    assert game.phase is GamePhase.GAME_OVER
    assert compared > 40
