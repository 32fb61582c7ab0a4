"""Our move on its way to the server, and the move keys pressed meanwhile.

A move is in flight from the key that sends it until the update that shows
it played is on screen. The server's answer (``{"seq": n}``) is not enough:
the update it caused (a ``game`` push with ``seq >= n``) was sent before it
but may be shown after it, and until then the board still shows the view the
move was chosen in. Judging keys against that view, or offering its choices
again ("Your turn: ..."), would act on a turn that is already played.

Keys pressed while a move is in flight are kept, in order, and played against
the update that shows it. Pure: the table screen owns the Textual side.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Final

from .cursor import Target

#: Move keys kept while a move of ours is on its way (a quick second flip, say);
#: beyond this many, a key rings the bell instead.
MAX_KEPT_KEYS: Final = 3


@dataclass(frozen=True, slots=True)
class KeptKey:
    move: str  # "choose", "draw", "take" or "discard"
    target: Target  # the cursor when the key was pressed


class MoveInFlight:
    """Whether a move of ours awaits its update, and the keys kept meanwhile."""

    def __init__(self) -> None:
        self._sent = False
        self._answer_seq: int | None = None  # known once the server has answered
        self._keys: deque[KeptKey] = deque()

    @property
    def active(self) -> bool:
        """True from sending a move until the update that shows it is on screen."""
        return self._sent

    def __len__(self) -> int:
        return len(self._keys)

    def sent(self) -> None:
        self._sent, self._answer_seq = True, None

    def answered(self, seq: int | None, shown_seq: int | None) -> None:
        """The server stored our move as ``seq``; ``shown_seq`` is the update on screen now."""
        if seq is None or (shown_seq is not None and shown_seq >= seq):
            self._land()
        else:
            self._answer_seq = seq

    def refused(self) -> None:
        """The move was not played: the keys pressed after it no longer fit."""
        self._land()
        self._keys.clear()

    def shown(self, seq: int | None) -> None:
        """An update is on screen: the move has landed if it is that recent.

        An update without a ``seq`` (a table shown on its own) counts as recent.
        """
        if self._answer_seq is not None and (seq is None or seq >= self._answer_seq):
            self._land()

    def _land(self) -> None:
        self._sent, self._answer_seq = False, None

    def keep(self, move: str, target: Target) -> bool:
        """Keep a move key for later; False when too many are kept already."""
        if len(self._keys) >= MAX_KEPT_KEYS:
            return False
        self._keys.append(KeptKey(move, target))
        return True

    def next_key(self) -> KeptKey | None:
        return self._keys.popleft() if self._keys else None

    def drop_keys(self) -> None:
        self._keys.clear()
