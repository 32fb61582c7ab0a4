"""A round's chance outcome: where every card lies before the first flip."""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import chain
from typing import Any

from .cards import DECK, TABLEAU_SIZE, is_deck_multiset
from .errors import InvalidSetup
from .settings import MAX_PLAYERS, MIN_PLAYERS


@dataclass(frozen=True, slots=True)
class Deal:
    """Every tableau card, the first discard and the draw pile of one round."""

    tableaux: tuple[tuple[int, ...], ...]  # per player, 12 cards, pos = column*3 + row
    discard: int  # the first discard, turned up from the pile
    pile: tuple[int, ...]  # the draw pile, top first

    @classmethod
    def shuffled(cls, players: int, rng: random.Random) -> Deal:
        cards = list(DECK)
        rng.shuffle(cards)
        tableaux = tuple(
            tuple(cards[i * TABLEAU_SIZE : (i + 1) * TABLEAU_SIZE]) for i in range(players)
        )
        rest = cards[players * TABLEAU_SIZE :]
        return cls(tableaux, rest[0], tuple(rest[1:]))

    def validate(self) -> None:
        """Raise ``InvalidSetup`` unless this deal could come from a real shuffle."""
        try:
            if not MIN_PLAYERS <= len(self.tableaux) <= MAX_PLAYERS:
                raise InvalidSetup(f"a deal is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
            if any(len(t) != TABLEAU_SIZE for t in self.tableaux):
                raise InvalidSetup("each tableau holds 12 cards")
            everything = [*chain.from_iterable(self.tableaux), self.discard, *self.pile]
        except TypeError as exc:
            raise InvalidSetup(f"not a deal: {exc}") from exc
        if not is_deck_multiset(everything):
            raise InvalidSetup("a deal must use exactly the 150 cards of the deck")

    def to_dict(self) -> dict[str, Any]:
        return {
            "tableaux": [list(t) for t in self.tableaux],
            "discard": self.discard,
            "pile": list(self.pile),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Deal:
        try:
            deal = cls(
                tuple(tuple(t) for t in data["tableaux"]), data["discard"], tuple(data["pile"])
            )
        except (KeyError, TypeError) as exc:
            raise InvalidSetup(f"not a deal: {exc}") from exc
        deal.validate()
        return deal
