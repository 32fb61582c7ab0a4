"""What every bot is: a player that sees only its own seat's view."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar

from server.engine import Action, Event, PlayerView, Settings


class Bot(ABC):
    """A seat's decision-maker.

    A bot is given what a person in its seat would be given, nothing more:
    the public events as they happen (``observe``) and its own ``PlayerView``
    when it must act (``choose``). It never touches the engine's state.
    """

    level: ClassVar[str]
    description: ClassVar[str]

    def __init__(self, seat: int, seed: int | str = 0, settings: Settings = Settings()) -> None:
        self.seat = seat
        self.seed = seed
        # The table's variants are public (every player agreed to them).
        self.settings = settings

    def observe(self, events: Sequence[Event]) -> None:  # noqa: B027 - optional: most bots need no memory
        """Public events of the table, in order (reshuffle orders stripped)."""

    @abstractmethod
    def choose(self, view: PlayerView) -> Action:
        """One of ``view.legal_actions``."""
