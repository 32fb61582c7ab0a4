"""The table in play: shows each update at a followable pace and sends your moves.

The table's state and what keys, clicks and pushes do to it are the controller's
(``skyjo_tui.table.controller``, no Textual): this screen forwards them to it, carries
out what it answers (send a move, say why one was refused, ring, redraw) and draws it.
Updates from the server (a view and the events that led to it) wait in its
``StepQueue``; what is on screen is always one whole step, the screen's timers say
when the next one is shown. The log, the chat and the round's summaries are the screen's.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar, Final

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.timer import Timer

from server.engine import (
    Action,
    Event,
    PlayerView,
    Settings,
    ViewPhase,
    event_from_dict,
)
from server.engine.movelog import Standin
from server.protocol import ActRequest

from ..coaching import Hint, hint_marks, hint_text, standin_words
from ..keymap import keys_now
from ..layout import plan_table
from ..link import Link, LinkChanged
from ..messages import ChatHeard, GameUpdate, LinkState, TableChanged, TableShown
from ..names import SeatInfo, seat_names, seats_of
from ..narrate import describe
from ..presence import presence_news
from ..presenter import present
from ..sheet import ScoreSheet, SheetShown
from ..summary import RoundSummary, summarize, unseen
from ..table.choices import Choices, Mode
from ..table.controller import (
    Bell,
    Effect,
    Redraw,
    RefreshKeys,
    Refuse,
    Send,
    TableController,
    standin_of,
)
from ..table.cursor import Target
from ..table.move_keys import MOVE_BINDINGS, move_action_of
from ..table.pacing import PACES, Step
from ..table.refusals import refusal_text
from ..widgets.board import TableBoard
from ..widgets.chat import ChatInput
from ..widgets.footer import KeyFooter
from ..widgets.line_log import ChatLine, LineLog
from ..widgets.piles import PilesWidget
from ..widgets.tableau import TableauWidget
from .base import SkyjoScreen, localize_bindings

#: How many times ``i`` asks the coach while other players' moves keep changing the position.
HINT_ASKS: Final = 3
_DYNAMIC_ACTIONS = ("choose", "draw", "take", "discard", "cancel", "hint")


class TableScreen(SkyjoScreen[None]):
    AUTO_FOCUS = ""  # keys go to the table's bindings until chat is opened
    BINDINGS: ClassVar[list[BindingType]] = [
        *MOVE_BINDINGS,
        # The prompt line says it whenever it applies ("Esc to cancel"), and Help lists it:
        # at 80 columns the footer has no room for it beside a turn's keys.
        Binding("escape", "cancel", "keys.cancel", show=False, id="table.cancel"),
        Binding("left,h", "move('left')", "keys.left", show=False, id="table.left"),
        Binding("right,l", "move('right')", "keys.right", show=False, id="table.right"),
        Binding("up,k", "move('up')", "keys.up", show=False, id="table.up"),
        Binding("down,j", "move('down')", "keys.down", show=False, id="table.down"),
        Binding("c", "chat", "keys.chat", id="table.chat"),
        Binding("s", "summary", "keys.scores", id="table.summary"),
        Binding("i", "hint", "keys.hint", id="table.hint"),
        Binding("pageup", "log(1)", "keys.log_back", show=False, id="table.log_back"),
        Binding("pagedown", "log(-1)", "keys.log_newer", show=False, id="table.log_newer"),
        Binding("question_mark", "app.help", "keys.help", id="table.help"),
        # The pace, highlights, theme or language in the middle of a game, without leaving
        # the seat: in Help and the palette (the footer has no room for it at 80 columns).
        Binding("o", "settings", "keys.settings", show=False, id="table.settings"),
        Binding("q", "leave", "keys.leave", id="table.leave"),
    ]

    def __init__(self, table: dict[str, Any], story: list[Any] | None = None) -> None:
        super().__init__()
        #: The table in play: what keys, clicks and pushes do to it (this screen draws it).
        self.controller = TableController(table, lambda: self.link)
        #: The server's story of the game (``log`` in the ``table`` push that brought us
        #: here): the log is told from it, as those who stayed were told it (``_retell``).
        self._story = story
        self._story_told = False  # the log came from the story: a catch-up's moves are in it
        self._hold: Timer | None = None  # until the next update waiting in the queue is shown
        self._ticker: Timer | None = None
        self._link_note = ""
        self._early: list[dict[str, Any]] = []  # game pushes that came before the board existed
        #: Lines told (who came or went, chat) while moves that came before them wait to be
        #: shown (the pace): written after the last of those, by its ``seq``, in the order
        #: things happened, as the table's story tells them to whoever arrives.
        self._after_moves: list[tuple[int | None, Text | ChatLine]] = []
        self._ready = False  # the board is composed
        self._chat_told = False  # the table's chat so far is in the log (see _tell_chat)
        # The stand-in whose moves the log last introduced (``_log_standin``): the seat and bot.
        self._standin_told: tuple[int, Standin] | None = None
        self._footer_state: tuple[bool | None, ...] = ()
        self._summary_due = False  # a summary to open as soon as this screen is on top

    def compose(self) -> ComposeResult:
        yield TableBoard(
            self.tr,
            chat_max_length=self.skyjo.chat_max_length,
            touch=self.skyjo.touch,
            id="board",
        )
        yield KeyFooter()

    def on_mount(self) -> None:
        self.controller.queue.pace = PACES.get(self.skyjo.prefs.pace, 0.0)
        self._ready = True
        if self._story is not None:
            if self.view is not None:  # recomposed; else told with the game (``feed_game``)
                self._retell(self.view.seat)
        else:  # a server without a story: who is here now, the chat with the first update
            self._tell(presence_news(None, self.table, self.tr))
            self._tell_return_code()
            if self.view is not None:  # recomposed: the log begins anew, the game is on screen
                self._tell_chat()
        early, self._early = self._early, []
        for message in early:
            self.feed_game(message)

    def after_recompose(self) -> None:
        self.on_mount()
        self._redraw()

    async def retranslate(self) -> None:
        """Say the table in the new language where it stands, without composing it again: a
        language chosen in Settings mid-game keeps the log (the game's story so far) and the
        updates on their way (a rebuild dropped both, and a paced update landing in it found
        the board half built)."""
        localize_bindings(self, self.tr)
        self._localize_widgets()
        board = self.board
        board.chat_field.say_in(self.tr)
        board.query_one("#log", LineLog).newer_below = self.tr("log.newer_below")
        self._redraw()
        self.refresh_bindings()

    def on_unmount(self) -> None:
        self.skyjo.turn_is_mine(False)  # no longer at this table: the title goes back

    @property
    def board(self) -> TableBoard:
        return self.query_one("#board", TableBoard)

    # -- the controller's state, as the other screens and the tests read it ----------------

    @property
    def table(self) -> dict[str, Any]:
        return self.controller.table

    @property
    def seats(self) -> list[SeatInfo]:
        return self.controller.seats

    @property
    def next_round_at(self) -> float | None:
        return self.controller.next_round_at

    @property
    def view(self) -> PlayerView | None:
        return self.controller.view

    @property
    def mode(self) -> Mode:
        return self.controller.mode

    @property
    def cursor(self) -> Target:
        return self.controller.cursor

    @property
    def score_sheet(self) -> ScoreSheet:
        return self.controller.score_sheet

    @property
    def game_id(self) -> int | None:
        return self.controller.game_id

    @property
    def hints_allowed(self) -> bool:
        return self.controller.hints_allowed

    @property
    def ready_for_round(self) -> bool:
        return self.controller.ready_for_round

    @property
    def acting(self) -> bool:
        """True from sending a move of ours until the update that shows it is on screen."""
        return self.controller.flight.active

    @property
    def kept_keys(self) -> int:
        """How many move keys, pressed while the board could not judge them yet, wait."""
        return len(self.controller.flight)

    @property
    def choices(self) -> Choices:
        return self.controller.choices

    # -- size ----------------------------------------------------------------------

    def fits(self, width: int, height: int) -> bool:
        spectator = self.view is not None and self.view.seat is None
        players = self.controller.players()
        return plan_table(width, height, players - (0 if spectator else 1), spectator) is not None

    # -- what the server says ------------------------------------------------------

    def on_table_changed(self, message: TableChanged) -> None:
        self.update_table(message.table, message.removed, message.story)

    def on_game_update(self, message: GameUpdate) -> None:
        self.feed_game(message.message)

    def on_chat_heard(self, message: ChatHeard) -> None:
        line = message.line
        self.add_chat(line.scope, line.name, line.text)

    def on_link_state(self, message: LinkState) -> None:
        self.link_changed(message.change)

    def update_table(
        self,
        table: dict[str, Any],
        removed: dict[str, Any] | None = None,
        story: list[Any] | None = None,
    ) -> None:
        """The table as the server says it is now; ``removed``: whom the host removed;
        ``story``: the game's story, when we just came back (the log is told again from it)."""
        news = presence_news(self.table, table, self.tr, removed, self.skyjo.player_id)
        self.controller.table_changed(table)
        if story is not None:
            self._story, news = story, []  # the story tells this change too
            if self._ready and self.view is not None:  # else told with the game's first view
                self._retell(self.view.seat)
        self._redraw()
        self._tell_dialogs()
        self._tell(news)

    def _tell(self, lines: list[str]) -> None:
        """Who came, went or is away, in the log (names are shown as they are)."""
        for line in lines:
            self._write(Text(line, style="italic"))

    def _write(self, line: Text | ChatLine) -> None:
        """A line of the log that is not a move: after the moves still waiting to be shown."""
        if not self._ready:
            return
        if len(self.controller.queue):
            self._after_moves.append((self.controller.queue.last_seq(), line))
        else:
            self._put(line)

    def _put(self, line: Text | ChatLine) -> None:
        if isinstance(line, ChatLine):
            self.board.write_chat(line.name, line.text)
        else:
            self.board.write_log(line)

    def _write_after(self, seq: int | None) -> None:
        """The lines that waited for the moves up to ``seq`` (None: for every move)."""
        waiting, self._after_moves = self._after_moves, []
        for after, line in waiting:
            if seq is None or after is None or after <= seq:
                self._put(line)
            else:
                self._after_moves.append((after, line))

    def feed_game(self, message: dict[str, Any]) -> None:
        if not self._ready:
            self._early.append(message)
            return
        if not self.query(TableBoard):
            return  # the app is closing: the board is already gone
        update = self.controller.game_update(message, time.monotonic())
        self._tick()
        view = update.view
        if update.catch_up:
            # Joining or coming back: the round so far, then the table as it is now.
            self._write_after(None)
            self._cancel_hold()
            self.score_sheet.feed(event_from_dict(e) for e in message.get("earlier_scores") or [])
            if self._story is not None:  # the log and the cards shown at once
                self._retell(view.seat)
            told, self._story_told = self._story_told, False
            earlier = unseen(self.controller.tracker, view.round, update.events)
            self._log_events(earlier, view, write=not told)
            if not self._chat_told:
                self._tell_chat()
            self._show(Step.of([], view, update.seq))
            return
        if not self._chat_told:
            self._tell_chat()
        self.controller.enqueue(update)
        if self._hold is None or view.legal_actions:
            # Your move beats the pace: an update that asks for it cuts the hold short.
            self._cancel_hold()
            self._next_step()

    def _tell_dialogs(self) -> None:
        """The dialogs over this board show the table's change: the round's summary its
        countdown, the game's end its review key (which needs the stored game's id)."""
        for screen in self.app.screen_stack:
            if screen is not self:
                screen.post_message(TableShown(self))

    def link_changed(self, change: LinkChanged) -> None:
        self.controller.link_changed(change.link)
        note = (
            self.skyjo.reconnecting_words(change)
            if change.link is Link.RECONNECTING
            else (self.tr("link.offline") if change.link is Link.OFFLINE else "")
        )
        if note != self._link_note:
            # Not on every reconnection attempt: a note saying why a key did nothing stays.
            self.board.prompt_line.clear_note()
        self._link_note = note
        self._redraw()
        self._refresh_footer()

    @property
    def link(self) -> Link:
        """The connection to the server: moves are only sent while it is online.

        Without a session (a table shown on its own) there is no link to watch:
        a move then fails as any request would, said in a notification.
        """
        session = self.skyjo.session
        return session.link if session is not None else Link.ONLINE

    def add_chat(self, scope: str, name: str, text: str) -> None:
        if scope == "table" and self._chat_told:
            self._write(ChatLine(name, text))

    def _tell_return_code(self) -> None:
        """How a keyless guest would take their seat back, should the link drop."""
        come_back = self.skyjo.return_words("log.return_code")
        if come_back and self.table.get("your_seat") is not None:
            self._tell([come_back])

    def _retell(self, own: int | None) -> None:
        """The log from the server's story: what everyone here was told, in order (who
        came, went or was away; the moves, those a bot chose for a person introduced as
        such; the chat, what was said before the game first), from the table's first
        game through its rematches. ``own``: your seat in the game (the table's seats now
        may differ: a finished game keeps its players); an earlier game's moves are named
        from its own players (the ``game_seats`` of the story's entries)."""
        story, self._story = self._story or [], None
        self.board.clear_log()
        self._chat_told = self._story_told = True
        self._standin_told = None
        players = len(self.seats)
        at_table = self.table.get("your_seat")  # who is here is told of the table's seats
        at_table = at_table if isinstance(at_table, int) else None
        seats: Sequence[SeatInfo] = self.seats  # who plays the game told
        mine = own  # our seat in it (None: we watch it)
        names = seat_names(self.seats, players, self.tr, own)
        roster = self.table.get("game_seats")  # the game in play, or the last one
        before: dict[str, Any] | None = None  # who was here, as last told
        earlier = True  # no move told yet: a chat line was said before the game
        for entry in story:
            kind = entry.get("kind") if isinstance(entry, dict) else None
            if kind == "table":
                told = entry.get("game_seats")
                if isinstance(told, list):
                    # The story goes on through rematches: a game before this one's moves
                    # are its players', we among them or not.
                    seats, mine = (
                        (self.seats, own)
                        if told == roster
                        else game_seats_of(entry, told, self.skyjo.player_id)
                    )
                    players = len(seats)
                    names = seat_names(seats, players, self.tr, mine)
                now = others_at(entry, at_table)
                self._tell(
                    presence_news(before, now, self.tr, entry.get("removed"), self.skyjo.player_id)
                )
                before = now
            elif kind == "game":
                events_ = [event_from_dict(e) for e in entry.get("events") or []]
                self._log_standin(standin_of(entry, players), players, mine, seats)
                for line in describe(events_, names, self.tr, mine):
                    self.board.write_log(line)
                earlier = False
            elif kind == "chat" and isinstance(line := entry.get("chat"), dict):
                if earlier:  # not to be read as said just now
                    self.board.write_log(Text(self.tr("log.chat_earlier"), style="italic"))
                    earlier = False
                self.board.write_chat(str(line.get("from_name", "")), str(line.get("text", "")))
        self._tell_return_code()

    def _tell_chat(self) -> None:
        """Write what was said at this table before this board showed it (in the room, or
        before a restart: the app keeps it, from the server). With the first game update:
        before a round that begins, after the round so far (a line said during it cannot
        be placed among its moves; last, it is in view)."""
        self._chat_told = True
        earlier = [line for line in self.skyjo.heard.chat_lines if line.scope == "table"]
        if earlier and self._ready:  # said before: not to be read as said just now
            self.board.write_log(Text(self.tr("log.chat_earlier"), style="italic"))
        for line in earlier:
            self.add_chat(line.scope, line.name, line.text)

    # -- pacing ------------------------------------------------------------------------

    def _next_step(self) -> None:
        self._hold = None
        step = self.controller.queue.pop()
        if step is None:
            return
        self._show(step)
        hold = self.controller.hold_after(step)
        if hold is not None:
            self._hold = self.set_timer(hold, self._next_step)

    def _cancel_hold(self) -> None:
        if self._hold is not None:
            self._hold.stop()
            self._hold = None

    def _show(self, step: Step) -> None:
        previous = self.controller.shown(step, highlight=self.skyjo.prefs.highlight)
        if previous is None or bool(previous.legal_actions) != bool(step.view.legal_actions):
            self.board.prompt_line.clear_note()  # it is (no longer) our move: the note is stale
        self._log_standin(step.standin, len(step.view.tableaux), step.view.seat)
        self._log_events(step.events, step.view)
        self._write_after(step.seq)
        self._redraw()
        self.skyjo.turn_is_mine(bool(step.view.legal_actions))  # the title, the bell
        self._after_phase(previous, step.view)
        self._play_pending()

    def _log_standin(
        self,
        standin: tuple[int, Standin] | None,
        players: int,
        own: int | None,
        seats: Sequence[SeatInfo] | None = None,
    ) -> None:
        """Before the first of a run of moves a bot chose for a person, the log says whose
        and why ("Your time ran out, so the expert bot played for you:"), so nobody takes
        them for the person's own. ``seats``: the game's players (the table's game's if
        None; a story tells earlier games too)."""
        if standin is not None and standin != self._standin_told:
            seat = standin[0]
            name = seat_names(self.seats if seats is None else seats, players, self.tr)[seat]
            who = standin_words(standin[1], name, self.tr, yours=seat == own)
            self.board.write_log(Text(self.tr("log.standin", standin=who), style="italic"))
        self._standin_told = standin

    def _log_events(self, events: Sequence[Event], view: PlayerView, *, write: bool = True) -> None:
        """The round's tracker and the score sheet learn ``events``, and the log tells them
        (unless ``write`` is False: the story told them)."""
        events = self.controller.learn(events)
        if not write:
            return
        names = seat_names(self.seats, len(view.tableaux), self.tr, view.seat)
        for line in describe(events, names, self.tr, view.seat):
            self.board.write_log(line)

    def _after_phase(self, previous: PlayerView | None, view: PlayerView) -> None:
        new_round = previous is None or previous.round != view.round or previous.phase.over
        if not view.phase.over and new_round:
            self.skyjo.nav.close_summaries()
        if previous is not None and previous.phase == view.phase:
            return
        self._summary_due = view.phase.over
        self._show_summary_due()

    def _show_summary_due(self) -> None:
        """Open the round's summary (or the game's end) once this screen is on top.

        While something covers the table (the terminal is too small, the help),
        it waits: ``on_screen_resume`` calls this again.
        """
        view = self.view
        if not self._summary_due or view is None or self.app.screen is not self:
            return
        self._summary_due = False
        summary = self._summary(view)
        if summary is None:
            return
        if view.phase is ViewPhase.GAME_OVER:
            self.skyjo.nav.game_over(summary, self)
        elif view.phase is ViewPhase.ROUND_OVER:
            self.skyjo.nav.round_over(summary, self)

    def _summary(self, view: PlayerView) -> RoundSummary | None:
        names = seat_names(self.seats, len(view.tableaux), self.tr, view.seat)
        return summarize(view, names, self.controller.tracker, self._short_names(view, names))

    def _short_names(self, view: PlayerView, names: Sequence[str]) -> list[str]:
        """Shorter forms of ``names`` for narrow tables ("Greedy 2"); "" where the same."""
        return [
            names[s]
            if s == view.seat
            else self.seats[s].short(self.tr)
            if s < len(self.seats)
            else ""
            for s in range(len(view.tableaux))
        ]

    def sheet_shown(self) -> SheetShown:
        """The score sheet as the scores window and the game over show it."""
        view = self.view
        players = len(view.tableaux) if view else len(self.seats)
        names = seat_names(self.seats, players, self.tr, view.seat if view else None)
        if view is not None:
            names = [
                short or name
                for short, name in zip(self._short_names(view, names), names, strict=True)
            ]
        end_score = (self.table.get("settings") or {}).get("end-score")
        if not isinstance(end_score, int):  # a server too old, or strange, to say it
            end_score = Settings().end_score
        return SheetShown.of(self.score_sheet, names, end_score, view.seat if view else None)

    def on_screen_resume(self) -> None:
        # Textual also runs the base class's handler (the size check) after this one.
        # Back from Settings: its pace, and its keys (the prompt names them), are in use.
        self.controller.queue.pace = PACES.get(self.skyjo.prefs.pace, 0.0)
        self._redraw()
        self._show_summary_due()

    def on_screen_suspend(self) -> None:
        # A dialog over the board (the round's summary): the prompt stops naming what
        # to tap on the board, which the dialog's footer does not offer.
        self._redraw()

    def action_settings(self) -> None:
        self.skyjo.nav.settings()

    # -- the timer -----------------------------------------------------------------------

    def _tick(self) -> None:
        """A one-second tick redraws the server's turn timer while it runs."""
        running = self.controller.turn_timer.running
        if not running and self._ticker is not None:
            self._ticker.stop()
            self._ticker = None
        elif running and self._ticker is None:
            self._ticker = self.set_interval(1.0, self._redraw)

    def _timer_text(self) -> str:
        left = self.controller.seconds_left(time.monotonic())
        return "" if left is None else self.tr("status.timer", seconds=left)

    # -- drawing ---------------------------------------------------------------------------

    def _redraw(self) -> None:
        view = self.view
        if view is None or not self._ready:
            return
        come_back = self.skyjo.return_words("status.return_code") if view.seat is not None else ""
        extra = " · ".join(
            part for part in (self._timer_text(), self._link_note, come_back) if part
        )
        hint = self.controller.current_hint()
        link_prompt = self.controller.link_prompt()
        model = present(
            view,
            self.seats,
            self.tr,
            mode=self.mode,
            cursor=self.cursor,
            changed=self.controller.changed,
            keys=self._key_labels(),
            timer=extra,
            prompt=self.tr(link_prompt) if link_prompt else self._hint_prompt(view),
            touch=self.skyjo.touch,
            covered=self.app.screen is not self,  # a dialog over the board
        )
        if hint is not None and view.seat is not None:
            cards, piles = hint_marks(hint.move, view)
            model = replace(model, own_hint=cards, piles_hint=piles)
        self.board.model = model
        self._refresh_footer()

    # -- the coach -------------------------------------------------------------------------

    def _hint_prompt(self, view: PlayerView) -> str | None:
        """The hint's sentence on the prompt line (``TableController.prompt_hint``)."""
        hint = self.controller.prompt_hint()
        return None if hint is None else hint_text(hint, view, self.tr)

    def action_log(self, pages: int) -> None:
        """Read the log further back (PgUp) or towards the newest (PgDn)."""
        self.board.scroll_log(pages)

    def action_hint(self) -> None:
        self._ask_hint(self.controller.shown_seq)

    @work(group="hint", exclusive=True)
    async def _ask_hint(self, seq: int | None) -> None:
        # A hint is of the position it was asked in; when another player's move (the
        # others' first flips, say) came while the coach thought, that one is of no use:
        # ask again of the position now, a few times at most, so that i is never lost.
        for _ask in range(HINT_ASKS):
            reply = await self.skyjo.call({"type": "hint"})
            if reply is None:  # refused (said in a notification): nothing to show
                return
            if not self.controller.hinted(seq, Hint.from_wire(reply["hint"])):
                break
            seq = self.controller.shown_seq
        self._redraw()
        hint = self.controller.current_hint()
        if hint is not None and self.view is not None:  # the whole sentence, wrapped
            self.board.write_log(Text(hint_text(hint, self.view, self.tr), style="bold"))

    def _key_labels(self) -> dict[str, str]:
        """The keys the prompt and the refusals name (``{draw_key}``, ...), by action."""
        return {
            name: self.key_label(f"table.{name}")
            for name in ("draw", "take", "discard", "choose", "cancel", "summary", "leave")
        }

    def _refresh_footer(self) -> None:
        """Tell the footer only when a key's availability changed (it rebuilds itself)."""
        enabled = tuple(self.check_action(name, ()) for name in _DYNAMIC_ACTIONS)
        if enabled != self._footer_state:
            self._footer_state = enabled
            self.refresh_bindings()

    # -- the player's moves: the controller judges them, the screen carries them out ---------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.controller.allows(action)

    def action_move(self, direction: str) -> None:
        self._carry_out(self.controller.move_cursor(direction))

    def action_choose(self) -> None:
        self._carry_out(self.controller.choose())

    def action_draw(self) -> None:
        self._carry_out(self.controller.draw())

    def action_take(self) -> None:
        self._carry_out(self.controller.take())

    def action_discard(self) -> None:
        self._carry_out(self.controller.discard())

    def action_cancel(self) -> None:
        self._carry_out(self.controller.cancel())

    def keep_keys(self, moves: Sequence[str]) -> None:
        """Move keys pressed before this screen opened (while the game started), in order:
        judged, as kept keys, by the first view shown."""
        self._carry_out(self.controller.keep_keys(moves))

    def _play_pending(self) -> None:
        self._carry_out(self.controller.play_pending())

    def _carry_out(self, effects: Sequence[Effect]) -> None:
        """Do what the controller asked, in order."""
        for effect in effects:
            if isinstance(effect, Send):
                self._refresh_footer()
                self._send(effect.action)
            elif isinstance(effect, Refuse):
                self._refuse(effect)
            elif isinstance(effect, Bell):
                self.app.bell()
            elif isinstance(effect, Redraw):
                self._redraw()
            elif isinstance(effect, RefreshKeys):
                self._refresh_footer()

    @work(group="act")
    async def _send(self, action: Action) -> None:
        try:
            reply = await self.skyjo.call(ActRequest(action.to_dict()).to_wire())
        except BaseException:
            self.controller.send_failed()
            raise
        if reply is None:  # refused, said in a notification: the board stays as it was
            self._carry_out(self.controller.send_failed())
            return
        self._carry_out(self.controller.answered(reply.get("seq")))

    # -- the mouse -------------------------------------------------------------------------

    @on(TableauWidget.CardChosen)
    def _card_clicked(self, message: TableauWidget.CardChosen) -> None:
        self._carry_out(self.controller.card_chosen(message.seat, message.pos))

    @on(TableauWidget.CardHovered)
    def _card_hovered(self, message: TableauWidget.CardHovered) -> None:
        self._carry_out(self.controller.card_hovered(message.seat, message.pos))

    @on(PilesWidget.PileChosen)
    def _pile_clicked(self, message: PilesWidget.PileChosen) -> None:
        self._carry_out(self.controller.pile_chosen(message.pile))

    # -- chat, scores, leaving ---------------------------------------------------------------

    def action_chat(self) -> None:
        chat = self.board.chat_field
        chat.disabled, chat.display = False, True
        self.board.chat_input.focus()

    def _close_chat(self) -> None:
        chat = self.board.chat_field
        chat.disabled, chat.display = True, False
        self.set_focus(None)

    @on(ChatInput.Closed, "#chat-input")
    def _chat_closed(self) -> None:
        self._close_chat()

    @on(ChatInput.Submitted, "#chat-input")
    async def _send_chat(self, event: ChatInput.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        self._close_chat()
        if text and await self.skyjo.call({"type": "chat", "text": text, "scope": "table"}) is None:
            self.board.chat_input.take_back(text)  # refused (said): there to send again
            self.action_chat()

    def on_key(self, event: events.Key) -> None:
        if self.board.chat_input.has_focus:
            return  # typed into the chat (Esc leaves it: ChatInput.Closed)
        # Keys reach the screen before its bindings: a move key whose binding is
        # off now does nothing by itself, so say why.
        if not self.hints_allowed and event.key in keys_now("table.hint", self.skyjo.keymap):
            self.app.bell()
            self.board.prompt_line.flash(self.tr("hint.off"))
            return
        action = self._move_action_of(event.key)
        if action is not None and not self.controller.allows(action):
            self._carry_out(self.controller.key_refused(action))

    def _move_action_of(self, key: str) -> str | None:
        return move_action_of(key, self.skyjo.keymap)

    def _refuse(self, refusal: Refuse) -> None:
        """Say for a moment, in the prompt line, why a move cannot be played now."""
        note = refusal_text(
            refusal.move,
            refusal.view,
            self.seats,
            self.tr,
            self._key_labels(),
            self.link.value,
            target=refusal.target,
            mode=refusal.mode,
            touch=self.skyjo.touch,
        )
        self.app.bell()
        if note:
            self.board.prompt_line.flash(note)

    def action_summary(self) -> None:
        view = self.view
        if view is None:
            return
        summary = self._summary(view)
        if summary is not None and view.phase is ViewPhase.GAME_OVER:
            # the game over again: its rematch, leave and review are nowhere else
            self.skyjo.nav.game_over(summary, self)
        elif summary is not None:
            self.skyjo.nav.round_over(summary, self)
        else:
            self.skyjo.nav.totals(view, self.seats, self)

    def action_leave(self) -> None:
        def leave(confirmed: bool | None) -> None:
            if confirmed:
                self.skyjo.leave_table()

        view = self.view
        # A bot takes over only a seat of a game still to be played: not a watcher's, nor
        # one at a game that is over.
        seat_in_play = (
            view is not None and view.seat is not None and view.phase is not ViewPhase.GAME_OVER
        )
        question = "confirm.leave_game" if seat_in_play else "confirm.leave_table"
        self.skyjo.nav.confirm(self.tr(question), leave)

    def ready_for_next_round(self) -> None:
        self.run_worker(self.skyjo.call({"type": "ready", "ready": True}), group="ready")


def game_seats_of(
    entry: Mapping[str, Any], roster: list[Any], me: int | None
) -> tuple[list[SeatInfo], int | None]:
    """A story's ``table`` entry of an earlier game: who played it (as ``seats_of`` names
    them), and our seat in it (None: we did not play it)."""
    ours = next(
        (
            i
            for i, seat in enumerate(roster)
            if isinstance(seat, Mapping)
            and seat.get("kind") == "human"
            and me is not None
            and seat.get("player_id") == me
        ),
        None,
    )
    return seats_of({**entry, "game_seats": roster}), ours


def others_at(entry: Mapping[str, Any], own: int | None) -> dict[str, Any]:
    """A story's ``table`` entry as ``presence_news`` reads a table, without our own seat:
    a player is never told that they themselves were away, or back (live, they cannot be)."""
    seats = [
        None if isinstance(seat, Mapping) and seat.get("seat") == own else seat
        for seat in entry.get("seats") or []
    ]
    return {**entry, "seats": seats, "your_seat": own}
