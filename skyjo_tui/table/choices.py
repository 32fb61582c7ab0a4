"""What the viewer may do now, read from ``view.legal_actions`` alone.

The client knows no rule: the server lists the legal moves in every view, and
this module only groups them for the screen (which cards to highlight, what
a key or a click on a card means in the current mode, what the prompt says).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from server.engine import Action, ActionKind, PlayerView


class Mode(str, Enum):
    """What choosing a card of your tableau means right now."""

    NORMAL = "normal"  # initial flip, or exchange the drawn card
    TAKE = "take"  # put the top discard here
    DISCARD = "discard"  # discard the drawn card and turn this one up


@dataclass(frozen=True, slots=True)
class Choices:
    seat: int | None
    flip: frozenset[int] = frozenset()
    draw: bool = False
    take: frozenset[int] = frozenset()
    swap: frozenset[int] = frozenset()
    discard_flip: frozenset[int] = frozenset()

    @classmethod
    def from_view(cls, view: PlayerView) -> Choices:
        by_kind: dict[ActionKind, set[int]] = {kind: set() for kind in ActionKind}
        for action in view.legal_actions:
            by_kind[action.kind].add(-1 if action.pos is None else action.pos)
        return cls(
            seat=view.seat,
            flip=frozenset(by_kind[ActionKind.FLIP]),
            draw=bool(by_kind[ActionKind.DRAW]),
            take=frozenset(by_kind[ActionKind.TAKE_DISCARD]),
            swap=frozenset(by_kind[ActionKind.SWAP_DRAWN]),
            discard_flip=frozenset(by_kind[ActionKind.DISCARD_AND_FLIP]),
        )

    @property
    def any(self) -> bool:
        return bool(self.flip or self.draw or self.take or self.swap or self.discard_flip)

    @property
    def holding_drawn(self) -> bool:
        return bool(self.swap or self.discard_flip)

    def targets(self, mode: Mode) -> frozenset[int]:
        """The positions of your tableau that a choice would play."""
        if mode is Mode.TAKE:
            return self.take
        if mode is Mode.DISCARD:
            return self.discard_flip
        return self.flip | self.swap

    def action_for(self, mode: Mode, pos: int) -> Action | None:
        """The move that choosing ``pos`` makes in ``mode``, if it is legal."""
        if self.seat is None or pos not in self.targets(mode):
            return None
        if mode is Mode.TAKE:
            return Action.take_discard(self.seat, pos)
        if mode is Mode.DISCARD:
            return Action.discard_and_flip(self.seat, pos)
        if pos in self.flip:
            return Action.flip(self.seat, pos)
        return Action.swap_drawn(self.seat, pos)

    def draw_action(self) -> Action | None:
        return Action.draw(self.seat) if self.draw and self.seat is not None else None

    def mode_for_discard_pile(self) -> Mode | None:
        """Choosing the discard pile: take its card, or put the drawn card on it."""
        if self.take:
            return Mode.TAKE
        if self.discard_flip:
            return Mode.DISCARD
        return None

    def valid_mode(self, mode: Mode) -> Mode:
        """``mode`` if it still means something with these choices, else NORMAL."""
        return mode if mode is Mode.NORMAL or self.targets(mode) else Mode.NORMAL


#: The prompts in a touch screen's words (the page's, on a phone or a tablet): what to tap,
#: not which key to press.
TAP_PROMPTS: Final = {
    "prompt.initial_flip": "prompt.tap.initial_flip",
    "prompt.your_turn": "prompt.tap.your_turn",
    "prompt.drawn": "prompt.tap.drawn",
    "prompt.drawn_no_flip": "prompt.tap.drawn_no_flip",
    "prompt.place_discard": "prompt.tap.place_discard",
    "prompt.choose_flip": "prompt.tap.choose_flip",
    "prompt.round_over": "prompt.tap.round_over",
    "prompt.game_over": "prompt.tap.game_over",
}


def prompt_key(choices: Choices, mode: Mode) -> str:
    """The locale key of the line that says what you can do now."""
    if mode is Mode.TAKE:
        return "prompt.place_discard"
    if mode is Mode.DISCARD:
        return "prompt.choose_flip"
    if choices.flip:
        return "prompt.initial_flip"
    if choices.draw or choices.take:
        return "prompt.your_turn"
    if choices.holding_drawn:
        return "prompt.drawn" if choices.discard_flip else "prompt.drawn_no_flip"
    return ""
