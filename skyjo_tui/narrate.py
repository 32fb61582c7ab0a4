"""Events told in words ("Alice took the 3 and replaced a hidden 11").

Pure functions over the engine's public events: no Textual, no I/O. Each
action's events arrive as one batch; a batch becomes one or a few log lines,
and ``touched`` says which cards to highlight while the move is shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from server.engine.events import (
    CardDrawn,
    CardExchanged,
    CardFlipped,
    CardRevealed,
    ColumnRemoved,
    DiscardTaken,
    DrawnCardDiscarded,
    Event,
    PileReshuffled,
    RoundClosed,
    RoundScored,
    RoundStarted,
    TotalsUpdated,
)

from .i18n import Translator


def describe(
    events: Sequence[Event], names: Sequence[str], tr: Translator, own: int | None = None
) -> list[str]:
    """The log lines for events in order: one action's, or a whole round's so far.

    ``own`` is the viewer's seat: lines about it are in the second person ("You drew a 5").
    """
    lines: list[str] = []
    took: set[int] = set()  # players whose card in hand came from the discard pile
    reveals: dict[int, list[int]] = {}
    for event in events:
        if isinstance(event, DiscardTaken):
            took.add(event.player)
        elif isinstance(event, CardDrawn):
            took.discard(event.player)
        if isinstance(event, CardRevealed):
            reveals.setdefault(event.player, []).append(event.value)
            continue
        if reveals:
            lines.extend(_reveal_lines(reveals, names, tr, own))
            reveals = {}
        line = _describe_one(event, names, tr, took, own)
        if line:
            lines.append(line)
    lines.extend(_reveal_lines(reveals, names, tr, own))
    return lines


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


def _describe_one(
    event: Event, names: Sequence[str], tr: Translator, took: set[int], own: int | None
) -> str:
    """One event's line, or "" for events the log leaves to the rest of the screen."""

    def about(key: str, seat: int, **values: object) -> str:
        return tr.about(key, seat == own, who=_name(names, seat), **values)

    match event:
        case RoundStarted(round=number, discard_top=value):
            return tr("log.round_started", round=number, a_value=tr.a(value))
        case CardFlipped(player=p, value=value, initial=True):
            return about("log.initial_flip", p, a_value=tr.a(value))
        case CardFlipped(player=p, value=value):
            return about("log.turned_up", p, a_value=tr.a(value))
        case CardDrawn(player=p, value=value):
            return about("log.drew", p, a_value=tr.a(value))
        case DrawnCardDiscarded(player=p, value=value):
            return about("log.discarded", p, value=value)
        case CardExchanged(player=p, value=value, replaced=old, replaced_was_face_up=up):
            verb = "took" if p in took else "kept"
            key = f"log.{verb}_replaced_{'shown' if up else 'hidden'}"
            return about(key, p, value=value, old=old)
        case ColumnRemoved(player=p, value=value):
            return about("log.column_removed", p, value=value)
        case PileReshuffled(pile_size=size):
            return tr.plural("log.reshuffled", size)
        case RoundClosed(player=p):
            return about("log.closed", p)
        case RoundScored(final_scores=final, closer=closer, closer_doubled=True):
            return about("log.closer_doubled", closer, score=final[closer])
        case RoundScored():
            return tr("log.round_over")
        case TotalsUpdated(game_over=True, winners=winners):
            return winners_sentence(
                tr, "log.game_won", [_name(names, w) for w in winners if w != own], own in winners
            )
    return ""


def winners_sentence(tr: Translator, key: str, others: list[str], you: bool) -> str:
    """Who won, by ``key``: ``key.you`` (you alone), ``key.with_you`` (you and ``others``),
    else ``key.one`` / ``key.other``."""
    if you:
        return tr(f"{key}.with_you", who=tr.join_names(others)) if others else tr(f"{key}.you")
    return tr.plural(key, len(others), who=tr.join_names(others))


def _reveal_lines(
    reveals: dict[int, list[int]], names: Sequence[str], tr: Translator, own: int | None
) -> list[str]:
    return [
        tr.about(
            "log.revealed", p == own, who=_name(names, p), values=", ".join(str(v) for v in values)
        )
        for p, values in reveals.items()
    ]


@dataclass(frozen=True, slots=True)
class Touched:
    """What one batch of events changed, for a short highlight."""

    cards: frozenset[tuple[int, int]] = field(default_factory=frozenset)  # (seat, pos)
    columns: frozenset[tuple[int, int]] = field(default_factory=frozenset)  # (seat, column)
    draw_pile: bool = False
    discard_pile: bool = False
    actor: int | None = None


def touched(events: Sequence[Event]) -> Touched:
    cards: set[tuple[int, int]] = set()
    columns: set[tuple[int, int]] = set()
    draw = discard = False
    actor: int | None = None
    for event in events:
        match event:
            case CardFlipped(player=p, pos=pos) | CardRevealed(player=p, pos=pos):
                cards.add((p, pos))
                actor = p if actor is None else actor
            case CardExchanged(player=p, pos=pos):
                cards.add((p, pos))
                discard, actor = True, p
            case CardDrawn(player=p):
                draw, actor = True, p
            case DiscardTaken(player=p) | DrawnCardDiscarded(player=p):
                discard, actor = True, p
            case ColumnRemoved(player=p, column=column):
                columns.add((p, column))
            case PileReshuffled():
                draw = discard = True
    return Touched(frozenset(cards), frozenset(columns), draw, discard, actor)
