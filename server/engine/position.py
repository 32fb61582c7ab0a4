"""A round's state with every card known: what a search plays its rollouts from.

A search bot sees only its ``PlayerView``; it samples the cards it cannot see
(a determinization) and builds a ``Position`` from the view and that sample
(``Position.from_view``). ``Round.from_position`` turns it into a live round
that the fast path (``Round.moves``, ``Round.play``) or the full one (``apply``)
plays on. ``Round.position()`` is the reverse, so a round's state can be
copied, compared and rebuilt.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import chain
from typing import TYPE_CHECKING

from .cards import COLUMNS, ROWS, TABLEAU_SIZE, is_deck_multiset
from .errors import InvalidSetup
from .settings import MAX_PLAYERS, MIN_PLAYERS

if TYPE_CHECKING:
    from .deal import Deal
    from .views import PlayerView

INITIAL_FLIPS = 2


class Phase(str, Enum):
    INITIAL_FLIPS = "initial_flips"  # everyone turns up two cards, at the same time
    CHOOSE = "choose"  # the current player draws or takes the discard
    DRAWN = "drawn"  # the current player holds a drawn card: swap it or discard it
    ROUND_OVER = "round_over"


@dataclass(frozen=True, slots=True)
class Position:
    """A round in progress (not over), every card known.

    The number of initial flips made and the turns left after the round was
    closed are not stored: they follow from ``face_up`` and from ``current``
    and ``closer``.
    """

    tableaux: tuple[tuple[int, ...], ...]  # per seat 12 cards, pos = column*3 + row
    face_up: tuple[tuple[bool, ...], ...]  # per seat 12 flags
    removed_columns: tuple[tuple[int, ...], ...]  # per seat; their cards in tableaux are ignored
    discard: tuple[int, ...]  # the discard pile, bottom first: its last card is the top
    pile: tuple[int, ...]  # the draw pile, top first
    phase: Phase
    current: int | None = None  # whose turn (None during the initial flips)
    drawn: int | None = None  # the card held in Phase.DRAWN
    closer: int | None = None  # who closed the round, if anyone has
    previous_closer: int | None = None  # the starter rule "closer-starts" reads it

    @classmethod
    def dealt(cls, deal: Deal, previous_closer: int | None = None) -> Position:
        """The position a deal starts: every card face down, the initial flips to make."""
        players = len(deal.tableaux)
        return cls(
            deal.tableaux,
            ((False,) * TABLEAU_SIZE,) * players,
            ((),) * players,
            (deal.discard,),
            deal.pile,
            Phase.INITIAL_FLIPS,
            previous_closer=previous_closer,
        )

    @classmethod
    def from_view(
        cls,
        view: PlayerView,
        face_down: Sequence[Sequence[int]],
        pile: Sequence[int],
        discard: Sequence[int],
        previous_closer: int | None = None,
    ) -> Position:
        """The view's table with its unseen cards filled in by a sample.

        ``face_down[seat]`` gives the cards of that seat's face-down cards still
        on the table, in position order; ``pile`` the draw pile (top first, as
        many cards as ``view.pile_size``); ``discard`` the whole discard pile
        (bottom first, ending with ``view.discard_top``). Cards of removed
        columns are set to 0 (they are ignored).
        """
        tableaux, face_up = [], []
        for seat, tableau in enumerate(view.tableaux):
            hidden = iter(face_down[seat])
            gone = tableau.removed_columns
            cards = [
                0 if pos // ROWS in gone else next(hidden) if card is None else card
                for pos, card in enumerate(tableau.cards)
            ]
            tableaux.append(tuple(cards))
            # A removed column left face up: it took three face-up cards.
            face_up.append(
                tuple(
                    card is not None or pos // ROWS in gone
                    for pos, card in enumerate(tableau.cards)
                )
            )
        return cls(
            tuple(tableaux),
            tuple(face_up),
            tuple(t.removed_columns for t in view.tableaux),
            tuple(discard),
            tuple(pile),
            Phase(view.phase),
            view.current_player,
            view.drawn_card,
            view.closer,
            previous_closer,
        )

    @property
    def players(self) -> int:
        return len(self.tableaux)

    def check(self) -> None:
        """Raise ``InvalidSetup`` unless this could be a moment of a real round."""
        players = self.players
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise InvalidSetup(f"a round is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
        if len(self.face_up) != players or len(self.removed_columns) != players:
            raise InvalidSetup("tableaux, face-up flags and removed columns must be per seat")
        if any(len(t) != TABLEAU_SIZE for t in chain(self.tableaux, self.face_up)):
            raise InvalidSetup("each tableau holds 12 cards")
        if not self.discard:
            raise InvalidSetup("the discard pile holds at least its top card")
        self._check_phase()
        if not is_deck_multiset(self._cards_in_play()):
            raise InvalidSetup("a position must hold exactly the 150 cards of the deck")

    def _cards_in_play(self) -> list[int]:
        live = [
            card
            for tableau, gone in zip(self.tableaux, self.removed_columns, strict=True)
            for pos, card in enumerate(tableau)
            if pos // ROWS not in gone
        ]
        held = [] if self.drawn is None else [self.drawn]
        return [*live, *self.discard, *self.pile, *held]

    def _check_phase(self) -> None:
        seats = range(self.players)
        if any(c not in range(COLUMNS) for gone in self.removed_columns for c in gone):
            raise InvalidSetup("a removed column is one of 0..3")
        if self.closer is not None and self.closer not in seats:
            raise InvalidSetup("the closer must be a seat")
        if self.phase is Phase.INITIAL_FLIPS:
            if self.current is not None or self.closer is not None or self.drawn is not None:
                raise InvalidSetup("during the initial flips nobody has a turn")
            if any(sum(up) > INITIAL_FLIPS for up in self.face_up) or any(self.removed_columns):
                raise InvalidSetup("during the initial flips each seat has at most two cards up")
            if all(sum(up) == INITIAL_FLIPS for up in self.face_up):
                raise InvalidSetup("once every seat has flipped two cards, a turn has begun")
            return
        if self.phase is Phase.ROUND_OVER:
            raise InvalidSetup("a position is a round in progress")
        if self.current not in seats:
            raise InvalidSetup("the current player must be a seat")
        if (self.drawn is None) != (self.phase is Phase.CHOOSE):
            raise InvalidSetup("a drawn card is held in the drawn phase only")
        if self.closer is not None and (
            self.closer == self.current or not all(self._live_face_up(self.closer))
        ):
            raise InvalidSetup("the closer has every card up and has played its turn")

    def _live_face_up(self, seat: int) -> list[bool]:
        gone = self.removed_columns[seat]
        return [up for pos, up in enumerate(self.face_up[seat]) if pos // ROWS not in gone]
