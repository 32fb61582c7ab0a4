"""Between rounds: everyone's cards and scores, the closer's penalty, the totals."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical

from server.engine import PlayerView
from server.protocol import DEFAULT_NAME_MAX_LENGTH

from ..host import Board
from ..messages import TableShown
from ..names import SeatInfo, seat_names
from ..summary import RoundSummary
from ..widgets.footer import KeyFooter
from ..widgets.form import FormButton
from ..widgets.results import ResultsTable
from ..widgets.sheet_panel import SheetPanel
from ..widgets.text import Button, Label
from .base import SkyjoModal
from .summary_parts import say, show_sheet, state_label, summary_notes


class RoundSummaryScreen(SkyjoModal[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "ready", "keys.next_round", priority=True, id="summary.ready"),
        Binding("escape,s", "close", "keys.see_table", id="summary.close"),
        Binding("g", "sheet", "keys.sheet", id="summary.sheet"),
    ]

    def __init__(
        self,
        summary: RoundSummary | None,
        table: Board,
        totals: Sequence[tuple[str, int]] = (),
    ) -> None:
        super().__init__()
        self.summary = summary
        self.table_screen = table
        self.totals = tuple(totals)
        self._ready_sent = False  # asked here; the server's word (the table) may lag
        # During a round the scores window opens on the sheet, once a round is scored.
        self.sheet_shown = summary is None and bool(table.score_sheet.rounds)

    @classmethod
    def totals_only(
        cls, view: PlayerView, seats: Sequence[SeatInfo], table: Board
    ) -> RoundSummaryScreen:
        """During a round: no summary yet, just the totals so far."""
        names = seat_names(seats, len(view.totals), table.tr, view.seat)
        return cls(None, table, list(zip(names, view.totals, strict=True)))

    def compose(self) -> ComposeResult:
        summary, tr = self.summary, self.tr
        with Vertical(classes="dialog wide", id="summary"):
            if summary is None:
                yield Label(tr("summary.totals_title"), classes="title")
                with Vertical(id="round-pane"):
                    for name, total in self.totals:  # in line after the longest default name
                        yield Label(f"{name:<{DEFAULT_NAME_MAX_LENGTH}} {total:>5}")
                yield SheetPanel(id="sheet")
                with Horizontal(classes="buttons"):
                    yield FormButton(tr("summary.see_table"), id="close", compact=True)
            else:
                yield Label(tr("summary.title", round=summary.round), classes="title")
                with Vertical(id="round-pane"):
                    yield ResultsTable(id="results")
                    yield Label(summary_notes(summary, tr), id="penalty")
                yield SheetPanel(id="sheet")
                yield state_label(self._next_round_note(), id="summary-state")
                with Horizontal(classes="buttons"):
                    if self._can_ready():
                        yield FormButton(
                            tr("summary.next"),
                            variant="primary",
                            id="ready",
                            compact=True,
                            disabled=self._ready_for_next,
                        )
                    yield FormButton(tr("summary.see_table"), id="close", compact=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        if self.summary is not None:
            for results in self.query(ResultsTable).results(ResultsTable):
                results.show(self.summary, self.tr)
        show_sheet(self, self.table_screen, self.sheet_shown)
        # The countdown ticks: a person reading the sheet sees the next round coming.
        self.set_interval(1.0, self._tick)

    def action_sheet(self) -> None:
        """Between the score sheet and this round's results."""
        self.sheet_shown = not self.sheet_shown
        show_sheet(self, self.table_screen, self.sheet_shown)

    def on_table_shown(self, message: TableShown) -> None:
        """The table as the server sees it now: its countdown to the next round, which
        comes just after the round's last move, is counted down once known."""
        if message.board is self.table_screen:
            self._tick()

    @property
    def _ready_for_next(self) -> bool:
        """We are ready for the next round: asked here, or the server says so (we asked
        before this summary was opened again)."""
        return self._ready_sent or self.table_screen.ready_for_round

    def _tick(self) -> None:
        for label in self.query("#summary-state").results(Label):
            say(label, self._next_round_note())

    def _next_round_note(self) -> str:
        """Waiting for the others once we are ready; else when the server starts the next
        round on its own, in whole seconds from now (the table screen keeps that moment:
        a summary opened again counts on from it)."""
        if not self._can_ready():
            return ""
        if self._ready_for_next:
            return self.tr("summary.waiting")
        starts_at = self.table_screen.next_round_at
        if starts_at is None:
            return ""
        left = max(1, math.ceil(starts_at - time.monotonic()))
        return self.tr("summary.next_in", seconds=left)

    def _can_ready(self) -> bool:
        summary = self.summary
        return summary is not None and not summary.game_over and summary.own_seat is not None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "ready":
            return self._can_ready() and not self._ready_for_next
        return True

    @on(Button.Pressed, "#ready")
    def action_ready(self) -> None:
        if self._ready_for_next or not self._can_ready():
            return
        self._ready_sent = True
        self.table_screen.ready_for_next_round()
        self._tick()
        for button in self.query("#ready"):
            button.disabled = True
        self.refresh_bindings()

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        self.dismiss()
