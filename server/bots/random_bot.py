"""``random``: uniform over the legal moves."""

from __future__ import annotations

import random

from server.engine import Action, PlayerView, Settings

from .base import Bot


class RandomBot(Bot):
    level = "random"
    description = "picks uniformly among its legal moves."

    def __init__(self, seat: int, seed: int | str = 0, settings: Settings = Settings()) -> None:
        super().__init__(seat, seed, settings)
        self._rng = random.Random(f"random-bot/{seed}/{seat}")

    def choose(self, view: PlayerView) -> Action:
        return self._rng.choice(view.legal_actions)
