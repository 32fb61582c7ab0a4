"""From a ``PlayerView`` to what the table widgets draw: plain data, in words.

Pure (no Textual): the table screen and the replay screen both call
``present`` and hand the result to the board widget, which only draws it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from rich.cells import cell_len

from server.engine import PlayerView, TableauView, ViewPhase

from .i18n import Translator
from .names import SeatInfo, seat_names
from .narrate import Touched
from .seat_line import CLOSER_MARK, SeatLine
from .table.choices import TAP_PROMPTS, Choices, Mode, prompt_key
from .table.cursor import Target

#: The room a name line keeps for the name before it says the scores in words.
NAME_ROOM: Final = 12
#: Points as wide as the name lines keep room for, whatever the points are now.
STEADY_POINTS: Final = 10


def rating_text(value: Any) -> str:
    """A rating as the server sends it (``mu - 3 sigma``, rounded); "-" before any rated game."""
    return str(value) if type(value) is int else "-"


@dataclass(frozen=True, slots=True)
class PilesState:
    """What the piles show (``widgets.piles.PilesWidget`` draws it)."""

    pile_size: int
    discard_top: int | None
    drawn: int | None
    draw_label: str  # already translated, e.g. "Pile 87"
    discard_label: str
    drawn_labels: tuple[str, ...]  # over the drawn card, longest first: the first that fits
    draw_word: str = ""  # "Pile": the label when "Pile 87" is too long (87 then goes on the pile)


@dataclass(frozen=True, slots=True)
class BoardModel:
    own_seat: int | None
    others: tuple[int, ...]  # the other seats, in play order after yours
    tableaux: tuple[TableauView, ...]
    lines: tuple[SeatLine, ...]
    own_targets: frozenset[int] | None
    cursor: Target | None
    highlights: Mapping[int, frozenset[int]]
    piles: PilesState
    piles_active: frozenset[str] | None
    piles_highlight: frozenset[str]
    status: str
    prompt: str
    your_move: bool = False
    own_hint: frozenset[int] = frozenset()  # your cards the coach's hint is about
    piles_hint: frozenset[str] = frozenset()  # and its piles
    empty: frozenset[int] = field(default_factory=frozenset)
    revealed: Mapping[int, frozenset[int]] = field(
        default_factory=dict
    )  # seat -> face-down cards shown


def present(
    view: PlayerView,
    seats: Sequence[SeatInfo],
    tr: Translator,
    *,
    mode: Mode = Mode.NORMAL,
    cursor: Target | None = None,
    changed: Touched | None = None,
    keys: Mapping[str, str] | None = None,
    timer: str = "",
    prompt: str | None = None,
    touch: bool = False,
    covered: bool = False,
) -> BoardModel:
    """Everything the board shows for ``view``, with ``changed`` highlighted; ``touch``:
    the prompt says what to tap rather than which keys to press; ``covered``: a dialog
    is over the board (its own words to tap are in its footer)."""
    choices = Choices.from_view(view)
    mode = choices.valid_mode(mode)
    names = seat_names(seats, len(view.tableaux), tr)
    changed = changed or Touched()
    return BoardModel(
        own_seat=view.seat,
        others=other_seats(view.seat, len(view.tableaux)),
        tableaux=view.tableaux,
        lines=_seat_lines(view, seats, tr),
        own_targets=_own_targets(choices, mode),
        cursor=cursor if choices.any else None,
        highlights=_highlights(changed),
        piles=_piles(view, seats, names, tr, taking=mode is Mode.TAKE),
        piles_active=_active_piles(choices, mode),
        piles_highlight=_pile_highlight(changed),
        status=_status(view, names, tr, timer),
        prompt=prompt
        if prompt is not None
        else _prompt(view, choices, mode, names, tr, keys or {}, touch, covered=covered),
        your_move=choices.any,
    )


def other_seats(own: int | None, players: int) -> tuple[int, ...]:
    """The seats to show as opponents: in play order, starting after yours."""
    if own is None:
        return tuple(range(players))
    return tuple((own + step) % players for step in range(1, players))


def _own_targets(choices: Choices, mode: Mode) -> frozenset[int] | None:
    """The cards a choice would play, or None when no card is to be chosen now."""
    if not choices.any:
        return None
    if mode is Mode.NORMAL and (choices.draw or choices.take):
        return None  # draw a card or take the discard first
    return choices.targets(mode)


def _seat_lines(
    view: PlayerView, seats: Sequence[SeatInfo], tr: Translator
) -> tuple[SeatLine, ...]:
    """Every seat's name line, each saying its scores in the same form for a given width."""
    lines = [_seat_line(view, seats, s, tr) for s in range(len(view.tableaux))]

    def room(name: int, tags: bool = False) -> int:  # 0: the whole names; -1: the short ones
        return max(
            cell_len(line.names()[name])
            + (len(CLOSER_MARK) if line.closer else 0)
            + (1 + cell_len(line.tag) if tags and line.tag else 0)
            for line in lines
        )

    # A round's points go from one digit to two and back from turn to turn: the room kept
    # for them is at least two digits' (``STEADY_POINTS``), so that a name does not change
    # form ("Casual bot 1", "Casual 1") each time they do.
    steady = [
        replace(line, visible=STEADY_POINTS, scores=_score_words(tr, STEADY_POINTS, line.total))
        for line in lines
    ]
    forms = zip(*(line.score_texts() for line in (*lines, *steady)), strict=True)
    widths = tuple(max(len(text) for text in form) for form in forms)
    return tuple(
        replace(
            line,
            score_widths=widths,
            # With their marks: one who is away or left is said so, the scores in fewer
            # words at every seat if need be (a watcher's narrow columns dropped the mark).
            name_room=min(NAME_ROOM, room(-1, tags=True)),
            whole_names_room=room(0),
        )
        for line in lines
    )


