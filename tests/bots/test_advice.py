"""The shared evaluation: every legal move ranked, the known best move first."""

from __future__ import annotations

import pytest

from server.bots import make_bot
from server.bots.advice import Advice, advise, counter_for
from server.bots.match import seats_to_act
from server.engine import (
    Action,
    ActionKind,
    Game,
    PlayerView,
    Settings,
    TableauView,
    ViewPhase,
    public_event,
    view_for,
)

Cards = list[int | None]
#: A tableau of one face-up card per column, the rest face down, no pairs anywhere.
OPPONENT: Cards = [4, None, None, 6, None, None, 1, None, None, 9, None, None]


def hand_made_view(
    mine: Cards,
    discard: int,
    *,
    drawn: int | None = None,
    closer: int | None = None,
    theirs: Cards = OPPONENT,
) -> PlayerView:
    """Seat 0's view of a two-player table, with its legal moves as the engine lists them."""
    live = range(12)
    if drawn is None:
        legal = [Action.draw(0), *(Action.take_discard(0, p) for p in live)]
        phase = ViewPhase.CHOOSE
    else:
        legal = [Action.swap_drawn(0, p) for p in live]
        legal += [Action.discard_and_flip(0, p) for p in live if mine[p] is None]
        phase = ViewPhase.DRAWN
    score = sum(c for c in mine if c is not None)
    return PlayerView(
        seat=0,
        round=1,
        phase=phase,
        current_player=0,
        tableaux=(TableauView(tuple(mine), (), score), TableauView(tuple(theirs), (), 20)),
        discard_top=discard,
        pile_size=100,
        drawn_card=drawn,
        closer=closer,
        initial_flips_pending=(),
        totals=(0, 0),
        round_scores=None,
        winners=(),
        legal_actions=tuple(legal),
    )


def advice_for(view: PlayerView) -> Advice:
    return advise(view, counter_for([]), Settings())


def test_every_legal_move_is_ranked_once() -> None:
    view = hand_made_view([5, None, None, 8, None, None, 2, None, None, 11, None, None], 3)
    advice = advice_for(view)
    assert sorted(map(str, (m.action for m in advice.moves))) == sorted(
        map(str, view.legal_actions)
    )
    assert advice.given_away(advice.best.action) == 0.0
    assert all(advice.given_away(m.action) >= 0.0 for m in advice.moves)


def test_a_discard_that_completes_a_column_of_three_is_taken_there() -> None:
    # Column 1 shows 7, 7 and a 9: the 7 on the discard replaces the 9 and the column goes.
    mine: Cards = [7, 7, 9, 3, None, None, 2, None, None, 5, None, None]
    advice = advice_for(hand_made_view(mine, 7))
    assert advice.best.action == Action.take_discard(0, 2)
    # Drawing instead gives points away (fewer than the column's 23: a pair of 7s may
    # still be completed later, by a 7 drawn now among others).
    assert advice.given_away(Action.draw(0)) > 2


def test_a_minus_two_on_the_discard_goes_onto_a_hidden_card_rather_than_a_draw() -> None:
    # Nothing bad shows (a 1 and a 2): the -2 is still worth taking, onto a face-down card.
    mine: Cards = [1, None, None, 2, None, None, None, None, None, None, None, None]
    advice = advice_for(hand_made_view(mine, -2))
    best = advice.best.action
    assert best.kind is ActionKind.TAKE_DISCARD and best.pos is not None
    assert mine[best.pos] is None
    alternative = advice.alternative()
    assert alternative is not None and alternative.action == Action.draw(0)
    assert alternative.cost > advice.best.cost


def test_a_minus_two_replaces_a_twelve_in_sight() -> None:
    mine: Cards = [1, None, None, 12, None, None, None, None, None, 2, None, None]
    assert advice_for(hand_made_view(mine, -2)).best.action == Action.take_discard(0, 3)


def test_on_the_last_turn_the_drawn_card_replaces_the_worst_face_up_card() -> None:
    # Seat 1 closed: this is seat 0's last turn. Every face-down card will score as it is,
    # so the 0 drawn saves exactly the 10 it replaces; turning a card up saves nothing.
    mine: Cards = [10, None, None, 1, None, None, 2, None, None, 3, None, None]
    theirs: Cards = [4, 1, 0, 6, 2, 3, 1, 0, 2, 1, 5, 2]
    view = hand_made_view(mine, 6, drawn=0, closer=1, theirs=theirs)
    advice = advice_for(view)
    assert advice.best.action == Action.swap_drawn(0, 0)
    assert advice.given_away(Action.discard_and_flip(0, 1)) == pytest.approx(10, abs=0.5)


def test_a_bad_draw_is_discarded_and_a_card_turned_up() -> None:
    mine: Cards = [1, None, None, 0, None, None, 2, None, None, -1, None, None]
    advice = advice_for(hand_made_view(mine, 5, drawn=12))
    assert advice.best.action.kind is ActionKind.DISCARD_AND_FLIP
    assert advice.given_away(Action.swap_drawn(0, 0)) > 5  # a 12 over the 1


def test_advice_from_the_public_events_counts_the_cards_as_the_expert_does() -> None:
    """The hint and the review rebuild the count from the table's public events:
    through a whole game, they see what the playing expert sees, and rank its legal moves."""
    game = Game(2, Settings(), seed=7)
    bots = [make_bot("expert", seat, 7) for seat in range(2)]
    round_events = [public_event(game.round.start_event())]
    for bot in bots:
        bot.observe(round_events)
    decisions = 0
    while not game.is_over and decisions < 2000:
        if not seats_to_act(game):
            round_events = [public_event(e) for e in game.next_round()]
            for bot in bots:
                bot.observe(round_events)
            continue
        seat = seats_to_act(game)[0]
        view = view_for(game, seat)
        counter = counter_for(round_events)
        advice = advise(view, counter, Settings())
        assert {m.action for m in advice.moves} == set(view.legal_actions)
        action = bots[seat].choose(view)
        assert counter.unseen(view) == bots[seat].counter.unseen(view)  # type: ignore[attr-defined]
        public = [public_event(e) for e in game.apply(action)]
        round_events += public
        for bot in bots:
            bot.observe(public)
        decisions += 1
    assert game.is_over
