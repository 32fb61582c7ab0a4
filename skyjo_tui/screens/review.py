"""A game's review for one player: each move, what it gave away, the costly ones marked.

Worked out from the game record alone (``server.bots.review``), in a thread:
the replay of a long game takes a second. Any seat of the record may be
reviewed: it opens on the one it is given (the person's own), ``p`` goes to
the next, each worked out the first time it is shown. Enter on a move
dismisses the screen with that move's record step, for the replay to show it;
``n`` moves straight to the next costly move. A move a bot chose for the person
(a stand-in's) is listed as the bot's, dimmed, and never costly: ``n`` passes it.
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
from server.engine.movelog import Standin

from ..coaching import given_away_text, move_words, review_summary, standin_words
from ..replay import record_seats
from ..widgets.fitted_table import FittedTable
from ..widgets.footer import KeyFooter
from ..widgets.text import Label, TextTable
from .base import SkyjoScreen

COSTLY_STYLE = "bold red"
STANDIN_STYLE = "dim"  # a bot's move, not the person's: set back, not judged
NOT_JUDGED = "\N{EN DASH}"  # a stand-in's move has no points given away: it is not the person's
CHOSEN_STYLE = "reverse"  # the seat reviewed, among the others: seen in monochrome too


class ReviewScreen(SkyjoScreen[int | None]):
    """Dismissed with the record step of the move chosen (Enter), else None; ``review`` is
    then the seat's review the person looked at last (None if not worked out yet)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "next_costly", "keys.next_costly", id="review.next_costly"),
        Binding("p", "next_seat", "keys.next_seat", id="review.next_seat"),
        Binding("escape,q", "close", "keys.close", id="review.close"),
    ]
    DEFAULT_CSS = """
    ReviewScreen #review { padding: 0 1; }
    ReviewScreen #review-title { text-style: bold; }
    ReviewScreen #review-seats { width: 1fr; }  /* eight names wrap, none runs off the edge */
    ReviewScreen #review-summary { margin-bottom: 1; }
    ReviewScreen #review-moves { height: 1fr; }
    """

    def __init__(
        self,
        record: Mapping[str, Any],
        seat: int,
        *,
        known: Mapping[int, Review] | None = None,
        at_step: int | None = None,
    ) -> None:
        """``seat``: the one reviewed first (the person's own, when they played); ``known``:
        reviews of this record worked out already, by seat; ``at_step``: the record step of
        the move to open on (back from the replay of it), else the first."""
        super().__init__()
        self.record = record
        self.seats = record_seats(record)
        self.seat = seat
        self._reviews: dict[int, Review] = dict(known or {})  # by seat, as each is worked out
        self._at_step = at_step
        self._working: set[int] = set()  # seats being worked out now

    @property
    def reviews(self) -> dict[int, Review]:
        """The reviews worked out so far, by seat (a copy)."""
        return dict(self._reviews)

    @property
    def review(self) -> Review | None:
        """The review of the seat shown, once worked out."""
        return self._reviews.get(self.seat)

    def compose(self) -> ComposeResult:
        tr = self.tr
        with Vertical(id="review"):
            yield Label(id="review-title")
            yield Label(id="review-seats")
            yield Label(tr("review.computing"), id="review-summary")
            yield Label(self._hint(), classes="hint")
            yield FittedTable(id="review-moves", cursor_type="row", zebra_stripes=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        table = self.query_one("#review-moves", FittedTable)
        tr = self.tr
        columns = ("round", "turn", "points", "played", "best")  # the points before the words
        table.set_columns([tr(f"review.column.{c}") for c in columns], flexible=(3, 4))
        self._choose(self.seat)

    def action_next_seat(self) -> None:
        self._choose((self.seat + 1) % len(self.seats))

    def _choose(self, seat: int) -> None:
        """Show ``seat``'s review: at once if worked out, else once it is."""
        self.seat = seat
        name = self.seats[seat].shown(self.tr)
        self.query_one("#review-title", Label).update(self.tr("review.title", name=name))
        self.query_one("#review-seats", Label).update(self._seats_line())
        review = self.review
        if review is not None:
            self._show(review)
            return
        # No move of another seat stays on screen, for Enter or n to act on.
        self.query_one("#review-summary", Label).update(self.tr("review.computing"))
        self.query_one("#review-moves", FittedTable).show([])
        if seat not in self._working:
            self._working.add(seat)
            self._work_out(seat)

    def _hint(self) -> str:
        """How to open a move in the replay, and go to the next costly one."""
        tr = self.tr
        if self.skyjo.touch:  # a tap on the row under the cursor opens it: no Enter to name
            return tr("review.tap.hint", next_costly=tr("keys.next_costly"))
        return tr("review.hint", **self.key_labels("review.next_costly"))

    def _seats_line(self) -> Text:
        """Every seat by its player's name, the one reviewed marked, and the key to the next."""
        tr = self.tr
        if self.skyjo.touch:  # the footer's words to tap
            seats = tr("review.tap.seats", next_seat=tr("keys.next_seat"))
        else:
            seats = tr("review.seats", **self.key_labels("review.next_seat"))
        line = Text(seats + " ", end="")
        for seat, info in enumerate(self.seats):
            if seat:
                line.append(" · ")
            line.append(info.shown(tr), style=CHOSEN_STYLE if seat == self.seat else "")
        return line

    @work(group="review")
    async def _work_out(self, seat: int) -> None:
        """Not exclusive: a seat left before its review is ready keeps it, for coming back."""
        try:
            self._reviews[seat] = await asyncio.to_thread(review_game, self.record, seat)
        finally:
            self._working.discard(seat)
        if seat == self.seat:
            self._show(self._reviews[seat])

    def _show(self, review: Review) -> None:
        tr = self.tr
        summary = self.query_one("#review-summary", Label)
        table = self.query_one("#review-moves", FittedTable)
        name = self.seats[review.seat].shown(tr)
        table.show([(str(move.step), self._cells(move, name)) for move in review.moves])
        if not review.moves:
            summary.update(tr("review.none", name=name))
            return
        costly, points = len(review.costly), review.points_given_away
        standins = len(review.standins)
        summary.update(review_summary(costly, points, tr, standins=standins, name=name))
        steps = [move.step for move in review.moves]
        row = steps.index(self._at_step) if self._at_step in steps else 0
        self._at_step = None  # once: another seat's review starts at its first move
        table.move_cursor(row=row, animate=False)
        table.focus()

    def _cells(self, move: ReviewedMove, name: str) -> list[str | Text]:
        if move.standin is not None:
            return self._standin_cells(move, move.standin, name)
        tr, style = self.tr, COSTLY_STYLE if move.costly else ""
        # "the same" for the best move itself, or one said in the same words (another hidden
        # card of the same column: alike to the model); "as good" for another move the model
        # prices the same (a tie: naming it beside 0.0 read as a contradiction); a close call
        # still names the better one.
        played, best = (move_words(action, move.view, tr) for action in (move.played, move.best))
        if move.played == move.best or played == best:
            shown_best = tr("review.same")
        elif not move.given_away:
            shown_best = tr("review.as_good")
        else:
            shown_best = best
        return [
            str(move.round),
            str(move.turn),
            Text(given_away_text(move.given_away, tr), style=style, end=""),
            Text(played, style=style, end=""),
            shown_best,
        ]

    def _standin_cells(self, move: ReviewedMove, standin: Standin, name: str) -> list[str | Text]:
        """A bot's move for the person: what it played, and who, where the best move goes."""
        played = Text(move_words(move.played, move.view, self.tr), style=STANDIN_STYLE, end="")
        who = standin_words(standin, name, self.tr)
        return [str(move.round), str(move.turn), NOT_JUDGED, played, who]

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
