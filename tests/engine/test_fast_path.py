"""The fast path (``Round.moves``/``play``, ``Position``, ``rollout``) plays the full path's game.

Two rounds start from the same deal, one played with ``apply`` (checked, with
events), the other with ``play`` (unchecked, no events) and built through
``Round.from_position``: after every move they must hold the same state and
offer the same legal actions, and they must end with the same scores.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.engine import (
    DECK,
    Action,
    ActionKind,
    Deal,
    Game,
    InvalidSetup,
    Phase,
    Position,
    Round,
    Settings,
    Starter,
    view_for,
)
from server.engine.rollout import dealt_round, play_out, shuffled_deal

rounds = st.fixed_dictionaries(
    {
        "players": st.integers(2, 8),
        "deal_seed": st.integers(0, 2**32),
        "policy_seed": st.integers(0, 2**32),
        "draw_bias": st.floats(0.0, 1.0),
        "previous_closer": st.none() | st.integers(0, 7),
        "settings": st.builds(
            Settings,
            starter=st.sampled_from(Starter),
            clear_columns=st.booleans(),
            closer_penalty=st.booleans(),
            end_score=st.sampled_from([10, 100]),
        ),
    }
)

#: Round fields that are not state: the deal a round was built from (a round
#: built from a position has none).
NOT_STATE = {"_deal"}


def state(round_: Round) -> dict[str, Any]:
    return {name: value for name, value in vars(round_).items() if name not in NOT_STATE}


def pick(legal: list[Action], rng: random.Random, draw_bias: float) -> Action:
    """A random legal move that draws from the pile often enough to reach reshuffles."""
    if legal[0].kind is ActionKind.DRAW and rng.random() < draw_bias:
        return legal[0]
    return rng.choice(legal)


def twin_rounds(spec: dict[str, Any]) -> tuple[Round, Round]:
    """The same deal as a full round and as a fast one built from its position."""
    players = spec["players"]
    previous = spec["previous_closer"]
    previous = None if previous is None else previous % players
    deal = Deal.shuffled(players, random.Random(spec["deal_seed"]))
    full = Round(deal, spec["settings"], previous_closer=previous, reshuffle_seed="twin")
    fast = Round.from_position(
        Position.dealt(deal, previous), spec["settings"], reshuffle_seed="twin"
    )
    return full, fast


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rounds)
def test_fast_path_plays_the_same_round_as_apply(spec: dict[str, Any]) -> None:
    full, fast = twin_rounds(spec)
    rng = random.Random(spec["policy_seed"])
    assert state(full) == state(fast)
    for _ in range(2000):  # a round of random play ends long before
        if full.is_over:
            break
        seat = fast.actor()
        flippers = full.pending_flippers()
        assert seat == (flippers[0] if flippers else full.current)
        legal = full.legal_actions(seat)
        assert list(fast.moves()) == legal
        action = pick(legal, rng, spec["draw_bias"])
        full.apply(action)
        fast.play(action)
        assert state(full) == state(fast)
    assert full.is_over and fast.is_over
    assert fast.moves() == () and fast.actor() is None
    assert fast.final_scores == full.final_scores and fast.raw_scores == full.raw_scores


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rounds, st.integers(0, 200))
def test_a_round_rebuilt_from_its_position_goes_on_alike(spec: dict[str, Any], at: int) -> None:
    """Every reachable state is a valid position, and rebuilding it changes nothing."""
    full, _ = twin_rounds(spec)
    rng = random.Random(spec["policy_seed"])
    moves = 0
    while not full.is_over and moves < at:
        full.apply(pick(full.legal_actions(full.actor()), rng, spec["draw_bias"]))
        moves += 1
        if not full.is_over:
            full.position().check()
    if full.is_over:
        return
    rebuilt = Round.from_position(
        full.position(), spec["settings"], number=full.number, reshuffle_seed="twin"
    )
    rebuilt.reshuffles = full.reshuffles  # the seed of the next reshuffle, not a rule's state
    rebuilt.starter = full.starter  # who began: history, which a position does not keep
    assert state(rebuilt) == state(full)
    assert rebuilt.position() == full.position()
    policy_rng = random.Random(spec["policy_seed"] + 1)
    scores = play_out(rebuilt, lambda r, legal: pick(list(legal), policy_rng, 0.5))
    policy_rng = random.Random(spec["policy_seed"] + 1)
    while not full.is_over:
        full.apply(pick(full.legal_actions(full.actor()), policy_rng, 0.5))
    assert scores == full.final_scores


def game_after(spec: dict[str, Any], moves: int) -> tuple[Game, random.Random]:
    """A game of the first round after up to ``moves`` random moves, and the policy's rng."""
    game = Game(spec["players"], spec["settings"], seed=spec["deal_seed"])
    rng = random.Random(spec["policy_seed"])
    for _ in range(moves):
        if game.round.is_over:
            break
        game.apply(pick(game.legal_actions(game.round.actor()), rng, spec["draw_bias"]))
    return game, rng


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rounds, st.integers(0, 200))
def test_a_view_filled_with_the_true_cards_is_the_true_position(
    spec: dict[str, Any], at: int
) -> None:
    """``Position.from_view`` with the hidden cards a sample would give back."""
    players = spec["players"]
    game, _ = game_after(spec, at)
    round_ = game.round
    if round_.is_over:
        return
    truth = round_.position()
    hidden = [
        [
            round_.cards[seat][pos]
            for pos in round_.live_positions[seat]
            if not truth.face_up[seat][pos]
        ]
        for seat in range(players)
    ]
    seat = spec["policy_seed"] % players
    view = view_for(game, seat)
    sampled = Position.from_view(
        view, hidden, truth.pile, truth.discard, previous_closer=truth.previous_closer
    )
    sampled.check()
    removed_cards_ignored = tuple(
        tuple(0 if pos // 3 in gone else card for pos, card in enumerate(cards))
        for cards, gone in zip(truth.tableaux, truth.removed_columns, strict=True)
    )
    assert sampled == Position(
        removed_cards_ignored,
        truth.face_up,
        truth.removed_columns,
        truth.discard,
        truth.pile,
        truth.phase,
        truth.current,
        truth.drawn,
        truth.closer,
        truth.previous_closer,
    )
    assert Round.from_position(sampled, spec["settings"]).legal_actions(
        seat
    ) == round_.legal_actions(seat)


def start_of_turns() -> Position:
    """A two-player position at the first turn (both have flipped two cards)."""
    round_ = Round(Deal.shuffled(2, random.Random(5)))
    for seat in (0, 1):
        for pos in (0, 1):
            round_.apply(Action.flip(seat, pos))
    return round_.position()


def replaced(position: Position, **changes: Any) -> Position:
    fields = {name: getattr(position, name) for name in Position.__dataclass_fields__}
    return Position(**{**fields, **changes})


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"pile": ()}, "150 cards"),
        ({"discard": ()}, "at least its top card"),
        ({"drawn": 5}, "drawn phase only"),
        ({"phase": Phase.DRAWN}, "drawn phase only"),
        ({"current": 2}, "must be a seat"),
        ({"phase": Phase.ROUND_OVER}, "in progress"),
        ({"closer": 1}, "closer has every card up"),
        ({"removed_columns": ((4,), ())}, "one of 0..3"),
        ({"face_up": ((True,) * 11, (False,) * 12)}, "12 cards"),
        ({"phase": Phase.INITIAL_FLIPS, "current": None}, "a turn has begun"),
    ],
)
def test_impossible_positions_are_refused(changes: dict[str, Any], reason: str) -> None:
    position = start_of_turns()
    position.check()
    with pytest.raises(InvalidSetup, match=reason):
        Round.from_position(replaced(position, **changes))


