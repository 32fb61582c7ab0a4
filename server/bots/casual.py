"""``casual``: the expert's model, played the way a decent casual player plays.

It prices moves like ``expert`` (``plan``, ``model``), but with the usual
human mistakes made on purpose:

- it forgets old discards: its counter remembers only the last
  ``DISCARD_MEMORY`` cards thrown on the discard pile, and never what a
  reshuffled pile holds (a forgotten card counts as unseen again);
- it closes too eagerly: ending the round is worth ``EAGER_CLOSE`` times what
  the expert thinks it denies the others;
- it sometimes misses a column of three: on ``MISSED_COLUMNS`` of its turns it
  prices the moves as if equal columns scored like any other;
- it never looks a turn further on close calls.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from server.engine import Action, ActionKind, Event, PlayerView, Settings

from .base import Bot
from .counting import CardCounter, Counts
from .model import Params
from .plan import Plan

#: How many of the latest discards a casual player keeps in mind.
DISCARD_MEMORY = 4
#: How much more than the expert a casual player likes to end the round.
EAGER_CLOSE = 6.0
#: The share of turns on which a casual player overlooks columns of three.
MISSED_COLUMNS = 0.3


class ForgetfulCounter(CardCounter):
    """A counter that remembers only the latest ``memory`` discards (the others count
    as unseen again) and nothing of a reshuffled pile."""

    def __init__(self, memory: int = DISCARD_MEMORY) -> None:
        super().__init__()
        self.memory = memory

    def remembered(self) -> list[int]:
        """The discards still in mind, oldest first (the top is always seen)."""
        return self.discards[-self.memory :]

    def _follow(self, event: Event) -> None:
        super()._follow(event)
        self.known_pile = None  # what a reshuffled pile holds is not kept in mind

    def draw_pile(self, view: PlayerView, unseen: Counts) -> Counts:
        return unseen  # nor which cards lie under the discard's top


class CasualBot(Bot):
    level = "casual"
    description = (
        "plays a sound game but makes the usual human mistakes: it forgets all but the "
        "last few discards, closes too eagerly and now and then misses a column of three."
    )

    def __init__(self, seat: int, seed: int | str = 0, settings: Settings = Settings()) -> None:
        super().__init__(seat, seed, settings)
        expert = Params()
        self.params = replace(expert, close_weight=expert.close_weight * EAGER_CLOSE)
        self.counter = ForgetfulCounter()
        self._rng = random.Random(f"casual-bot/{seed}/{seat}")

    def observe(self, events: Sequence[Event]) -> None:
        self.counter.observe(events)

    def choose(self, view: PlayerView) -> Action:
        self.counter.sync(view)
        legal = view.legal_actions
        kind = legal[0].kind
        if kind is ActionKind.FLIP:
            return self._rng.choice(legal)
        unseen = self.counter.unseen(view)
        draws = self.counter.draw_pile(view, unseen)
        settings = self.settings
        if settings.clear_columns and self._rng.random() < MISSED_COLUMNS:
            settings = replace(settings, clear_columns=False)
        plan = Plan(view, unseen, draws, settings, self.params, self._rng)
        if kind is ActionKind.DRAW:
            return plan.take_or_draw()
        assert view.drawn_card is not None
        return plan.best_with(view.drawn_card)[1]
