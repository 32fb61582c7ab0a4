"""How big the cards are at a given terminal size: a pure plan the table screen applies.

The rows of the table screen, top to bottom: a status bar, the opponents in
bands, the middle (piles, your tableau, the log), the prompt line, the footer.
The plan picks the largest cards that fit, yours at least as large as the
others'; when even the smallest cards do not fit, there is no plan and the
screen says the terminal is too small. The rows the cards leave over go to the
log, and to the prompt when its words need more than one row (a hint does at
80 columns); the cards are never made smaller for the prompt.

A phone held upright (a terminal narrower than the landscape plan needs for
boxed cards beside the log, and taller than wide) gets the portrait plan
instead: the opponents above (``PORTRAIT_OTHERS``), the log in the rows left over, and at the bottom,
within a thumb's reach, the piles beside your cards, each big enough to tap
(``TAP_SIZES``: 7 cells by 3 rows is about 49x45 CSS pixels in the page).

A phone on its side (wide and short, as 97x18) with many opponents would have
the landscape plan draw your cards one row high, too small for a finger: there
the opponents are their name lines only (``SUMMARY``: their points, a few to a
row), so that your cards and the piles stay boxed (6 cells by 3 rows is about
53x60 CSS pixels on a phone on its side).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil
from typing import Final


@dataclass(frozen=True, slots=True)
class CardSize:
    width: int
    height: int
    gap: int  # columns between two cards

    @property
    def boxed(self) -> bool:
        return self.height >= 3


#: From the smallest to the largest.
CARD_SIZES: Final[tuple[CardSize, ...]] = (
    CardSize(4, 1, 0),
    CardSize(6, 3, 1),
    CardSize(8, 5, 1),
    CardSize(11, 7, 1),
)
COLUMNS: Final = 4
ROWS: Final = 3
FIXED_ROWS: Final = 3  # status bar, prompt line, footer
SIDE_MIN_WIDTH: Final = 24  # the log of moves and chat
BLOCK_PADDING: Final = 2  # one column each side of a tableau
#: Screens without cards (menus, lobby) need at least this much.
MENU_MIN_SIZE: Final = (60, 18)
#: Your cards in the portrait plan, largest first: each at least 7 cells by 3 rows, a
#: fingertip's 44x44 CSS pixels with the page's cell of about 7x15.
TAP_SIZES: Final[tuple[CardSize, ...]] = (CardSize(8, 5, 1), CardSize(7, 3, 1))
#: An opponent as a name line without cards (their points): a phone on its side at a full
#: table, where cards for everyone would leave yours too small to tap. As wide as a
#: name line that says the points.
SUMMARY: Final = CardSize(5, 0, 0)
#: The opponents' cards in the portrait plan, largest first: between the landscape plan's
#: 6x3 and its 4x1, boxed cards 4 cells wide side by side (three opponents across 60
#: columns), so that the rows a one-row card would leave empty over the log show the
#: others' cards framed instead.
PORTRAIT_OTHERS: Final[tuple[CardSize, ...]] = (
    *reversed(CARD_SIZES[1:]),
    CardSize(4, 3, 0),
    CARD_SIZES[0],
)
#: The log's rows the portrait plan keeps at least, above the piles (the latest moves).
PORTRAIT_LOG_ROWS: Final = 5
#: A cell is about twice as tall as it is wide: a terminal of w x h cells is taller
#: than wide, as a phone held upright, when ``h * CELL_ASPECT >= w``.
CELL_ASPECT: Final = 2


def tableau_width(card: CardSize) -> int:
    return COLUMNS * card.width + (COLUMNS - 1) * card.gap + BLOCK_PADDING


def tableau_height(card: CardSize) -> int:
    return 1 + ROWS * card.height  # the name line, then the cards


def piles_width(card: CardSize) -> int:
    return 2 * card.width + 3 + BLOCK_PADDING  # draw pile and discard side by side


def piles_height(card: CardSize) -> int:
    return 2 * (1 + card.height)  # two labelled rows: the piles, then the drawn card


@dataclass(frozen=True, slots=True)
class TablePlan:
    own: CardSize | None  # None for a spectator: everyone is an "opponent"
    others: CardSize
    per_band: int  # opponents side by side
    bands: int
    side_width: int
    piles: CardSize
    spare_rows: int  # rows under the cards: the log's, which a long prompt may take
    #: The phone held upright: the log above the piles and your cards, not beside them.
    portrait: bool = False

    @property
    def prompt_rows(self) -> int:
        """The most rows the prompt line may take: its own and the spare ones."""
        return 1 + self.spare_rows

    @property
    def middle_height(self) -> int:
        return max(tableau_height(self.own) if self.own else 0, piles_height(self.piles))


def plan_table(
    width: int, height: int, opponents: int, spectator: bool = False, touch: bool = False
) -> TablePlan | None:
    """The largest cards that fit ``width`` x ``height``, or None when nothing fits;
    on a phone held upright, the portrait plan when it fits (``_plan_portrait``).

    On a touch screen (``touch``) your cards are never one row high, too small for a
    finger: the opponents give way to their name lines first (``_plan_summaries``).
    With a keyboard one-row cards play well, and the opponents' cards are worth more
    than bigger ones of your own.

    Bigger is better for every tableau, and the sizes stay balanced: an 11x7
    tableau beside 4x1 opponents reads worse than 8x5 beside 6x3.
    """
    if not spectator and upright(width, height):
        portrait = _plan_portrait(width, height, opponents)
        if portrait is not None:
            return portrait
    plan = _plan_landscape(width, height, opponents, spectator)
    if touch and plan is not None and plan.own is not None and not plan.own.boxed:
        return _plan_summaries(width, height, opponents) or plan
    return plan


def portrait_below() -> int:
    """The narrowest terminal whose landscape plan can box your cards beside the log:
    narrower, the landscape plan's cards are one row high, too small for a finger."""
    boxed = next(size for size in CARD_SIZES if size.boxed)
    return tableau_width(boxed) + piles_width(boxed) + SIDE_MIN_WIDTH


