"""Master's sequential search: it stops once a decision is settled or has made its plans,
and a seed decides alike."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace

import pytest

from server.bots import master
from server.bots.master import DEALS, REPLY_CANDIDATES, MasterBot, SearchRule, settle
from server.bots.match import bot_move, make_bots, seats_to_act, tell_bots
from server.bots.reply import CLOSING_WORK
from server.engine import Game, GamePhase, Settings
from server.engine.position import Phase

RULE = MasterBot.rule


def _deals(
    gains: Sequence[float], tried_log: list[list[int]] | None = None
) -> Callable[[Sequence[int]], list[float]]:
    """Deal ``k`` scores candidate ``i`` at ``-gains[i]`` plus that deal's noise (lower is better),
    the same noise for every candidate on one deal, plus a little of its own."""
    rng = random.Random("deals")

    def one_deal(tried: Sequence[int]) -> list[float]:
        if tried_log is not None:
            tried_log.append(list(tried))
        shared = rng.gauss(0.0, 10.0)
        return [shared - gains[i] + rng.gauss(0.0, 1.0) for i in tried]

    return one_deal


def test_an_alternative_far_better_than_the_models_choice_is_played_after_one_batch() -> None:
    assert settle(_deals([0.0, 3.0]), 2, RULE) == (1, RULE.batch)


def test_alternatives_far_worse_are_given_up_after_one_batch() -> None:
    tried: list[list[int]] = []
    assert settle(_deals([0.0, -3.0, -2.0], tried), 3, RULE) == (0, RULE.batch)
    assert len(tried) == RULE.batch


def test_a_hopeless_alternative_is_no_longer_played_while_a_close_one_is() -> None:
    tried: list[list[int]] = []
    _, deals = settle(_deals([0.0, -3.0, 0.1], tried), 3, RULE)
    assert deals > RULE.batch
    assert tried[0] == [0, 1, 2] and tried[-1] == [0, 2]


def test_a_close_call_takes_the_whole_budget() -> None:
    """An alternative about one standard error better over the budget: neither settled
    early nor given up; the model's choice stands unless the whole budget overrules it."""
    gains = [1.0 if k % 2 else -0.8 for k in range(DEALS)]
    deal = iter(range(DEALS))

    def one_deal(tried: Sequence[int]) -> list[float]:
        k = next(deal)
        return [-(gains[k] if i else 0.0) for i in tried]

    assert settle(one_deal, 2, RULE) == (1, DEALS)


def test_the_budget_is_never_exceeded() -> None:
    rule = SearchRule(deals=40, batch=16, confidence=1.0, settled=99.0, optimism=99.0)
    tried: list[list[int]] = []
    assert settle(_deals([0.0, 0.2], tried), 2, rule)[1] == 40
    assert len(tried) == 40


@pytest.mark.parametrize(("gains", "chosen"), [([0.0, 3.0], 1), ([0.0, -3.0], 0)])
def test_a_search_stops_on_the_deal_its_work_reaches_the_cap(
    gains: list[float], chosen: int
) -> None:
    """Work of one a candidate played: a cap of 21 is reached on the 11th deal, inside the
    first batch; the deals so far decide as the whole budget's would."""
    rule = replace(RULE, plans=21)
    tried: list[list[int]] = []
    assert settle(_deals(gains, tried), 2, rule, spent=lambda: sum(map(len, tried))) == (
        chosen,
        11,
    )
    assert len(tried) == 11


def test_a_search_without_work_to_count_takes_its_deals_as_before() -> None:
    rule = replace(RULE, plans=0)
    assert settle(_deals([0.0, 3.0]), 2, rule) == (1, RULE.batch)


