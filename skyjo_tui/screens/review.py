"""A game's review for one player: each move, what it gave away, the costly ones marked.

Worked out from the game record alone (``server.bots.review``), in a thread:
the replay of a long game takes a second. Enter on a move dismisses the
screen with that move's record step, for the replay to show it; ``n`` moves
straight to the next costly move.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical

from server.bots.review import Review, ReviewedMove, review_game

from ..coaching import CLOSE_CALL, move_words, review_summary
from ..widgets.fitted_table import FittedTable
from ..widgets.footer import KeyFooter
from ..widgets.text import Label, TextTable
from .base import SkyjoScreen

COSTLY_STYLE = "bold red"


class ReviewScreen(SkyjoScreen[int | None]):
    """Dismissed with the record step of the move chosen (Enter), else None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "next_costly", "keys.next_costly", id="review.next_costly"),
        Binding("escape,q", "close", "keys.close", id="review.close"),
    ]
    DEFAULT_CSS = """
    ReviewScreen #review { padding: 0 1; }
    ReviewScreen #review-title { text-style: bold; }
    ReviewScreen #review-summary { margin-bottom: 1; }
    ReviewScreen #review-moves { height: 1fr; }
    """

    def __init__(self, record: Mapping[str, Any], seat: int, name: str) -> None:
        super().__init__()
        self.record = record
        self.seat = seat
        self.player_name = name
        self.review: Review | None = None

    def compose(self) -> ComposeResult:
        tr = self.tr
        with Vertical(id="review"):
            yield Label(tr("review.title", name=self.player_name), id="review-title")
            yield Label(tr("review.computing"), id="review-summary")
            yield Label(tr("review.hint", **self.key_labels("review.next_costly")), classes="hint")
            yield FittedTable(id="review-moves", cursor_type="row", zebra_stripes=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        table = self.query_one("#review-moves", FittedTable)
        tr = self.tr
        columns = ("round", "turn", "points", "played", "best")  # the points before the words
        table.set_columns([tr(f"review.column.{c}") for c in columns], flexible=(3, 4))
        self._work_out()

    @work(group="review", exclusive=True)
    async def _work_out(self) -> None:
        review = await asyncio.to_thread(review_game, self.record, self.seat)
        self.review = review
        self._show(review)

    def _show(self, review: Review) -> None:
        tr = self.tr
        summary = self.query_one("#review-summary", Label)
        if not review.moves:
            summary.update(tr("review.none", name=self.player_name))
            return
        summary.update(review_summary(len(review.costly), review.points_given_away, tr))
        table = self.query_one("#review-moves", FittedTable)
        table.show([(str(move.step), self._cells(move)) for move in review.moves])
        table.focus()

    def _cells(self, move: ReviewedMove) -> list[str | Text]:
        tr, style = self.tr, COSTLY_STYLE if move.costly else ""
        good = move.given_away < CLOSE_CALL
        return [
            str(move.round),
            str(move.turn),
            Text(f"{move.given_away:.1f}", style=style, end=""),
            Text(move_words(move.played, move.view, tr), style=style, end=""),
            tr("review.same") if good else move_words(move.best, move.view, tr),
        ]

    def action_next_costly(self) -> None:
        review = self.review
        if review is None:
            return
        table = self.query_one("#review-moves", TextTable)
        current = review.moves[table.cursor_row].step if review.moves else -1
        found = review.next_costly(current)
        if found is None:
            self.notify(self.tr("review.no_costly"))
            return
        table.move_cursor(row=review.moves.index(found))

    @on(TextTable.RowSelected, "#review-moves")
    def _chosen(self, event: TextTable.RowSelected) -> None:
        step = event.row_key.value
        self.dismiss(int(step) if step is not None and step.isdigit() else None)

    def action_close(self) -> None:
        self.dismiss(None)