def upright(width: int, height: int) -> bool:
    """A phone held upright: too narrow to box your cards beside the log, taller than wide."""
    return width < portrait_below() and height * CELL_ASPECT >= width


def _plan_portrait(width: int, height: int, opponents: int) -> TablePlan | None:
    """Your cards the largest of ``TAP_SIZES`` that fit beside the piles, then the
    opponents' the largest that leave the log ``PORTRAIT_LOG_ROWS``."""
    for own in TAP_SIZES:
        middle_width = piles_width(own) + tableau_width(own)
        if middle_width > width:
            continue
        middle = max(tableau_height(own), piles_height(own))
        for others in PORTRAIT_OTHERS:
            if others.width >= own.width or (opponents and tableau_width(others) > width):
                continue
            per_band = max(1, min(opponents, width // tableau_width(others)))
            bands = ceil(opponents / per_band) if opponents else 0
            log_rows = height - FIXED_ROWS - bands * tableau_height(others) - middle
            if log_rows >= PORTRAIT_LOG_ROWS:
                return TablePlan(own, others, per_band, bands, width, own, log_rows, True)
    return None


def _plan_summaries(width: int, height: int, opponents: int) -> TablePlan | None:
    """Your cards and the piles the largest boxed size that fits under the opponents'
    name lines (``SUMMARY``), the log beside them."""
    for own in reversed([size for size in CARD_SIZES if size.boxed]):
        plan = _try_plan(width, height, opponents, own, SUMMARY)
        if plan is not None:
            return plan
    return None


def _plan_landscape(width: int, height: int, opponents: int, spectator: bool) -> TablePlan | None:
    best: tuple[tuple[int, int, int], TablePlan] | None = None
    own_indices = [None] if spectator else list(range(len(CARD_SIZES)))
    for own_index in own_indices:
        top = len(CARD_SIZES) - 1 if own_index is None else own_index
        if own_index is not None and own_index >= 2:
            top = own_index - 1  # big cards: yours stand out, the others' are a size smaller
        for others_index in range(top + 1):
            own = None if own_index is None else CARD_SIZES[own_index]
            plan = _try_plan(width, height, opponents, own, CARD_SIZES[others_index])
            if plan is None:
                continue
            mine = len(CARD_SIZES) - 1 if own_index is None else own_index
            score = (mine + others_index, -(mine - others_index), mine)
            if best is None or score > best[0]:
                best = (score, plan)
    return None if best is None else best[1]


def _try_plan(
    width: int, height: int, opponents: int, own: CardSize | None, others: CardSize
) -> TablePlan | None:
    if opponents and tableau_width(others) > width:
        return None
    per_band = max(1, min(opponents, width // tableau_width(others)))
    bands = ceil(opponents / per_band) if opponents else 0
    rows_left = height - FIXED_ROWS - bands * tableau_height(others)
    for piles in _pile_sizes(own, others):
        middle_width = piles_width(piles) + (tableau_width(own) if own else 0)
        middle = max(tableau_height(own) if own else 0, piles_height(piles))
        if width - middle_width >= SIDE_MIN_WIDTH and middle <= rows_left:
            side = width - middle_width
            return TablePlan(own, others, per_band, bands, side, piles, rows_left - middle)
    return None


def _pile_sizes(own: CardSize | None, others: CardSize) -> tuple[CardSize, ...]:
    """The piles match your cards; a spectator gets them boxed when there is room."""
    if own is not None:
        return (own,)
    return tuple(size for size in (CARD_SIZES[1], others) if size.height >= others.height)
