"""What the round's summary and the game's end both show: the notes, the sheet, a state line."""

from __future__ import annotations

from ..host import Board
from ..i18n import Translator
from ..summary import RoundSummary
from ..widgets.sheet_panel import SheetPanel
from ..widgets.text import Label
from .base import SkyjoModal


def summary_notes(summary: RoundSummary, tr: Translator) -> str:
    """Under the results: who closed (their penalty if any), what struck-out columns are."""
    notes = []
    closer = summary.closer
    if closer is not None and closer.doubled:
        yours = closer.seat == summary.own_seat
        notes.append(
            tr.about("summary.penalty", yours, who=closer.name, raw=closer.raw, score=closer.score)
        )
    elif closer is not None:
        notes.append(tr.about("summary.closed", closer.seat == summary.own_seat, who=closer.name))
    if any(result.removed for result in summary.players):
        notes.append(tr("summary.removed"))
    return "\n".join(notes)


def state_label(text: str, *, id: str, classes: str | None = None) -> Label:
    """A line that takes no room while it has nothing to say (8 players fit 24 rows; an
    empty error line drew an empty bar of its colour)."""
    label = Label(text, id=id, classes=classes)
    label.display = bool(text)
    return label


def say(label: Label, text: str) -> None:
    label.update(text)
    label.display = bool(text)


def show_sheet(screen: SkyjoModal[None], table: Board, sheet: bool) -> None:
    """Show the score sheet (the dialog then takes the height it has) or this round's results.

    Found by queries: a summary the next round dismissed at once may have no widgets left.
    """
    for dialog in screen.query(".dialog"):
        dialog.set_class(sheet, "with-sheet")
    for pane in screen.query("#round-pane"):
        pane.display = not sheet
    for panel in screen.query(SheetPanel).results(SheetPanel):
        panel.display = sheet
        if sheet:
            panel.show(table.sheet_shown(), screen.skyjo.tr)
