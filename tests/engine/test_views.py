"""RULES.md, "Information": a view holds every public fact and never a face-down card."""

from __future__ import annotations

import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from server.engine import Action, Deal, Game, PlayerView, public_event, view_for
from server.engine.events import PileReshuffled

from .support import PLAIN, flip_all, make_deal


def test_a_view_shows_face_up_cards_and_hides_face_down_ones() -> None:
    game = Game(2, deal=make_deal([PLAIN, PLAIN], 0))
    flip_all(game, {0: (11, 10), 1: (0, 4)})
    for seat in (0, 1, None):
        view = view_for(game, seat)
        assert view.tableaux[0].cards == (None,) * 10 + (11, 12)
        assert view.tableaux[1].cards == (1, None, None, None, 5) + (None,) * 7
        assert view.tableaux[1].visible_score == 6
        assert view.discard_top == 0 and view.pile_size == 125


def test_even_its_owner_does_not_see_a_face_down_card() -> None:
    game = Game(2, deal=make_deal([PLAIN, PLAIN], 0))
    assert view_for(game, 0).tableaux[0].cards == (None,) * 12


def test_views_do_not_depend_on_hidden_cards_or_the_pile_order() -> None:
    """Two deals that differ only in face-down cards and the order under the pile's
    top give the same view to every seat and to spectators."""
    deal = Deal.shuffled(3, random.Random(8))
    hidden = list(deal.tableaux[1])
    assert hidden[5] != hidden[6]
    hidden[5], hidden[6] = hidden[6], hidden[5]
    twin = replace(
        deal,
        tableaux=(deal.tableaux[0], tuple(hidden), deal.tableaux[2]),
        pile=(deal.pile[0], *reversed(deal.pile[1:])),
    )
    games = [Game(3, deal=deal), Game(3, deal=twin)]
    for game in games:
        flip_all(game, {0: (0, 1), 1: (0, 1), 2: (0, 1)})
        game.apply(Action.draw(game.current_player))  # type: ignore[arg-type]
    for seat in (0, 1, 2, None):
        assert view_for(games[0], seat) == view_for(games[1], seat)


def test_the_drawn_card_is_shown_to_the_whole_table() -> None:
    game = Game(2, deal=make_deal([PLAIN, PLAIN], 0, pile_top=(7,)))
    flip_all(game, {0: (11, 10), 1: (0, 1)})
    game.apply(Action.draw(0))
    assert all(view_for(game, seat).drawn_card == 7 for seat in (0, 1, None))


def test_a_view_offers_its_seat_its_own_legal_actions_only() -> None:
    game = Game(2, deal=make_deal([PLAIN, PLAIN], 0))
    flip_all(game, {0: (11, 10), 1: (0, 1)})
    assert view_for(game, 0).legal_actions == tuple(game.legal_actions(0))
    assert view_for(game, 1).legal_actions == ()
    assert view_for(game, None).legal_actions == ()


def test_a_view_round_trips_through_plain_data() -> None:
    game = Game(3, seed=2)
    flip_all(game, {0: (0, 1), 1: (3, 4)})
    view = view_for(game, 1)
    assert PlayerView.from_dict(view.to_dict()) == view
    assert "pile" not in view.to_dict()


def test_public_event_hides_the_order_of_a_reshuffled_pile() -> None:
    secret = PileReshuffled(3, (4, 5, 6))
    assert public_event(secret) == PileReshuffled(3)
    shown = public_event(secret).to_dict()
    assert shown == {"type": "pile_reshuffled", "pile_size": 3, "order": None}


def test_the_engine_imports_no_io_or_ui_library() -> None:
    code = (
        "import sys, server.engine, server.engine.records\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('asyncio', 'msgpack', 'textual', 'asyncssh'))\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        cwd=Path(__file__).parents[2],
    )
    assert result.stdout.strip() == ""
