"""Others' moves one at a time, at a pace a person can follow.

The server sends a view and the events that led to it for every action. The
table shows them in order: your own moves at once, other players' and bots'
moves held for ``pace`` seconds each with the changed cards highlighted. A
long backlog (after a reconnect, or a burst of bot moves) is shown faster so
the table never lags far behind the game. Pure: the screen owns the timer.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Final

from server.engine import Event, PlayerView
from server.engine.movelog import Standin

from ..narrate import Touched, touched

#: Seconds each other player's move stays highlighted, by the settings' names.
PACES: Final[dict[str, float]] = {"off": 0.0, "fast": 0.35, "normal": 0.8, "slow": 1.5}
DEFAULT_PACE: Final = "normal"
#: With more steps than this waiting, each one gets only a short beat.
BACKLOG: Final = 6
BACKLOG_BEAT: Final = 0.08


@dataclass(frozen=True, slots=True)
class Step:
    """One action's consequences: its events and the view after them.

    ``seq`` is the server's count of game updates (None when not known):
    it tells when the update that shows a move of ours is on screen.
    """

    events: tuple[Event, ...]
    view: PlayerView
    changed: Touched
    seq: int | None = None
    #: The seat whose move this was, and the bot that chose it for that seat's person.
    standin: tuple[int, Standin] | None = None

    @classmethod
    def of(
        cls,
        events: list[Event] | tuple[Event, ...],
        view: PlayerView,
        seq: int | None = None,
        standin: tuple[int, Standin] | None = None,
    ) -> Step:
        return cls(tuple(events), view, touched(events), seq, standin)


class StepQueue:
    """Steps waiting to be shown, and how long to hold each one."""

    def __init__(self, pace: float = PACES[DEFAULT_PACE]) -> None:
        self.pace = pace
        self._steps: deque[Step] = deque()

    def __len__(self) -> int:
        return len(self._steps)

    def push(self, step: Step) -> None:
        self._steps.append(step)

    def pop(self) -> Step | None:
        return self._steps.popleft() if self._steps else None

    def clear(self) -> None:
        self._steps.clear()

    def last_seq(self) -> int | None:
        """The ``seq`` of the last step waiting here (None: none waits, or it has none)."""
        return self._steps[-1].seq if self._steps else None

    def asks_for_move(self) -> bool:
        """A step waiting here already asks for a move of ours: the table catches up at once."""
        return any(step.view.legal_actions for step in self._steps)

    def hold_for(self, step: Step) -> float:
        """How long ``step`` stays on screen before the next one is shown."""
        if self.pace <= 0 or not step.events:
            return 0.0
        own_seat = step.view.seat
        if step.changed.actor is None or step.changed.actor == own_seat:
            return 0.0
        if len(self._steps) > BACKLOG:
            return min(self.pace, BACKLOG_BEAT)
        return self.pace
