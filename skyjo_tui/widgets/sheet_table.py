"""The score pad: one line per round, one column per player, the closer's penalty marked."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from ..i18n import Translator
from ..sheet import SheetShown
from .text import TextTable

#: Each player's mark, the same in the pad's heading and on the chart's line: players
#: are told apart by shape, not colour alone (a monochrome terminal shows no colour).
MARKERS = ("o", "x", "+", "*", "#", "@", "%", "&")
#: From this many players the pad shows round scores only (the totals in a last line)
#: and heads each column with the player's mark alone, the names in a legend under it:
#: names and running totals in every cell would not fit 80 columns.
COMPACT_FROM = 6
NAME_CELLS = 10  # a name in the heading, cut to this many cells


def marker(seat: int) -> str:
    return MARKERS[seat % len(MARKERS)]


def compact(shown: SheetShown) -> bool:
    return len(shown.names) >= COMPACT_FROM


def legend(shown: SheetShown) -> str:
    """Each mark and its player's whole name ("o You · x Greedy 1 · …"), literal text."""
    return " · ".join(f"{marker(seat)} {name}" for seat, name in enumerate(shown.names))


def heading(shown: SheetShown, seat: int) -> Text:
    if compact(shown):
        return Text(marker(seat), Style(bold=True), justify="right")
    name = shown.names[seat] if seat < len(shown.names) else f"#{seat + 1}"
    text = Text(f"{marker(seat)} ", Style(bold=True))
    text.append(Text(name, Style(bold=seat == shown.own_seat)))
    text.truncate(NAME_CELLS + 2, overflow="ellipsis")
    return text


class SheetTable(TextTable[Text]):
    """Fill with ``show(shown, tr)``; the last round is kept in sight."""

    DEFAULT_CSS = """
    SheetTable { height: auto; max-height: 9; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="none", zebra_stripes=True, show_cursor=False)
        self.can_focus = False  # the screen's keys stay the screen's

    def show(self, shown: SheetShown, tr: Translator) -> None:
        players = len(shown.names)
        short = compact(shown)
        self.clear(columns=True)
        self.add_column(Text(tr("summary.round"), justify="right"))
        for seat in range(players):
            self.add_column(heading(shown, seat))
        for line in shown.lines:
            cells = [
                self._cell(
                    line.scores[seat],
                    line.totals[seat],
                    line.raw[seat] if line.penalised(seat) else None,
                    seat == line.closer,
                    short,
                    tr,
                )
                for seat in range(players)
            ]
            self.add_row(Text(str(line.round), justify="right", style=Style(dim=True)), *cells)
        if short and shown.lines:
            last = shown.lines[-1].totals
            self.add_row(
                Text(tr("summary.total"), justify="right", style=Style(bold=True)),
                *(
                    Text(f"{last[seat]:>4}", justify="right", style=Style(bold=True))
                    for seat in range(players)
                ),
            )
        self.call_after_refresh(self.scroll_end, animate=False)

    @staticmethod
    def _cell(
        score: int, total: int, raw: int | None, closer: bool, compact: bool, tr: Translator
    ) -> Text:
        """A player's round: the score and the closer's mark ("✓" closed; doubled, the
        sum before and after, "47×2=94", as the round's summary writes it), then the total."""
        if raw is not None:
            doubled = Style(bold=True, color="red")
            text = Text(tr("summary.doubled", raw=raw, score=score), doubled)
        else:
            text = Text.assemble((f"{score:>3}", Style(bold=True)), "✓ " if closer else "  ")
        if not compact:
            text.append(f" {total:>4}", Style(dim=True))
        text.justify = "right"
        return text
