"""Whole games between bots: legal moves only, in every variant; determinism; no peeking."""

from __future__ import annotations

import random

import pytest

from server.bots import BOT_LEVELS, make_bot
from server.bots.match import bot_move, make_bots, play_game, seats_to_act, tell_bots
from server.engine import Deal, Game, GamePhase, Settings, view_for

VARIANTS = [
    Settings(end_score=40),
    Settings.from_dict({"starter": "closer-starts", "end-score": 40}),
    Settings.from_dict({"clear-columns": "off", "end-score": 40}),
    Settings.from_dict({"closer-penalty": "off", "end-score": 40}),
]
LINEUPS = [
    ["expert", "greedy"],
    ["greedy", "random", "expert"],
    ["expert", "expert", "greedy", "random", "greedy"],
    ["expert"] * 4 + ["greedy"] * 4,
    ["expert"] * 3,
]


@pytest.mark.parametrize("settings", VARIANTS, ids=lambda s: str(s.to_dict()))
def test_bots_only_choose_legal_moves(settings: Settings) -> None:
    for number, levels in enumerate(LINEUPS):
        game = Game(len(levels), settings, seed=number)
        bots = make_bots(levels, number, settings)
        tell_bots(bots, [game.round.start_event()])
        moves = 0
        while game.phase is not GamePhase.GAME_OVER and moves < 20_000:
            if game.phase is GamePhase.BETWEEN_ROUNDS:
                tell_bots(bots, game.next_round())
            for seat in seats_to_act(game):
                view_actions = game.legal_actions(seat)
                action = bot_move(bots[seat], game)
                assert action in view_actions, (levels[seat], action)
                tell_bots(bots, game.apply(action))
                moves += 1
        assert game.phase is GamePhase.GAME_OVER


def test_a_game_replays_exactly_from_its_seed() -> None:
    levels = ["expert", "greedy", "random"]
    first = play_game(levels, Settings(end_score=60), seed=11)
    again = play_game(levels, Settings(end_score=60), seed=11)
    assert first.game.to_dict() == again.game.to_dict()
    assert (first.totals, first.winners) == (again.totals, again.winners)
    other = play_game(levels, Settings(end_score=60), seed=12)
    assert other.game.to_dict() != first.game.to_dict()


def test_a_finished_game_reports_scores_and_winners() -> None:
    result = play_game(["expert", "greedy"], Settings(end_score=50), seed=3)
    assert max(result.totals) >= 50
    lowest = min(result.totals)
    assert result.winners == tuple(p for p, t in enumerate(result.totals) if t == lowest)
    assert tuple(map(sum, zip(*result.round_scores, strict=True))) == result.totals
    assert all(len(times) > 0 for times in result.decision_times)


@pytest.mark.parametrize("level", sorted(BOT_LEVELS))
def test_bots_choose_the_same_whatever_the_hidden_cards(level: str) -> None:
    """Two deals that differ only in cards still unseen halfway through the round:
    the bots must make the same moves up to there, move by move."""
    for seed in range(3):
        game = Game(2, Settings(), seed)
        moves, hidden, drawn = _first_half(game, level, seed)
        twin_deal = _shuffle_unseen(game.round.deal, hidden, drawn, seed)
        assert twin_deal != game.round.deal
        twin = Game.from_dict(
            {
                "players": 2,
                "settings": Settings().to_dict(),
                "seed": seed,
                "rounds": [{"deal": twin_deal.to_dict(), "actions": []}],
            }
        )
        twin_moves, _, _ = _first_half(twin, level, seed, len(moves))
        assert len(moves) >= 10
        assert twin_moves == moves


def _first_half(
    game: Game, level: str, seed: int, stop: int | None = None
) -> tuple[list[str], list[tuple[int, int]], int]:
    """Play round 1 of a copy of ``game`` until ``stop`` moves (default: half the
    round, at a turn's start); return the moves, the places of the face-down
    cards then, and how many cards had been drawn."""
    copy = Game.from_dict(game.to_dict())
    bots = [make_bot(level, seat, seed) for seat in range(2)]
    tell_bots(bots, [copy.round.start_event()])
    played: list[tuple[str, tuple[tuple[int, int], ...], int]] = []
    while copy.phase is GamePhase.PLAYING and (stop is None or len(played) < stop):
        view = view_for(copy, None)
        hidden = tuple(
            (p, pos)
            for p, t in enumerate(view.tableaux)
            for pos, c in enumerate(t.cards)
            if c is None and pos // 3 not in t.removed_columns
        )
        drawn = len(copy.round.deal.pile) - view.pile_size
        seat = seats_to_act(copy)[0]
        action = bot_move(bots[seat], copy)
        played.append((str(action), hidden, drawn if view.phase == "choose" else -1))
        tell_bots(bots, copy.apply(action))
    if stop is not None:
        return [m for m, _, _ in played], [], 0
    halfway = next(i for i in range(len(played) // 2, len(played)) if played[i][2] >= 0)
    return [m for m, _, _ in played[:halfway]], list(played[halfway][1]), played[halfway][2]


def _shuffle_unseen(deal: Deal, hidden: list[tuple[int, int]], drawn: int, seed: int) -> Deal:
    """The same deal with its unseen cards (face down, or deep in the pile) shuffled."""
    tableaux = [list(t) for t in deal.tableaux]
    pile = list(deal.pile)
    unseen = [tableaux[p][pos] for p, pos in hidden] + pile[drawn:]
    random.Random(seed).shuffle(unseen)
    for p, pos in hidden:
        tableaux[p][pos] = unseen.pop()
    pile[drawn:] = unseen
    return Deal(tuple(tuple(t) for t in tableaux), deal.discard, tuple(pile))