def test_a_round_from_a_position_has_no_deal_to_announce() -> None:
    round_ = Round.from_position(start_of_turns())
    with pytest.raises(Exception, match="has no deal"):
        round_.start_event()


def test_rollout_deals_are_whole_decks_and_play_to_the_end() -> None:
    rng = random.Random(11)
    for players in (2, 4, 8):
        deal = shuffled_deal(players, rng)
        deal.validate()
        round_ = dealt_round(players, rng, Settings())
        assert round_.phase is Phase.INITIAL_FLIPS
        scores = play_out(round_, lambda r, legal: rng.choice(legal))
        assert round_.is_over and len(scores) == players
        assert scores == round_.final_scores


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rounds, st.integers(0, 200))
def test_a_sample_consistent_with_a_view_is_a_round_that_plays_out(
    spec: dict[str, Any], at: int
) -> None:
    """What a search does: deal the cards a seat has not seen anywhere it cannot see."""
    players = spec["players"]
    game, rng = game_after(spec, at)
    round_ = game.round
    if round_.is_over:
        return
    seat = spec["policy_seed"] % players
    view = view_for(game, seat)
    discard = list(round_.discard)  # what a card counter follows from the events
    seen = Counter(card for t in view.tableaux for card in t.cards if card is not None)
    seen.update(discard)  # columns removed in play went there too
    seen.update([] if view.drawn_card is None else [view.drawn_card])
    unseen = list((Counter(DECK) - seen).elements())
    rng.shuffle(unseen)
    face_down = [
        [
            unseen.pop()
            for pos, card in enumerate(t.cards)
            if card is None and pos // 3 not in t.removed_columns
        ]
        for t in view.tableaux
    ]
    assert len(unseen) == view.pile_size
    sample = Position.from_view(view, face_down, unseen, discard)
    sample.check()
    rollout = Round.from_position(sample, spec["settings"], check=False)
    assert rollout.legal_actions(seat) == round_.legal_actions(seat)
    assert rollout.actor() == round_.actor()
    assert [rollout.visible_score(p) for p in range(players)] == [
        round_.visible_score(p) for p in range(players)
    ]
    scores = play_out(rollout, lambda r, legal: rng.choice(legal))
    assert len(scores) == players and rollout.is_over
