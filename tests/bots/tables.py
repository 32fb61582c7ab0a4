"""Hand-made tables for bot tests: a deal where chosen cards sit at chosen places."""

from __future__ import annotations

import random
from collections import Counter

from server.bots import Bot
from server.bots.match import tell_bots
from server.engine import DECK, Action, Deal, Event, Game, Settings

#: seat -> {position: value} of the two cards each seat turns up first.
Shown = dict[int, dict[int, int]]


def crafted_deal(players: int, shown: Shown, discard: int, pile_top: list[int]) -> Deal:
    """A full 150-card deal with ``shown`` cards in place, ``discard`` turned up and
    ``pile_top`` on top of the draw pile; every other card comes from the rest of the deck."""
    rest = Counter(DECK)
    rest.subtract([v for cards in shown.values() for v in cards.values()])
    rest.subtract([discard, *pile_top])
    assert min(rest.values()) >= 0, "the deck has not that many of a card"
    filler = sorted(rest.elements())
    random.Random("crafted deal").shuffle(filler)
    tableaux = []
    for seat in range(players):
        tableau = [shown.get(seat, {}).get(pos) for pos in range(12)]
        tableaux.append(tuple(filler.pop(0) if v is None else v for v in tableau))
    return Deal(tuple(tableaux), discard, tuple(pile_top) + tuple(filler))


def crafted_game(
    players: int,
    shown: Shown,
    discard: int,
    pile_top: list[int],
    settings: Settings = Settings(),
) -> tuple[Game, list[Event]]:
    """A game whose first round starts from ``crafted_deal``, with the ``shown`` cards
    turned up as the initial flips; returns the game and every event so far."""
    deal = crafted_deal(players, shown, discard, pile_top)
    game = Game.from_dict(
        {
            "players": players,
            "settings": settings.to_dict(),
            "seed": 0,
            "rounds": [{"deal": deal.to_dict(), "actions": []}],
        }
    )
    events: list[Event] = [game.round.start_event()]
    for seat, cards in shown.items():
        for pos in cards:
            events += game.apply(Action.flip(seat, pos))
    return game, events


def play(game: Game, bots: list[Bot], events: list[Event], *actions: Action) -> None:
    """Apply ``actions`` and show the bots everything that happened so far."""
    for action in actions:
        events += game.apply(action)
    tell_bots(bots, events)
