"""``expert``: card counting, an expected-value model of the round, and a lookahead.

The bot follows the public events to count the cards seen (``counting``),
prices every legal move with a model of the round (``plan``, ``model``), and
on close calls looks one turn further (``lookahead``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from server.engine import Action, ActionKind, Event, PlayerView, Settings

from .base import Bot
from .counting import CardCounter
from .lookahead import SEARCHED_OPTIONS, is_close_call, look_ahead
from .model import Params
from .plan import Plan

#: Turns each, after which a round has gone on too long (a table where nobody
#: wants to close): the bot then settles a face-down card every turn until it closes.
OVERDUE_TURNS = 40


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
        self.counter.sync(view)
        kind = view.legal_actions[0].kind
        if kind is ActionKind.FLIP:
            return self._initial_flip(view)
        unseen = self.counter.unseen(view)
        draws = self.counter.draw_pile(view, unseen)
        plan = Plan(view, unseen, draws, self.settings, self.params, self._rng)
        overdue = self.counter.turns >= OVERDUE_TURNS * len(view.tableaux)
        if kind is ActionKind.DRAW:
            return Action.draw(self.seat) if overdue else plan.take_or_draw()
        assert view.drawn_card is not None
        options = plan.options_with(view.drawn_card)
        if overdue:  # settle a face-down card every turn: the round must end
            return next((a for _, a in options if a.pos in plan.hidden), options[0][1])
        if is_close_call(plan, options):
            return look_ahead(plan, options[:SEARCHED_OPTIONS], unseen, draws, self._rng)
        return options[0][1]

    def _initial_flip(self, view: PlayerView) -> Action:
        """Spread the two flips over different columns: each tells about its own column."""
        cards = view.tableaux[self.seat].cards
        opened = {pos // 3 for pos, card in enumerate(cards) if card is not None}
        fresh = [a for a in view.legal_actions if a.pos is not None and a.pos // 3 not in opened]
        return self._rng.choice(fresh or list(view.legal_actions))