def test_a_two_player_master_with_few_plans_stops_early_and_a_seed_replays_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a cap of 40 plans every searched decision stops within a deal of it, most of
    them inside the first batch; the moves stay legal (the engine checks each) and a master
    of the same seed, capped alike, makes every one of them again."""
    small = replace(MasterBot.rule, plans=40)
    # A deal plays each candidate: the other's reply and our next turn, one plan each.
    one_deal_at_most = REPLY_CANDIDATES * 2 * CLOSING_WORK
    searches: list[tuple[int, int]] = []  # per searched decision: deals, plans made
    searching = master.settle

    def watched(
        one_deal: Callable[[Sequence[int]], list[float]],
        candidates: int,
        rule: SearchRule,
        spent: Callable[[], int] | None = None,
    ) -> tuple[int, int]:
        chosen, deals = searching(one_deal, candidates, rule, spent)
        assert spent is not None  # two players: every search is the reply search
        searches.append((deals, spent()))
        return chosen, deals

    monkeypatch.setattr(master, "settle", watched)
    settings = Settings(end_score=60)
    game = Game(2, settings, seed=3)
    bots = make_bots(["master", "expert"], 3, settings)
    twin = make_bots(["master"], 3, settings)[0]
    for bot in (bots[0], twin):
        assert isinstance(bot, MasterBot)
        bot.rule = small
    watchers = [*bots, twin]
    tell_bots(watchers, [game.round.start_event()])
    for _ in range(1000):  # moves, bounded: a round of two takes about a hundred
        if game.phase is not GamePhase.PLAYING or game.round.number != 1:
            break
        for seat in seats_to_act(game):
            action = bot_move(bots[seat], game)
            if seat == 0:
                assert bot_move(twin, game) == action
            tell_bots(watchers, game.apply(action))
    assert game.round.number != 1 or game.phase is not GamePhase.PLAYING, "the round never ended"
    assert len(searches) >= 20
    assert all(plans < small.plans + one_deal_at_most for _, plans in searches)
    assert sum(deals < small.batch for deals, _ in searches) > len(searches) / 2


def test_masters_of_one_seed_decide_alike_whatever_else_runs_between_their_decisions() -> None:
    """Two masters with the same seed shown the same game make the same move at every
    decision, while a master of another seed searches in between in the same process."""
    settings = Settings(end_score=60)
    game = Game(2, settings, seed=3)
    bots = make_bots(["master", "expert"], 3, settings)
    twin, other = make_bots(["master"], 3, settings)[0], make_bots(["master"], 99, settings)[0]
    watchers = [*bots, twin, other]
    tell_bots(watchers, [game.round.start_event()])
    decisions = 0
    while game.phase is GamePhase.PLAYING and decisions < 400:
        for seat in seats_to_act(game):
            action = bot_move(bots[seat], game)
            if seat == 0:
                bot_move(other, game)
                assert bot_move(twin, game) == action
                decisions += 1
            tell_bots(watchers, game.apply(action))
    assert decisions > 20


def test_a_decision_deals_alike_however_many_deals_the_earlier_ones_took() -> None:
    """A master of the same seed that watched the game but was asked only every other
    turn decides as the one asked every turn: a decision's deals come from its own seed
    (until one of them may close, where the model samples from the bot's own stream)."""
    settings = Settings()
    game = Game(2, settings, seed=8)
    bots = make_bots(["master", "expert"], 8, settings)
    twin = make_bots(["master"], 8, settings)[0]
    watchers = [*bots, twin]
    tell_bots(watchers, [game.round.start_event()])
    compared = 0
    for turn in range(200):
        seats = seats_to_act(game)
        if game.round.number > 1 or not seats or _hidden(game, 0) <= 2:
            break
        for seat in seats:
            action = bot_move(bots[seat], game)
            if seat == 0 and (game.round.phase is Phase.INITIAL_FLIPS or turn % 4 < 2):
                assert bot_move(twin, game) == action
                compared += 1
            tell_bots(watchers, game.apply(action))
    assert compared >= 8


def _hidden(game: Game, seat: int) -> int:
    up = game.round.face_up[seat]
    return sum(1 for pos in game.round.live_positions[seat] if not up[pos])
