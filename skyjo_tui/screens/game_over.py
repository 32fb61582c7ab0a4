"""The end: who won, the last round and the totals, a rematch or the way out."""

from __future__ import annotations

from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical

from ..host import Board
from ..messages import TableShown
from ..narrate import winners_sentence
from ..replay import record_request
from ..summary import RoundSummary
from ..widgets.footer import KeyFooter
from ..widgets.form import FormButton
from ..widgets.results import ResultsTable
from ..widgets.sheet_panel import SheetPanel
from ..widgets.text import Button, Label
from .base import SkyjoModal
from .summary_parts import say, show_sheet, state_label, summary_notes


class GameOverScreen(SkyjoModal[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "rematch", "keys.rematch", id="over.rematch"),
        Binding("l,q", "leave", "keys.leave", id="over.leave"),
        Binding("escape", "close", "keys.see_table", id="over.close"),
        Binding("g", "sheet", "keys.sheet", id="over.sheet"),
        Binding("v", "review", "keys.review", id="over.review"),
    ]

    def __init__(self, summary: RoundSummary, table: Board) -> None:
        super().__init__()
        self.summary = summary
        self.table_screen = table
        self._asked = False
        self.sheet_shown = False

    def winners_line(self) -> str:
        summary = self.summary
        others = [p.name for p in summary.players if p.winner and p.seat != summary.own_seat]
        you = summary.own_seat is not None and summary.own_seat in summary.winners
        return winners_sentence(self.tr, "over.winners", others, you)

    def compose(self) -> ComposeResult:
        tr = self.tr
        with Vertical(classes="dialog wide", id="game-over"):
            # One line for both: eight players' results must fit 24 rows with the buttons.
            yield Label(
                f"{tr('over.title')} · {self.winners_line()}", classes="title", id="winners"
            )
            with Vertical(id="round-pane"):
                yield ResultsTable(id="results")
                yield Label(summary_notes(self.summary, tr), id="penalty")
            yield SheetPanel(id="sheet")
            yield state_label("", id="over-state")
            with Horizontal(classes="buttons"):
                if self.summary.own_seat is not None:
                    yield FormButton(
                        tr("over.rematch"), variant="primary", id="rematch", compact=True
                    )
                yield FormButton(tr("over.leave"), id="leave", compact=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        for results in self.query(ResultsTable).results(ResultsTable):
            results.show(self.summary, self.tr)
        show_sheet(self, self.table_screen, self.sheet_shown)

    def action_sheet(self) -> None:
        """Between the score sheet of the whole game and the last round's results."""
        self.sheet_shown = not self.sheet_shown
        show_sheet(self, self.table_screen, self.sheet_shown)

    def on_table_shown(self, message: TableShown) -> None:
        if message.board is self.table_screen:
            self.refresh_bindings()  # its review key needs the stored game's id

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "rematch":
            return self.summary.own_seat is not None and not self._asked
        if action == "review":  # the stored game's record is what is reviewed
            return self.table_screen.game_id is not None
        return True

    @work(group="review", exclusive=True)
    async def action_review(self) -> None:
        """Your moves of this game against the best ones (a watcher: the winner's first;
        then any player's), from its stored record."""
        seat, game_id = self.summary.own_seat, self.table_screen.game_id
        if seat is None:
            seat = min(self.summary.winners, default=0)
        if game_id is None:
            return
        reply = await self.skyjo.call(record_request(game_id))
        if reply is None:
            return
        self.skyjo.nav.review_then_replay(reply["record"], bool(reply.get("seeded")), seat)

    @on(Button.Pressed, "#rematch")
    @work(group="rematch")
    async def action_rematch(self) -> None:
        if self._asked or self.summary.own_seat is None:
            return
        self._asked = True
        self._show_asked()
        if await self.skyjo.call({"type": "rematch"}) is None:
            self._asked = False
            self._show_asked()
            return
        say(self.query_one("#over-state", Label), self.tr("over.rematch_waiting"))

    def _show_asked(self) -> None:
        """The footer's key and the button both gone while a rematch is asked: the button
        stayed highlighted, as if the tap had done nothing."""
        self.refresh_bindings()
        for button in self.query("#rematch"):
            button.disabled = self._asked

    @on(Button.Pressed, "#leave")
    def action_leave(self) -> None:
        self.skyjo.leave_table()

    def action_close(self) -> None:
        self.dismiss()
