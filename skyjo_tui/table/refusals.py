"""Why a key of the table does nothing now, in the player's words.

A move key whose binding is off (not your turn, nothing drawn yet, the
connection is down) would do nothing at all; the table says why instead,
for a moment, in its prompt line. Pure: no Textual.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from server.engine import PlayerView, ViewPhase
from server.engine.cards import ROWS

from ..i18n import Translator
from ..names import SeatInfo, seat_names
from .choices import Choices, Mode
from .cursor import Target


def refusal_key(
    action: str,
    choices: Choices,
    phase: ViewPhase,
    spectator: bool,
    link: str = "online",
    mode: Mode = Mode.NORMAL,
) -> str | None:
    """The locale key saying why a key of the table does nothing now (None: say nothing).

    ``action`` is the table's action name: "draw", "take", "discard" or "choose";
    ``link`` the connection's state ("online", "reconnecting", "offline"); ``mode`` the
    table's (a discard being taken keeps the turn to it: the rules oblige the exchange).
    """
    if spectator:
        return "refused.watching"
    if link != "online":
        return f"refused.{link}"
    if not choices.any:
        if phase.over:
            return f"refused.{phase}"
        return "refused.wait_flips" if phase is ViewPhase.INITIAL_FLIPS else "refused.not_your_turn"
    if choices.flip:
        return "refused.flip_first"
    if choices.holding_drawn:
        if action == "discard":
            return "refused.no_face_down"
        return "refused.already_drew"
    if mode is Mode.TAKE and action in ("draw", "take"):
        return "refused.taking"
    if action in ("discard", "choose"):
        return "refused.draw_first"
    return None


def target_refusal_key(
    target: Target, mode: Mode, view: PlayerView, link: str = "online"
) -> str | None:
    """Why choosing ``target`` (one of our cards, or a pile) does nothing in ``mode``."""
    choices = Choices.from_view(view)
    general = refusal_key("choose", choices, view.phase, view.seat is None, link)
    if target == "draw" and general == "refused.already_drew":
        return "refused.already_drew_pile"  # ⏎ was pressed on the pile: say where it works
    if view.seat is None or link != "online" or not choices.any or isinstance(target, str):
        return general
    if target // ROWS in view.tableaux[view.seat].removed_columns:
        return "refused.no_card"
    if choices.flip or mode is Mode.DISCARD:  # a face-down card is wanted, and this one is face up
        return "refused.face_up"
    return general


#: The refusals that name keys, in a touch screen's words: what to tap instead.
TAP_REFUSALS: Final = {
    "refused.flip_first": "refused.tap.flip_first",
    "refused.no_face_down": "refused.tap.no_face_down",
    "refused.already_drew": "refused.tap.already_drew",
    "refused.already_drew_pile": "refused.tap.already_drew",
    "refused.draw_first": "refused.tap.draw_first",
    "refused.taking": "refused.tap.taking",
    "refused.round_over": "refused.tap.round_over",
    "refused.game_over": "refused.tap.game_over",
    "refused.offline": "refused.tap.offline",
}


def refusal_text(
    action: str,
    view: PlayerView,
    seats: Sequence[SeatInfo],
    tr: Translator,
    keys: Mapping[str, str],
    link: str = "online",
    *,
    target: Target | None = None,
    mode: Mode = Mode.NORMAL,
    touch: bool = False,
) -> str:
    """The sentence for ``refusal_key`` (or, choosing ``target``, ``target_refusal_key``;
    "" when there is nothing to say); ``touch``: what to tap rather than which keys."""
    if target is None:
        choices = Choices.from_view(view)
        key = refusal_key(action, choices, view.phase, view.seat is None, link, mode)
    else:
        key = target_refusal_key(target, mode, view, link)
    if key is None:
        return ""
    names = seat_names(seats, len(view.tableaux), tr)
    drawn = view.drawn_card
    return tr(
        TAP_REFUSALS.get(key, key) if touch else key,
        scores=tr("keys.scores"),
        leave=tr("keys.leave"),
        who=names[view.current_player] if view.current_player is not None else "",
        drawn=drawn,
        a_drawn=tr.a(drawn) if drawn is not None else "",
        discard=view.discard_top,
        **{f"{name}_key": label for name, label in keys.items()},
    )
