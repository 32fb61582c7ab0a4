"""The name line over a tableau: who, their points this round and their total.

Pure (no Textual): the presenter fills a ``SeatLine`` per seat, the same
"form" for every seat of the table, and the tableau widget asks
``fit_name_line`` what fits its width. The words go first ("5 pts · total
23", then "5 pts · Σ23", then "5 Σ23"), then the name gives way ("Greedy bot
2", then "Greedy 2", then shortened). Widths are in cells, as the terminal
draws them (an emoji or a CJK character takes two).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rich.cells import cell_len

from .names import shorten


@dataclass(frozen=True, slots=True)
class SeatLine:
    """What the name line of a tableau shows, already in the player's language."""

    name: str
    visible: int
    total: int
    tag: str = ""  # "away", ...
    current: bool = False
    closer: bool = False
    you: bool = False
    short: str = ""  # a shorter name for narrow lines ("Greedy 2"); "" for none
    scores: tuple[str, ...] = ()  # the scores in words, longest first ("5 pts · total 23")
    # The same at every seat, so that every name line of the table says its
    # scores in the same form and keeps the same room for the name:
    score_widths: tuple[int, ...] = ()  # the widest text of each form of ``score_texts``
    name_room: int = 0  # the room kept for names before the scores are said in words
    whole_names_room: int = 0  # the room every whole name takes

    def room_for_everything(self) -> int:
        """The room to say every whole name and the scores in the most words."""
        return self.whole_names_room + 1 + (self.score_widths[0] if self.score_widths else 0)

    def names(self) -> tuple[str, ...]:
        return (self.name, self.short) if self.short and self.short != self.name else (self.name,)

    def needs(self) -> tuple[int, ...]:
        """The room each form of ``score_texts`` needs, longest first."""
        return tuple(self.name_room + 1 + width for width in self.score_widths)

    def score_texts(self) -> tuple[str, ...]:
        return (*self.scores, score_digits(self.visible, self.total))


#: The fewest cells a name is shortened to so that its tag ("away") fits beside it.
TAGGED_NAME_MIN: Final = 4
#: After the name of the player who closed the round.
CLOSER_MARK: Final = " ✓"


def score_digits(points: int, total: int) -> str:
    """The shortest way to show the scores: "5 Σ23" (the help explains it)."""
    return f"{points} Σ{total}"


def fit_name_line(
    line: SeatLine, room: int, closer: str = "", tag: str = ""
) -> tuple[str, str, str]:
    """(name, tag, scores) for ``room`` cells: the scores in the table's form for that
    room, then the fullest name that fits (with the closer's mark) beside the tag; the
    name is shortened for the tag, down to ``TAGGED_NAME_MIN`` cells, before the tag goes."""
    scores = line.score_texts()
    form = next((i for i, need in enumerate(line.needs()) if need <= room), len(scores) - 1)
    form = min(form, len(scores) - 1)
    right = " " + scores[form]
    widest = 1 + line.score_widths[form] if form < len(line.score_widths) else len(right)
    left = room - max(widest, len(right)) - cell_len(closer)
    for name in line.names():
        if cell_len(name) + cell_len(tag) <= left:
            return name + closer, tag, right
    if tag and left - cell_len(tag) >= TAGGED_NAME_MIN:
        # That they are away (or left) matters more than their whole name: it gives way.
        return shorten(line.names()[-1], left - cell_len(tag)) + closer, tag, right
    for name in line.names():
        if cell_len(name) <= left:
            return name + closer, "", right
    return shorten(line.names()[-1], max(1, left)) + closer, "", right