def _seat_line(view: PlayerView, seats: Sequence[SeatInfo], seat: int, tr: Translator) -> SeatLine:
    info = seats[seat] if seat < len(seats) else SeatInfo(f"#{seat + 1}")
    # Bots are named by their level already.
    tag = tr("seat.left") if info.left else tr("seat.away") if info.away else ""
    if view.round_scores is not None:
        points = view.round_scores[seat]
    else:
        points = view.tableaux[seat].visible_score
    total = view.totals[seat]
    return SeatLine(
        name=info.shown(tr),
        short=info.short(tr),
        visible=points,
        total=total,
        tag=tag,
        current=view.current_player == seat,
        closer=view.closer == seat,
        you=view.seat == seat,
        scores=_score_words(tr, points, total),
    )


def _score_words(tr: Translator, points: int, total: int) -> tuple[str, str]:
    """A seat's scores in words, longest first ("5 pts · total 23", "5 pts · Σ23"; "1 pt",
    and "-1 pt": a point less is one point too)."""
    return (
        tr.plural("seat.scores_long", abs(points), points=points, total=total),
        tr.plural("seat.scores", abs(points), points=points, total=total),
    )


def _highlights(changed: Touched) -> dict[int, frozenset[int]]:
    by_seat: dict[int, set[int]] = {}
    for seat, pos in changed.cards:
        by_seat.setdefault(seat, set()).add(pos)
    return {seat: frozenset(cards) for seat, cards in by_seat.items()}


def _piles(
    view: PlayerView,
    seats: Sequence[SeatInfo],
    names: list[str],
    tr: Translator,
    *,
    taking: bool = False,
) -> PilesState:
    return PilesState(
        pile_size=view.pile_size,
        discard_top=view.discard_top,
        drawn=view.drawn_card,
        draw_label=tr("piles.draw", count=view.pile_size),
        discard_label=tr("piles.discard"),
        # While we take the discard (t, then a card), the slot says so, not "nothing drawn".
        drawn_labels=(tr("piles.taking", value=view.discard_top), tr("piles.taking_short"))
        if taking
        else _drawn_labels(view, seats, names, tr),
        draw_word=tr("piles.draw_word"),
    )


