"""``expert``: card counting, an expected-value model of the round, and a lookahead.

The bot follows the public events to count the cards seen (``counting``),
prices every legal move with a model of the round (``plan``, ``model``), and
on close calls looks one turn further (``lookahead``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from server.engine import Action, Event, PlayerView, Settings

from .advice import OVERDUE_TURNS, advise
from .base import Bot
from .counting import CardCounter
from .model import Params

__all__ = ["OVERDUE_TURNS", "ExpertBot"]


class ExpertBot(Bot):
    level = "expert"
    description = (
        "counts the cards seen, weighs columns of three, the closer's penalty and what the "
        "next player could use, and values a draw over every card still unseen."
    )

    def __init__(
        self,
        seat: int,
        seed: int | str = 0,
        settings: Settings = Settings(),
        params: Params = Params(),
    ) -> None:
        super().__init__(seat, seed, settings)
        self.params = params
        self.counter = CardCounter()
        self._rng = random.Random(f"expert-bot/{seed}/{seat}")

    def observe(self, events: Sequence[Event]) -> None:
        self.counter.observe(events)

    def choose(self, view: PlayerView) -> Action:
        """The move ``advise`` ranks first: the hint and the review judge by the same."""
        return advise(view, self.counter, self.settings, self.params, self._rng).best.action
