"""The draw pile with its count, the top discard, and the card just drawn."""

from __future__ import annotations

from typing import Literal

from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from ..layout import CARD_SIZES, CardSize, piles_height, piles_width
from ..presenter import PilesState
from .card_art import CardLook, Face, draw_card

Pile = Literal["draw", "discard"]


class PilesWidget(Widget):
    """Posts ``PileChosen`` when a pile is clicked."""

    DEFAULT_CSS = """
    PilesWidget {
        width: auto;
        height: auto;
    }
    """

    state: reactive[PilesState | None] = reactive(None)
    card_size: reactive[CardSize] = reactive(CARD_SIZES[0], layout=True)
    cursor: reactive[Pile | None] = reactive(None)
    active: reactive[frozenset[str] | None] = reactive(None)
    """Piles a choice would use now; None when not choosing (nothing is muted)."""
    highlight: reactive[frozenset[str]] = reactive(frozenset())
    """The piles the last move changed."""
    hint: reactive[frozenset[str]] = reactive(frozenset())
    """The piles the coach's hint is about."""

    class PileChosen(Message):
        def __init__(self, pile: Pile) -> None:
            super().__init__()
            self.pile: Pile = pile

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return piles_width(self.card_size)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return piles_height(self.card_size)

    def pile_at(self, x: int, y: int) -> Pile | None:
        card = self.card_size
        if not 0 <= y <= card.height:  # the label line and the pile cards
            return None
        if 1 <= x <= card.width:
            return "draw"
        if card.width + 4 <= x <= 2 * card.width + 3:
            return "discard"
        return None

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        pile = None if offset is None else self.pile_at(offset.x, offset.y)
        if pile is not None:
            event.stop()
            self.post_message(self.PileChosen(pile))

    def render(self) -> Text:
        card, state = self.card_size, self.state
        width = piles_width(card)
        if state is None:
            return Text("\n".join(" " * width for _ in range(piles_height(card))))
        draw_face = (
            Face.DOWN if state.pile_size else Face.GONE
        )  # empty: reshuffled on the next draw
        count_on_pile = card.boxed and self._draw_label(state, card) != state.draw_label
        caption = str(state.pile_size) if count_on_pile and state.pile_size else ""
        draw = draw_card(CardLook(draw_face, **self._flags("draw")), card, caption=caption)
        discard = draw_card(self._look("discard", state.discard_top), card)
        lines = [self._labels(state, card)]
        lines += [
            Text(" ") + a + Text("   ") + b + Text(" ") for a, b in zip(draw, discard, strict=True)
        ]
        drawn_label = next((label for label in state.drawn_labels if len(label) <= width - 2), "")
        lines.append(Text(f"{drawn_label:^{width}}", Style(dim=state.drawn is None)))
        pad = " " * ((width - card.width) // 2)
        if state.drawn is None and drawn_label:
            # "Nothing drawn" says it: no empty slot's "··" under it.
            lines += [Text(" " * width) for _ in range(card.height)]
        else:
            # The card just drawn is never muted: it is the one the choice is about.
            drawn_look = CardLook(Face.GONE) if state.drawn is None else CardLook.of(state.drawn)
            lines += [Text(pad) + line + Text(pad) for line in draw_card(drawn_look, card)]
        text = Text("\n").join(lines)
        text.no_wrap = True
        return text

    @staticmethod
    def _draw_label(state: PilesState, card: CardSize) -> str:
        """The label over the draw pile. When "Pile 87" is too long, boxed piles say
        "Pile" with the count on the pile itself; one-line piles say just "87"."""
        field = card.width + 2
        # A discard label as wide as its field moves both labels a cell left (``_labels``):
        # the draw pile's must leave that cell ("Mazo 91" would not, beside "Descarte").
        room = field - 2 if len(state.discard_label) == field else field
        if len(state.draw_label) <= room:
            return state.draw_label
        if card.boxed and state.draw_word and len(state.draw_word) <= room:
            return state.draw_word
        return str(state.pile_size)

    def _labels(self, state: PilesState, card: CardSize) -> Text:
        """One label over each pile."""
        field = card.width + 2
        draw = self._draw_label(state, card)
        discard = state.discard_label if len(state.discard_label) <= field else ""
        line = f"{draw:^{field}} {discard:^{field}}"
        if line.startswith(" ") and not line.endswith(" "):
            # A label as wide as its field ("Défausse") would touch the name beside the
            # piles: both move one cell left, keeping a space between.
            line = line[1:] + " "
        return Text(line, Style(dim=True))

    def _flags(self, name: str) -> dict[str, bool]:
        active = self.active
        return {
            "cursor": self.cursor == name,
            "highlight": name in self.highlight,
            "hint": name in self.hint,
            "muted": active is not None and name not in active,
        }

    def _look(self, name: str, value: int | None) -> CardLook:
        if value is None:
            return CardLook(Face.GONE)
        return CardLook.of(value, **self._flags(name))
