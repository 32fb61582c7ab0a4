"""RULES.md, "End of the game" and "Players": totals, the end score, shared wins, 2 to 8 seats."""

from __future__ import annotations

import random

import pytest

from server.engine import Game, GamePhase, IllegalAction, InvalidSetup, Settings
from server.engine.events import Event, RoundStarted, TotalsUpdated

from .support import PLAIN, column, flip_all, make_deal, random_moves, reveal_turn, tableau

LOW = tableau(column(0, 1, 2), column(0, 1, 2), column(-1, 0, 1), column(-2, -1, 0))  # sums 3


def play_round_closed_by_0(game: Game) -> list[Event]:
    """Every seat turns up a card a turn; seat 0 (highest pair) closes first."""
    players = game.players
    flip_all(game, {0: (11, 10), **dict.fromkeys(range(1, players), (0, 1))})
    assert game.current_player == 0
    events: list[Event] = []
    for turn in range(10):
        for player in range(players):
            events += reveal_turn(game, player, turn if player == 0 else turn + 2)
            if game.phase is not GamePhase.PLAYING:
                return events
    raise AssertionError("the round should have ended")


def test_totals_add_each_round_and_the_game_goes_on_below_the_end_score() -> None:
    game = Game(2, Settings(end_score=200), deal=make_deal([PLAIN, LOW], 0))
    events = play_round_closed_by_0(game)
    assert game.round.final_scores == (156, 3)  # 78 doubled: not lowest
    assert events[-1] == TotalsUpdated(1, (156, 3), False, ())
    assert game.totals == (156, 3) and game.phase is GamePhase.BETWEEN_ROUNDS
    assert game.next_round(make_deal([PLAIN, LOW], 0)) == [RoundStarted(2, 0, 125)]
    play_round_closed_by_0(game)
    assert game.totals == (312, 6)
    assert game.phase is GamePhase.GAME_OVER and game.winners == (1,)


@pytest.mark.parametrize(("end_score", "over"), [(100, True), (156, True), (157, False)])
def test_the_game_ends_when_a_total_reaches_the_end_score(end_score: int, over: bool) -> None:
    game = Game(2, Settings(end_score=end_score), deal=make_deal([PLAIN, LOW], 0))
    play_round_closed_by_0(game)
    assert game.is_over is over
    assert game.winners == ((1,) if over else ())


def test_no_round_is_dealt_after_the_game_is_over() -> None:
    game = Game(2, Settings(), deal=make_deal([PLAIN, LOW], 0))
    play_round_closed_by_0(game)
    with pytest.raises(IllegalAction):
        game.next_round()
    assert game.legal_actions(0) == [] and game.legal_actions(1) == []


def test_the_next_round_waits_for_the_current_one_to_be_scored() -> None:
    game = Game(2, seed=1)
    with pytest.raises(IllegalAction):
        game.next_round()


def test_a_tie_for_the_lowest_total_shares_the_win() -> None:
    game = Game(3, Settings(), deal=make_deal([PLAIN, LOW, LOW], 0))
    events = play_round_closed_by_0(game)
    assert game.totals == (156, 3, 3)
    assert game.winners == (1, 2)
    assert events[-1] == TotalsUpdated(1, (156, 3, 3), True, (1, 2))


@pytest.mark.parametrize("players", [2, 8])
def test_a_whole_game_of_random_moves_ends_with_winners(players: int) -> None:
    game = Game(players, seed=f"whole/{players}")
    for _ in random_moves(game, random.Random(players)):
        pass
    assert game.is_over and max(game.totals) >= 100
    assert game.winners == tuple(p for p, t in enumerate(game.totals) if t == min(game.totals))


@pytest.mark.parametrize("players", [0, 1, 9])
def test_fewer_than_2_or_more_than_8_players_are_refused(players: int) -> None:
    with pytest.raises(InvalidSetup):
        Game(players)


@pytest.mark.parametrize("end_score", [9, 1001])
def test_an_end_score_outside_10_to_1000_is_refused(end_score: int) -> None:
    with pytest.raises(InvalidSetup):
        Settings(end_score=end_score)
    with pytest.raises(InvalidSetup):
        Settings().with_option("end-score", str(end_score))


def test_settings_round_trip_under_their_rules_names() -> None:
    settings = Settings.from_dict(
        {
            "starter": "closer-starts",
            "clear-columns": "off",
            "closer-penalty": "off",
            "end-score": 50,
        }
    )
    assert Settings.from_dict(settings.to_dict()) == settings
    assert settings.to_dict()["clear-columns"] == "off"
    with pytest.raises(InvalidSetup, match="unknown setting"):
        Settings.from_dict({"colour": "red"})


def test_the_same_seed_and_moves_give_the_same_game() -> None:
    records = []
    for _ in range(2):
        game = Game(3, seed="same")
        records.append(list(random_moves(game, random.Random(5))))
    assert records[0] == records[1]
