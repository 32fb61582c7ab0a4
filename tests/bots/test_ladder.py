"""The ladder's new levels: casual's human mistakes, master's search, both whole games."""

from __future__ import annotations

import random

import pytest

from server.bots import BOT_LEVELS, make_bot
from server.bots.casual import DISCARD_MEMORY
from server.bots.match import bot_move, make_bots, play_game, seats_to_act, tell_bots
from server.bots.simulation import copy_round, determinize, play_until_turn_of, rollout_policy
from server.engine import Action, ActionKind, Game, GamePhase, Settings, view_for

from .tables import crafted_game, play
from .test_play import VARIANTS


def test_the_ladder_runs_from_random_to_master() -> None:
    assert list(BOT_LEVELS) == ["random", "greedy", "casual", "expert", "master"]
    assert all(cls.description.strip() for cls in BOT_LEVELS.values())


@pytest.mark.parametrize("settings", VARIANTS, ids=lambda s: str(s.to_dict()))
def test_casual_and_master_play_whole_games_in_every_variant(settings: Settings) -> None:
    result = play_game(["master", "casual", "expert"], settings, seed=7)
    assert max(result.totals) >= settings.end_score
    assert all(len(times) > 0 for times in result.decision_times)


@pytest.mark.parametrize("lineup", [["master", "casual"], ["casual", "master", "greedy", "expert"]])
def test_casual_and_master_replay_exactly_from_their_seed(lineup: list[str]) -> None:
    first = play_game(lineup, Settings(end_score=40), seed=21)
    again = play_game(lineup, Settings(end_score=40), seed=21)
    assert first.game.to_dict() == again.game.to_dict()


def test_casual_forgets_a_discard_it_saw_long_ago() -> None:
    """Eight 12s go onto the discard pile: the expert still counts them all as gone,
    casual remembers only the last few of them."""
    twelves = 8  # the first discard, then one thrown away every turn
    game, events = crafted_game(
        2, {0: {0: 1, 4: 2}, 1: {0: 1, 4: 2}}, discard=12, pile_top=[12] * twelves
    )
    casual, expert = make_bot("casual", 0), make_bot("expert", 0)
    bots = [casual, expert]
    play(game, bots, events)
    for turn in range(twelves - 1):
        player = game.current_player
        assert player is not None
        played = game.apply(Action.draw(player))
        played += game.apply(Action.discard_and_flip(player, 6 + turn // 2))
        play(game, bots, played)
    assert game.round.discard.count(12) == twelves
    view = view_for(game, 0)
    unseen_twelves = 10 - twelves  # the deck has ten 12s
    assert expert.counter.unseen(view)[-1] == unseen_twelves  # type: ignore[attr-defined]
    forgotten = twelves - DISCARD_MEMORY
    assert casual.counter.unseen(view)[-1] > unseen_twelves  # type: ignore[attr-defined]
    assert casual.counter.unseen(view)[-1] == unseen_twelves + forgotten  # type: ignore[attr-defined]


def test_casual_now_and_then_misses_a_column_of_three() -> None:
    """Two 7s in a column and a 7 on the discard: the expert always takes it;
    casual mostly does, but on some deals it does not see the column."""
    taken = 0
    seeds = range(40)
    for seed in seeds:
        game, events = crafted_game(2, {0: {0: 7, 1: 7}, 1: {0: 1, 4: 2}}, discard=7, pile_top=[5])
        casual = make_bot("casual", 0, seed)
        play(game, [casual], events)
        taken += bot_move(casual, game) == Action.take_discard(0, 2)
    assert len(seeds) // 2 < taken < len(seeds)


def test_master_completes_a_column_of_three_when_offered() -> None:
    game, events = crafted_game(2, {0: {0: 7, 1: 7}, 1: {0: 1, 4: 2}}, discard=7, pile_top=[5])
    master = make_bot("master", 0)
    play(game, [master], events)
    assert bot_move(master, game) == Action.take_discard(0, 2)


def test_master_does_not_hand_the_next_player_their_column() -> None:
    # Seat 1 shows two 10s in a column and plays first; then seat 0 draws a 10.
    shown = {0: {0: 5, 4: 4}, 1: {0: 10, 1: 10}}
    game, events = crafted_game(2, shown, discard=6, pile_top=[6, 10])
    master = make_bot("master", 0)
    play(game, [master], events, Action.draw(1), Action.discard_and_flip(1, 6))
    play(game, [master], [], Action.draw(0))
    assert game.round.drawn == 10
    assert bot_move(master, game).kind is ActionKind.SWAP_DRAWN


def test_a_determinized_round_agrees_with_the_view_it_was_built_from() -> None:
    """Master's imagined deals keep every card it has seen where it saw it, and the
    engine plays them out to a scored end."""
    game = Game(2, Settings(), seed=4)
    bots = make_bots(["master", "expert"], 4, Settings())
    tell_bots(bots, [game.round.start_event()])
    checked = 0
    while game.phase is GamePhase.PLAYING and checked < 30:
        for seat in seats_to_act(game):
            view = view_for(game, seat)
            if seat == 0 and view.phase in ("choose", "drawn"):
                master = bots[0]
                deal = determinize(view, master.counter, Settings(), random.Random(checked))  # type: ignore[attr-defined]
                assert [
                    tuple(v if up else None for v, up in zip(cards, ups, strict=True))
                    for cards, ups in zip(deal.cards, deal.face_up, strict=True)
                ] == [_shown(t.cards, t.removed_columns) for t in view.tableaux]
                assert (deal.discard_top, len(deal.pile)) == (view.discard_top, view.pile_size)
                assert deal.legal_actions(0) == list(view.legal_actions)
                played = copy_round(deal)
                play_until_turn_of(played, None, rollout_policy)
                assert played.final_scores is not None and len(played.final_scores) == 2
                checked += 1
            tell_bots(bots, game.apply(bot_move(bots[seat], game)))
    assert checked >= 15  # the first round gave that many of master's turns to check


def _shown(cards: tuple[int | None, ...], removed: tuple[int, ...]) -> tuple[int | None, ...]:
    """A view's cards as a determinized round shows them (a removed column's slots read 0)."""
    return tuple(0 if p // 3 in removed else c for p, c in enumerate(cards))