def _drawn_labels(
    view: PlayerView, seats: Sequence[SeatInfo], names: list[str], tr: Translator
) -> tuple[str, ...]:
    """Over the drawn card: who drew it, in as many words as fit."""
    drawer = view.current_player
    if view.drawn_card is None or drawer is None:
        return (tr("piles.no_drawn"), tr("piles.none"))
    if drawer == view.seat:
        return (tr("piles.you_drew"), tr("piles.drawn"))
    short = seats[drawer].short(tr) if drawer < len(seats) else names[drawer]
    return (
        tr("piles.drawn_by", who=names[drawer]),
        tr("piles.drawn_by", who=short),
        tr("piles.drawn"),
    )


def _active_piles(choices: Choices, mode: Mode) -> frozenset[str] | None:
    if not choices.any or choices.flip:
        return None
    if mode is not Mode.NORMAL:
        return frozenset({"discard"})
    active = {"draw"} if choices.draw else set()
    if choices.take or choices.discard_flip:
        active.add("discard")
    return frozenset(active)


def _pile_highlight(changed: Touched) -> frozenset[str]:
    names = {"draw"} if changed.draw_pile else set()
    if changed.discard_pile:
        names.add("discard")
    return frozenset(names)


def _status(view: PlayerView, names: list[str], tr: Translator, timer: str) -> str:
    parts = [tr("status.round", round=view.round)]
    if view.phase is ViewPhase.INITIAL_FLIPS:
        parts.append(tr("status.initial_flips"))
    elif view.phase.turns and view.current_player is not None:
        whose = (
            tr("status.your_turn")
            if view.current_player == view.seat
            else tr("status.turn_of", who=names[view.current_player])
        )
        parts.append(whose)
        if view.closer is not None:
            parts.append(
                tr.about("status.last_turns", view.closer == view.seat, who=names[view.closer])
            )
    elif view.phase is ViewPhase.ROUND_OVER:
        parts.append(tr("status.round_over"))
    elif view.phase is ViewPhase.GAME_OVER:
        parts.append(tr("status.game_over"))
    if timer:
        parts.append(timer)
    return " · ".join(parts)


def _prompt(
    view: PlayerView,
    choices: Choices,
    mode: Mode,
    names: list[str],
    tr: Translator,
    keys: Mapping[str, str],
    touch: bool,
    *,
    covered: bool,
) -> str:
    key = prompt_key(choices, mode)
    if key:
        return tr(
            TAP_PROMPTS[key] if touch else key,
            discard=view.discard_top,
            a_drawn=tr.a(view.drawn_card) if view.drawn_card is not None else "",
            **{f"{name}_key": display for name, display in keys.items()},
        )
    return _waiting(view, names, tr, keys, touch, covered=covered)


def _waiting(
    view: PlayerView,
    names: list[str],
    tr: Translator,
    keys: Mapping[str, str],
    touch: bool,
    *,
    covered: bool,
) -> str:
    # Over, the round's summary or the game's end is one key away: the prompt says which
    # (on a touch screen, the footer's word to tap; under that dialog, whose footer has no
    # such word, just that it is over).
    if view.phase.over:
        key = f"prompt.{view.phase}"
        if touch and covered:
            return tr(f"prompt.covered.{view.phase}")
        if touch:
            return tr(TAP_PROMPTS[key], scores=tr("keys.scores"))
        return tr(key, summary_key=keys.get("summary", "s"))
    if view.seat is None:
        return tr("prompt.spectating")
    if view.phase is ViewPhase.INITIAL_FLIPS:
        return tr("prompt.wait_flips")
    if view.current_player is not None:
        return tr("prompt.waiting_for", who=names[view.current_player])
    return ""
