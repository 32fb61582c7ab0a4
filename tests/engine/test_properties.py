"""Random whole games, checking after every move what must always hold."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.engine import (
    DECK,
    Event,
    Game,
    GamePhase,
    Phase,
    PlayerView,
    Seat,
    Settings,
    Starter,
    event_from_dict,
    game_record,
    public_event,
    replay,
    view_for,
)
from server.engine.events import PileReshuffled, TotalsUpdated

from .support import ROWS, every_action, random_moves, snapshot

VIEW_FIELDS = set(PlayerView.__dataclass_fields__)

games = st.fixed_dictionaries(
    {
        "players": st.integers(2, 8),
        "seed": st.integers(0, 2**32),
        "policy_seed": st.integers(0, 2**32),
        "draw_bias": st.floats(0.0, 1.0),
        "settings": st.builds(
            Settings,
            starter=st.sampled_from(Starter),
            clear_columns=st.booleans(),
            closer_penalty=st.booleans(),
            end_score=st.sampled_from([10, 60, 100]),
        ),
    }
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_random_whole_games_keep_every_invariant(spec: dict[str, Any]) -> None:
    game = Game(spec["players"], spec["settings"], seed=spec["seed"])
    rng = random.Random(spec["policy_seed"])
    checkpoint = rng.randrange(60)  # the move after which everything is serialised
    totals = (0,) * game.players
    for count, events in enumerate(random_moves(game, rng, spec["draw_bias"])):
        check_cards(game)
        check_phase(game)
        check_views(game, full=count % 7 == 0)
        check_events(events)
        if count % 5 == 0:
            check_legal_actions(game)
        if any(isinstance(e, TotalsUpdated) for e in events):
            totals = check_scores(game, totals)
        if count == checkpoint:
            check_round_trips(game)
    assert game.is_over and max(game.totals) >= game.settings.end_score
    check_round_trips(game)


def live_cards(game: Game, player: int) -> list[int]:
    round_ = game.round
    return [round_.cards[player][pos] for pos in round_.live_positions[player]]


def check_cards(game: Game) -> None:
    """The 150 cards are all somewhere: tableaux, pile, discard, hand, out of play."""
    round_ = game.round
    everywhere = [card for p in range(game.players) for card in live_cards(game, p)]
    everywhere += round_.pile + round_.discard + round_.out_of_play
    if round_.drawn is not None:
        everywhere.append(round_.drawn)
    assert sorted(everywhere) == sorted(DECK)
    assert round_.discard, "the discard pile is never empty"


def check_phase(game: Game) -> None:
    round_ = game.round
    assert (game.phase is GamePhase.PLAYING) == (not round_.is_over)
    assert (round_.phase is Phase.DRAWN) == (round_.drawn is not None)
    for player in range(game.players):
        up, live = round_.face_up[player], round_.live_positions[player]
        assert live == tuple(p for p in range(12) if not round_.removed[player][p // ROWS])
        assert round_.face_down_count[player] == sum(not up[p] for p in live)
        if round_.phase is Phase.INITIAL_FLIPS:
            assert sum(up) == round_.initial_flips[player] <= 2
        check_no_complete_column_left(game, player)
    if round_.phase is Phase.INITIAL_FLIPS:
        assert round_.current is None and round_.closer is None and round_.pending_flippers()
    elif round_.phase is Phase.ROUND_OVER:
        assert round_.current is None and round_.closer is not None
        assert all(round_.face_down_count[p] == 0 for p in range(game.players))
    else:
        assert round_.current in range(game.players) and not round_.pending_flippers()
        assert game.legal_actions(round_.current)
        if round_.closer is not None:
            assert round_.current != round_.closer
    if round_.closer is not None:
        assert round_.face_down_count[round_.closer] == 0
    if not game.settings.clear_columns:
        assert not any(any(removed) for removed in round_.removed)


def check_no_complete_column_left(game: Game, player: int) -> None:
    """Three equal face-up cards never stay on the table when columns are cleared."""
    if not game.settings.clear_columns:
        return
    round_ = game.round
    for column in range(4):
        if round_.removed[player][column]:
            continue
        positions = range(column * ROWS, column * ROWS + ROWS)
        cards = {round_.cards[player][p] for p in positions}
        assert not (all(round_.face_up[player][p] for p in positions) and len(cards) == 1)


def check_scores(game: Game, totals_before: tuple[int, ...]) -> tuple[int, ...]:
    """A round's scores: the remaining cards, the closer's penalty, the new totals."""
    round_ = game.round
    raw = tuple(sum(live_cards(game, p)) for p in range(game.players))
    assert round_.raw_scores == raw
    closer = round_.closer
    assert closer is not None
    others = [score for p, score in enumerate(raw) if p != closer]
    doubled = game.settings.closer_penalty and raw[closer] > 0 and min(others) <= raw[closer]
    expected = list(raw)
    if doubled:
        expected[closer] *= 2
    assert round_.final_scores == tuple(expected)
    totals = tuple(t + s for t, s in zip(totals_before, expected, strict=True))
    assert game.totals == totals
    over = max(totals) >= game.settings.end_score
    assert game.is_over == over
    best = min(totals)
    assert game.winners == (tuple(p for p, t in enumerate(totals) if t == best) if over else ())
    return totals


def check_views(game: Game, full: bool) -> None:
    """No view holds a face-down card; a view round-trips through plain data."""
    round_ = game.round
    seats: list[int | None] = [*range(game.players), None] if full else [round_.current, None]
    for seat in seats:
        view = view_for(game, seat)
        for player, shown in enumerate(view.tableaux):
            for pos, value in enumerate(shown.cards):
                visible = round_.face_up[player][pos] and not round_.removed[player][pos // ROWS]
                assert value == (round_.cards[player][pos] if visible else None)
        assert view.pile_size == len(round_.pile)
        data = view.to_dict()
        assert set(data) == VIEW_FIELDS  # nothing more: no pile, no hidden card
        if full:
            assert PlayerView.from_dict(json.loads(json.dumps(data))) == view


def check_events(events: list[Event]) -> None:
    for event in events:
        assert event_from_dict(json.loads(json.dumps(event.to_dict()))) == event
        shown = public_event(event)
        if isinstance(event, PileReshuffled):
            assert shown.to_dict()["order"] is None and event.order is not None
        else:
            assert shown == event


def check_legal_actions(game: Game) -> None:
    round_ = game.round
    for action in every_action(game.players):
        assert round_.is_legal(action) == (action in game.legal_actions(action.player))


def check_round_trips(game: Game) -> None:
    """The saved game and the record rebuild the very same game."""
    saved = json.loads(json.dumps(game.to_dict()))
    assert snapshot(Game.from_dict(saved)) == snapshot(game)
    seats = [Seat(f"seat {n}", "random") for n in range(game.players)]
    record = json.loads(json.dumps(game_record(game, seats)))
    rebuilt = replay(record)
    assert game_record(rebuilt, seats) == record
    assert snapshot(rebuilt) == snapshot(game)
