"""``skyjo --replay FILE``: step through a recorded game, forward, back, by round."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import ClassVar

from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Middle
from textual.timer import Timer

from server.bots.review import Review, ReviewedMove

from ..coaching import review_line, standin_words
from ..layout import plan_table
from ..names import seat_names
from ..narrate import describe, touched
from ..presenter import present
from ..replay import Recording, ReplayError, load_file
from ..table.pacing import PACES
from ..widgets.board import TableBoard
from ..widgets.footer import KeyFooter
from ..widgets.text import Static
from .base import SkyjoScreen

LOG_BACKLOG = 40  # frames of the round re-told in the log after a jump


_MOVE = Binding.Group("keys.group.move", compact=True)
_ROUND = Binding.Group("keys.group.round", compact=True)


class ReplayScreen(SkyjoScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        # Grouped in the footer ("→ ← Move", "n p Round"), so that it fits 80 columns.
        Binding("right,l,space", "step(1)", "keys.forward", id="replay.forward", group=_MOVE),
        Binding("left,h", "step(-1)", "keys.back_step", id="replay.back", group=_MOVE),
        Binding("n", "round(1)", "keys.next_round_jump", id="replay.next_round", group=_ROUND),
        Binding("p", "round(-1)", "keys.previous_round", id="replay.previous_round", group=_ROUND),
        # The review of a player's moves (whose: chosen there, ``reviewed_seat``); that
        # player's next costly move once the review is worked out (``check_action``).
        Binding("r", "review", "keys.review", id="replay.review"),
        Binding("c", "next_costly", "keys.next_costly", id="replay.next_costly"),
        Binding("v", "reveal", "keys.reveal", id="replay.reveal"),
        # In help, not the footer: 80 columns hold no more keys (1-9 jump to a round too).
        Binding("g", "goto", "keys.goto_round", show=False, id="replay.goto"),
        Binding("a", "autoplay", "keys.autoplay", show=False, id="replay.autoplay"),
        Binding("home", "jump(0)", "keys.first", show=False, id="replay.first"),
        Binding("end", "jump(-1)", "keys.last", show=False, id="replay.last"),
        Binding(
            "right_square_bracket", "game(1)", "keys.next_game", show=False, id="replay.next_game"
        ),
        Binding(
            "left_square_bracket",
            "game(-1)",
            "keys.previous_game",
            show=False,
            id="replay.previous_game",
        ),
        # As at the table (PgUp and PgDn jumped by round here, as n and p do).
        Binding("pageup", "log(1)", "keys.log_back", show=False, id="replay.log_back"),
        Binding("pagedown", "log(-1)", "keys.log_newer", show=False, id="replay.log_newer"),
        Binding("q,escape", "close", "keys.close", id="replay.close"),
    ]

    def __init__(
        self,
        recordings: list[Recording],
        error: str = "",
        reviewed: tuple[Review, int] | None = None,
    ) -> None:
        """``reviewed``: a review of the first game, and the record step of a move of it
        to open on (from the review after a game)."""
        super().__init__()
        self._opening = reviewed
        self.recordings = recordings
        self.error = error
        self.game = 0
        self.index = 0
        self._autoplay: Timer | None = None
        self.reveal = False  # every card face up (a finished game only)
        self._review: Review | None = None  # of the game shown, once worked out
        self._review_note = ""  # the reviewed move shown now, in words

    @classmethod
    def from_file(cls, path: Path) -> ReplayScreen:
        try:
            return cls(load_file(path))
        except ReplayError as exc:
            return cls([], str(exc))

    @property
    def recording(self) -> Recording | None:
        return self.recordings[self.game] if self.recordings else None

    def compose(self) -> ComposeResult:
        if self.recording is None:
            with Middle(), Center():
                yield Static(self.tr("replay.error", reason=self.error), id="replay-error")
        else:
            yield TableBoard(self.tr, id="board")
        yield KeyFooter()

    def on_mount(self) -> None:
        if self.recording is not None:
            self._jump(0)
            if self._opening is not None:
                review, step = self._opening
                self._show_reviewed(step, review)

    def fits(self, width: int, height: int) -> bool:
        recording = self.recording
        if recording is None:
            return super().fits(width, height)
        return plan_table(width, height, len(recording.seats), spectator=True) is not None

    # -- moving through the game --------------------------------------------------

    def action_step(self, delta: int) -> None:
        recording = self.recording
        if recording is None:
            return
        self._review_note = ""
        target = self.index + delta
        if not 0 <= target < len(recording.frames):
            self.app.bell()
            return
        if delta == 1:
            self.index = target
            self._tell(target)
            self._draw()
        else:
            self._jump(target)

    def action_round(self, delta: int) -> None:
        recording = self.recording
        if recording is None:
            return
        current = recording.frames[self.index].round
        starts = recording.round_starts()
        wanted = current + delta
        if 1 <= wanted <= len(starts):
            self._jump(starts[wanted - 1])
        else:
            self.app.bell()

    def action_jump(self, index: int) -> None:
        recording = self.recording
        if recording is not None:
            self._jump(index % len(recording.frames))

    def action_game(self, delta: int) -> None:
        if 0 <= self.game + delta < len(self.recordings):
            self.game += delta
            self.reveal = False
            self._review, self._review_note = None, ""
            self.refresh_bindings()  # the next game may be one still in play
            self.query_one(TableBoard).model = None
            self._jump(0)

    @work(group="goto")
    async def action_goto(self) -> None:
        recording = self.recording
        if recording is None:
            return
        rounds = len(recording.round_starts())
        answer = await self.skyjo.nav.prompt(
            self.tr("replay.goto_title", rounds=rounds), max_length=4
        )
        if answer is not None and answer.isdigit() and 1 <= int(answer) <= rounds:
            self._jump(recording.round_starts()[int(answer) - 1])
        elif answer is not None:
            self.notify(self.tr("replay.no_such_round", rounds=rounds), severity="warning")

    def on_key(self, event: events.Key) -> None:
        """Digits 1-9 jump to that round."""
        recording = self.recording
        if recording is None or not event.character or not event.character.isdigit():
            return
        number = int(event.character)
        starts = recording.round_starts()
        if 1 <= number <= len(starts):
            event.stop()
            self._jump(starts[number - 1])

    def action_autoplay(self) -> None:
        if self._autoplay is not None:
            self._autoplay.stop()
            self._autoplay = None
            return
        pace = PACES.get(self.skyjo.prefs.pace) or PACES["normal"]
        self._autoplay = self.set_interval(pace, self._autoplay_step)

    def _autoplay_step(self) -> None:
        recording = self.recording
        if recording is None or self.index + 1 >= len(recording.frames):
            self.action_autoplay()  # stop at the end
            return
        self.action_step(1)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "reveal":  # a game still in play keeps its secrets: no key at all
            return self.recording is not None and self.recording.finished
        if action == "next_costly":  # costly moves are the review's: none before it
            return self._review is not None
        return True

    def action_reveal(self) -> None:
        recording = self.recording
        if recording is None or not recording.finished:
            return
        self.reveal = not self.reveal
        self._draw()

    # -- the review ------------------------------------------------------------------

    def reviewed_seat(self) -> int:
        """The seat the review opens on: the one reviewed last in this game, else the app's
        player's, else the first person's, else the first seat."""
        recording = self.recording
        assert recording is not None
        if self._review is not None:
            return self._review.seat
        session = self.skyjo.session
        welcome = session.welcome if session is not None else None
        return recording.person_seat(welcome.name if welcome is not None else None)

    def action_review(self) -> None:
        recording = self.recording
        if recording is None:
            return
        self.skyjo.nav.review(recording.record, self.reviewed_seat(), self._show_reviewed)

    def _show_reviewed(self, step: int | None, review: Review | None) -> None:
        if review is not None:
            self._review = review
            self.refresh_bindings()  # its next costly move now has a key
        if step is None or self._review is None:
            return
        move = next((m for m in self._review.moves if m.step == step), None)
        if move is not None:
            self._show_move(move)

    def action_next_costly(self) -> None:
        if self._review is None:
            return
        # The frame shown is the position before record step index + 1: that move is next,
        # unless it is the reviewed move shown now.
        move = self._review.next_costly(self.index + 1 if self._review_note else self.index)
        if move is None:
            self.notify(self.tr("review.no_costly"))
            return
        self._show_move(move)

    def _show_move(self, move: ReviewedMove) -> None:
        """The position the reviewed ``move`` was played from, and the review's words."""
        recording = self.recording
        assert recording is not None and self._review is not None
        name = recording.seats[self._review.seat].shown(self.tr)  # as the review names them
        self._jump(move.step - 1)
        self._review_note = review_line(move, name, self.tr)
        self._draw()

    def action_log(self, pages: int) -> None:
        """Read the log further back (PgUp) or towards the newest (PgDn), as at the table."""
        self.query_one(TableBoard).scroll_log(pages)

    def action_close(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.dismiss()  # to whoever opened it (the game over: back to its review)
        else:
            self.app.exit()

    # -- drawing -------------------------------------------------------------------

    def _jump(self, index: int) -> None:
        recording = self.recording
        assert recording is not None
        self.index = index
        self._review_note = ""  # a reviewed move says so again after its jump
        board = self.query_one(TableBoard)
        board.clear_log()
        start = max(0, index - LOG_BACKLOG)
        round_number = recording.frames[index].round
        for i in range(start, index + 1):
            if recording.frames[i].round == round_number:
                self._tell(i)
        self._draw()

    def _tell(self, index: int) -> None:
        recording = self.recording
        assert recording is not None
        names = seat_names(recording.seats, len(recording.seats), self.tr)
        frame, board = recording.frames[index], self.query_one(TableBoard)
        if recording.standin_begins(index):  # the moves that follow are a bot's, not the person's
            assert frame.standin is not None and frame.player is not None
            who = standin_words(frame.standin, names[frame.player], self.tr)
            board.write_log(self.tr("log.standin", standin=who))
        for line in describe(frame.events, names, self.tr):
            board.write_log(line)

    def _draw(self) -> None:
        recording = self.recording
        assert recording is not None
        frame = recording.frames[self.index]
        view, revealed = (
            frame.revealed() if self.reveal and recording.finished else (frame.view, {})
        )
        where = self.tr(
            # "game 1/1" says nothing, and the status line has no room to spare at 80 columns
            "replay.position" if len(self.recordings) > 1 else "replay.position.one_game",
            move=self.index + 1,
            moves=len(recording.frames),
            game=self.game + 1,
            games=len(self.recordings),
        )
        model = present(
            view,
            recording.seats,
            self.tr,
            changed=touched(frame.events) if self.skyjo.prefs.highlight else None,
            timer=where,
            prompt=self._review_note or self._prompt(bool(revealed)),
        )
        # First on the status line, which a narrow terminal cuts at its end.
        status = (
            f"{self.tr('replay.seeded')} · {model.status}" if recording.seeded else model.status
        )
        self.query_one(TableBoard).model = replace(model, revealed=revealed, status=status)

    def _prompt(self, revealed: bool) -> str:
        """What the keys do here, named as the player has them (on a touch screen, the
        footer's words to tap: play/pause has none, so the tap words leave it out)."""
        tr = self.tr
        if self.skyjo.touch:
            if revealed:
                return tr("replay.tap.revealed", reveal=tr("keys.reveal"))
            return tr("replay.tap.prompt", move=tr("keys.group.move"), round=tr("keys.group.round"))
        if revealed:
            return tr("replay.revealed", **self.key_labels("replay.reveal"))
        moves = ("replay.forward", "replay.back", "replay.next_round", "replay.previous_round")
        return tr("replay.prompt", **self.key_labels(*moves, "replay.autoplay"))
