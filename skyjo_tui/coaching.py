"""The coach's words: a move and why, from the server's structured ``hint``, and a review's.

Pure (no Textual). The server says which move is best and how many points
the others give away (docs/protocol.md, *The coach*); this module puts that
into the player's language with the cards of their own view, and says which
card of the board to mark.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from server.bots.review import ReviewedMove
from server.engine import Action, ActionKind, PlayerView
from server.engine.movelog import REASONS, Standin

from .i18n import Translator
from .names import level_name

#: Below this many points, two moves are said to be about as good.
CLOSE_CALL = 0.5


@dataclass(frozen=True, slots=True)
class Hint:
    """The best move of one view, and the strongest other kind of move with its cost."""

    move: Action
    alternative: Action | None
    given_away: float  # what the alternative is expected to cost against the move

    @classmethod
    def from_wire(cls, data: Mapping[str, Any]) -> Hint:
        alternative = data.get("alternative")
        return cls(
            Action.from_dict(data["move"]),
            None if alternative is None else Action.from_dict(alternative["move"]),
            0.0 if alternative is None else float(alternative["given_away"]),
        )


def move_words(action: Action, view: PlayerView, tr: Translator) -> str:
    """``action`` as advice to the player of ``view``: "Take the 3 and put it on your
    hidden card in column 2"."""
    kind, pos = action.kind, action.pos
    if kind is ActionKind.DRAW or pos is None:
        return tr("hint.draw")
    column = pos // 3 + 1
    if kind is ActionKind.FLIP:
        return tr("hint.flip", column=column)
    card = view.discard_top if kind is ActionKind.TAKE_DISCARD else view.drawn_card
    if kind is ActionKind.DISCARD_AND_FLIP:
        return tr("hint.discard_flip", card=card, column=column)
    assert view.seat is not None
    covered = view.tableaux[view.seat].cards[pos]
    target = tr("hint.hidden_card") if covered is None else str(covered)
    key = "hint.take" if kind is ActionKind.TAKE_DISCARD else "hint.swap"
    return tr(key, card=card, target=target, column=column)


def alternative_words(hint: Hint, view: PlayerView, tr: Translator) -> str:
    """What the best move is better than, in a few words ("drawing", "discarding it")."""
    other = hint.alternative
    if other is None:
        return ""
    if other.kind is hint.move.kind:
        return tr("hint.alt.elsewhere")
    return tr(f"hint.alt.{other.kind.value}", card=view.discard_top)


def hint_text(hint: Hint, view: PlayerView, tr: Translator) -> str:
    """The whole hint line: the move, then why."""
    move = move_words(hint.move, view, tr)
    if hint.move.kind is ActionKind.FLIP:  # nothing is known yet: every first card is alike
        return tr("hint.line", move=move, why=tr("hint.flip_why"))
    if hint.alternative is None:
        return tr("hint.only", move=move)
    than = alternative_words(hint, view, tr)
    points = round(hint.given_away)
    if hint.given_away < CLOSE_CALL or points == 0:
        why = tr("hint.close", alternative=than)
    else:
        why = tr.plural("hint.better", points, alternative=than)
    return tr("hint.line", move=move, why=why)


def hint_marks(action: Action, view: PlayerView) -> tuple[frozenset[int], frozenset[str]]:
    """Which of the player's cards, and which piles, the board marks for ``action``."""
    piles: set[str] = set()
    if action.kind is ActionKind.DRAW:
        piles.add("draw")
    elif action.kind in (ActionKind.TAKE_DISCARD, ActionKind.DISCARD_AND_FLIP):
        piles.add("discard")
    cards = frozenset() if action.pos is None else frozenset({action.pos})
    return cards, frozenset(piles)


def review_summary(
    costly: int, points: float, tr: Translator, *, standins: int = 0, name: str = ""
) -> str:
    """ "3 costly moves, 11 points given away", and how many moves a bot played for
    ``name`` (not counted in either): "· 4 moves played by a bot for Ann: not counted"."""
    given_away = tr.plural("review.given_away", round(points))
    summary = tr("review.summary", costly=tr.plural("review.costly", costly), given_away=given_away)
    if standins:
        summary += " · " + tr.plural("review.standins", standins, name=name)
    return summary


def given_away_text(points: float, tr: Translator) -> str:
    """What a reviewed move gave away, to a tenth: "1.3", "0.0" for the best move itself, but
    "<0.1" for a move a little worse than the best, which "0.0" beside another best move
    would say is no worse at all."""
    if 0 < points < 0.05:
        return "<" + tr.decimal(0.1)
    return tr.decimal(points)


def standin_words(standin: Standin, name: str, tr: Translator, *, yours: bool = False) -> str:
    """Who chose a move for ``name``, and why: "The expert bot played for Ann while they
    were away" (a reason from a newer server: just who played); ``yours``: the move was
    the reader's ("Your time ran out, so the expert bot played for you")."""
    reason = standin.reason if standin.reason in REASONS else "other"
    return tr.about(f"review.standin.{reason}", yours, bot=level_name(standin.bot, tr), name=name)


def review_line(move: ReviewedMove, name: str, tr: Translator) -> str:
    """One reviewed move in a sentence: what was played, what was best, what it cost;
    a stand-in's move: who played it, and that it is not counted."""
    played = move_words(move.played, move.view, tr)
    where = {"name": name, "round": move.round, "turn": move.turn, "played": played}
    if move.standin is not None:
        return tr("review.line_standin", standin=standin_words(move.standin, name, tr), **where)
    if move.given_away < CLOSE_CALL:
        return tr("review.line_good", **where)
    best = move_words(move.best, move.view, tr)
    points = round(move.given_away, 1)  # as written: "1.0 point", "1.5 points" ("1,5 point")
    given_away = tr.plural("review.given_away", points, shown=tr.decimal(points))
    return tr("review.line", best=best, given_away=given_away, **where)
