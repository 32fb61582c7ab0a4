"""A game-aware master plays its last turn for the game, not the round: the scoreboard decides."""

from __future__ import annotations

from collections import Counter

from server.bots.expert import ExpertBot
from server.bots.master import MasterBot
from server.bots.standing import win_chance
from server.engine import DECK, Action, Game, Round, Settings, view_for
from server.engine.position import Phase, Position

HIDDEN = 11  # our one face-down card
# Our eleven face-up cards show 4 points; the card under position 11 is dealt at random.
OURS = (-2, 0, 1, -1, 2, 0, 1, -1, 3, 1, 0)
# The closer's twelve cards, all face up: 3 points.
CLOSER = (0, 1, -1, 0, 2, -2, 1, 0, -1, 2, 1, 0)
DRAWN = 6


def _last_turn(totals: tuple[int, int]) -> Game:
    """Seat 1 has closed with 3 points; seat 0 holds a drawn 6 on its last turn, with
    4 points face up and one card face down: keeping the 6 there scores 10 for sure,
    turning the card up scores 4 and whatever it shows (about 9 on average)."""
    rest = Counter(DECK)
    rest.subtract([*OURS, *CLOSER, DRAWN, 5])
    pile = tuple(sorted(rest.elements()))
    position = Position(
        tableaux=((*OURS, pile[0]), CLOSER),
        face_up=((True,) * 11 + (False,), (True,) * 12),
        removed_columns=((), ()),
        discard=(5,),
        pile=pile[1:],
        phase=Phase.DRAWN,
        current=0,
        drawn=DRAWN,
        closer=1,
    )
    game = Game(2, Settings(), seed=0)
    game.round = Round.from_position(position, game.settings)
    game.totals = totals
    return game


def _choice(bot: ExpertBot, game: Game) -> Action:
    return bot.choose(view_for(game, 0))


def _game_aware_master() -> MasterBot:
    master = MasterBot(0, seed=1)
    master.game_aware = True
    return master


def test_ahead_of_nobody_at_the_end_master_will_not_gamble_the_game_on_its_last_card() -> None:
    """88 against 95: turning the card up (the cheaper in points, the expert's move)
    ends the game with us over 100 whenever it shows 8 or more, and loses it; keeping
    the 6 leaves us level at 98 and the game goes on."""
    game = _last_turn((88, 95))
    assert _choice(ExpertBot(0, seed=1), game) == Action.discard_and_flip(0, HIDDEN)
    assert _choice(MasterBot(0, seed=1), game) == Action.discard_and_flip(0, HIDDEN)  # by points
    assert _choice(_game_aware_master(), game) == Action.swap_drawn(0, HIDDEN)


def test_far_from_the_end_master_plays_the_same_last_card_for_points() -> None:
    game = _last_turn((10, 12))
    assert _choice(_game_aware_master(), game) == Action.discard_and_flip(0, HIDDEN)


def test_the_chance_to_win_is_the_games_outcome_when_the_round_ends_it() -> None:
    settings = Settings()
    assert win_chance((88, 95), (12, 3), 0, settings) == 0.0  # 100 against 98
    assert win_chance((88, 95), (12, 5), 0, settings) == 1.0  # 100 against 100: shared
    assert 0.0 < win_chance((88, 95), (10, 3), 0, settings) < 1.0  # 98 against 98: on
    level = win_chance((88, 95), (10, 3), 0, Settings(end_score=200))
    assert 0.0 < level < win_chance((88, 95), (5, 3), 0, Settings(end_score=200)) < 1.0
