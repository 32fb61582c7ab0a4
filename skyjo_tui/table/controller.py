"""The table's controller: what the cursor, the keys, the clicks and the server's pushes do
to the table in play, and what to send, without Textual.

``skyjo_tui.screens.table`` draws its state and forwards to it; a key or a click answers
with the effects the screen carries out, in order (``Send`` a move, ``Refuse`` one with
the reason on the prompt line, ring the ``Bell``, ``Redraw`` the board, ``RefreshKeys``
of the footer). Updates wait in its ``queue`` to be shown at the player's pace; the
screen's timers say when.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from server.engine import Action, Event, InvalidSetup, PlayerView, event_from_dict
from server.engine.movelog import Standin
from server.printable import printable
from server.protocol import TableStatus

from ..coaching import Hint
from ..link import Link
from ..names import SeatInfo, seats_of
from ..narrate import Touched
from ..sheet import ScoreSheet
from ..summary import RoundTracker
from .choices import Choices, Mode
from .cursor import Target, move
from .kept_keys import MoveInFlight
from .pacing import Step, StepQueue
from .turn_timer import TurnTimer

#: The move keys that explain themselves when they can do nothing.
REFUSABLE: Final = frozenset({"choose", "draw", "take", "discard"})
#: Where the cursor starts, and goes back to when a move is chosen in the tableau.
HOME: Final[Target] = 4


@dataclass(frozen=True, slots=True)
class Send:
    """Send ``action`` to the server: our move, in flight from now until shown."""

    action: Action


@dataclass(frozen=True, slots=True)
class Refuse:
    """Ring, and say on the prompt line why ``move`` (on ``target``) cannot be played now,
    of the ``view`` and in the ``mode`` it was refused in."""

    move: str
    view: PlayerView
    mode: Mode
    target: Target | None = None


@dataclass(frozen=True, slots=True)
class Bell:
    """A key that could not be kept (the kept keys are full): it is dropped."""


@dataclass(frozen=True, slots=True)
class Redraw:
    """The board's state changed: draw it again (the footer's keys too)."""


@dataclass(frozen=True, slots=True)
class RefreshKeys:
    """Which keys the footer offers may have changed."""


Effect = Send | Refuse | Bell | Redraw | RefreshKeys


@dataclass(frozen=True, slots=True)
class GameUpdate:
    """A ``game`` push as read: ``catch_up`` when it sets the board at once (joining or
    coming back: the round so far, then the table as it is now), else to be queued
    (``TableController.enqueue``)."""

    view: PlayerView
    events: list[Event]
    seq: int | None
    catch_up: bool
    standin: tuple[int, Standin] | None = None  # the bot that chose the move for a person


class TableController:
    """The table in play as the player sees it and acts on it.

    ``link``: the connection to the server as it is now (moves are only sent online).
    """

    def __init__(self, table: dict[str, Any], link: Callable[[], Link]) -> None:
        self._link = link
        self.table = table
        self.seats: list[SeatInfo] = seats_of(table)
        #: When the server starts the next round by itself (``time.monotonic()``), counted
        #: from the table push that said so; None when it will not (see ``table_changed``).
        self.next_round_at = next_round_at(table)
        self.view: PlayerView | None = None
        self._choices: tuple[PlayerView | None, Choices] = (None, Choices(None))
        self.mode = Mode.NORMAL
        self.cursor: Target = HOME
        self.tracker = RoundTracker()
        self.score_sheet = ScoreSheet()  # every round scored so far
        self.changed = Touched()  # what the update on screen changed, to highlight
        self.queue = StepQueue()
        self.turn_timer = TurnTimer()
        self.flight = MoveInFlight()  # our move on its way, and the keys kept meanwhile
        self.shown_seq: int | None = None  # the server's seq of the update on screen
        self._hint: tuple[int | None, Hint] | None = None  # the coach's, for the update of seq

    # -- the table -------------------------------------------------------------------------

    def table_changed(self, table: dict[str, Any]) -> None:
        """The table as the server says it is now."""
        self.table = table
        self.seats = seats_of(table)
        self.next_round_at = next_round_at(table)

    @property
    def game_id(self) -> int | None:
        """The stored game's id while the table is finished, as the table says (to one who
        comes back after the end too); None while a game is on (a rematch's, say)."""
        game_id = self.table.get("game_id")
        finished = self.table.get("status") == TableStatus.FINISHED
        return game_id if finished and isinstance(game_id, int) else None

    @property
    def hints_allowed(self) -> bool:
        """The table's host left the coach on (a server too old to say: it will refuse)."""
        return self.table.get("hints") is not False

    @property
    def ready_for_round(self) -> bool:
        """Between rounds, the server has us ready for the next one."""
        own = self.view.seat if self.view is not None else None
        if own is None or self.table.get("status") != TableStatus.BETWEEN_ROUNDS:
            return False
        seats = self.table.get("seats") or []
        return any(s is not None and s.get("seat") == own and s.get("ready") for s in seats)

    def players(self) -> int:
        return len(self.view.tableaux) if self.view else max(2, len(self.seats))

    # -- the link ----------------------------------------------------------------------------

    @property
    def link(self) -> Link:
        return self._link()

    def link_changed(self, link: Link) -> None:
        if link is not Link.ONLINE:
            self.flight.drop_keys()  # keys meant for a game we no longer see live

    def link_prompt(self) -> str | None:
        """The prompt's key while the connection is down: it says so instead of asking for
        a move (not "q leaves the table" while offline: a leave could not reach the server)."""
        if self.view is None or self.view.seat is None or self.link is Link.ONLINE:
            return None
        return "prompt.reconnecting" if self.link is Link.RECONNECTING else "prompt.offline"

    # -- what the server says ------------------------------------------------------------------

    def game_update(self, message: Mapping[str, Any], now: float) -> GameUpdate:
        """Read a ``game`` push: its timer is in force now; a catch-up empties the queue
        (it is shown at once)."""
        view = PlayerView.from_dict(message["view"])
        events = [event_from_dict(e) for e in message.get("events") or []]
        seq = message.get("seq")
        self.set_timer(message.get("timer"), now)
        if message.get("catch_up") or not events:
            self.queue.clear()
            return GameUpdate(view, events, seq, catch_up=True)
        standin = standin_of(message, len(view.tableaux))
        return GameUpdate(view, events, seq, catch_up=False, standin=standin)

    def enqueue(self, update: GameUpdate) -> None:
        """``update`` waits to be shown at the pace (the screen writes what was told
        before it first: a line written while moves wait comes after them)."""
        self.queue.push(Step.of(update.events, update.view, update.seq, update.standin))

    def learn(self, events: Iterable[Event]) -> list[Event]:
        """The round's tracker and the score sheet learn ``events`` (returned, to be told)."""
        told = list(events)
        self.tracker.feed(told)
        self.score_sheet.feed(told)
        return told

    def shown(self, step: Step, *, highlight: bool) -> PlayerView | None:
        """``step`` is on screen now: the view the keys are judged by, what it changed (when
        highlighted), our move shown; returns the view it replaced."""
        previous = self.view
        self.view, self.shown_seq = step.view, step.seq
        self.changed = step.changed if highlight else Touched()
        if self.flight.active:
            self.flight.shown(step.seq)
            if not self.flight.active:
                self.mode = Mode.NORMAL  # the mode our move was chosen in is used up
        self.mode = Choices.from_view(step.view).valid_mode(self.mode)
        return previous

    def hold_after(self, step: Step) -> float | None:
        """Seconds before the next update is shown, once ``step`` is (None: none waits)."""
        hold = 0.0 if self.queue.asks_for_move() else self.queue.hold_for(step)
        if len(self.queue) and hold <= 0:
            return 0.001
        return hold if hold > 0 else None

    # -- the timer -----------------------------------------------------------------------------

    def set_timer(self, timer: dict[str, Any] | None, now: float) -> None:
        """The server's turn timer, as of ``now`` (``time.monotonic()``)."""
        self.turn_timer.set(timer, now)

    def seconds_left(self, now: float) -> int | None:
        return self.turn_timer.seconds_left(now)

    # -- the coach -----------------------------------------------------------------------------

    def hinted(self, seq: int | None, hint: Hint) -> bool:
        """Keep the coach's ``hint`` of the update ``seq``. True when it is of no use: another
        update that asks for our move is on screen now (ask again, of it)."""
        self._hint = (seq, hint)
        return seq != self.shown_seq and self.view is not None and bool(self.view.legal_actions)

    def current_hint(self) -> Hint | None:
        """The hint asked for the update on screen, while it is still our move."""
        if self._hint is None or self.view is None or not self.view.legal_actions:
            return None
        seq, hint = self._hint
        return hint if seq == self.shown_seq and not self.flight.active else None

    def prompt_hint(self) -> Hint | None:
        """The hint the prompt line says until the move is begun: once a card is taken or
        chosen to discard, the prompt says what that step asks (and that Esc cancels it);
        the hint's marks stay on the board."""
        return self.current_hint() if self.mode is Mode.NORMAL else None

    # -- what the keys may do ------------------------------------------------------------------

    @property
    def choices(self) -> Choices:
        view = self.view
        if self._choices[0] is not view:  # worked out once per view (checked for every key)
            self._choices = (view, Choices.from_view(view) if view else Choices(None))
        return self._choices[1]

    def keys_wait(self) -> bool:
        """The board has no game to judge keys by yet, our move is on its way, or the board
        is catching up to one that asks for our move."""
        return self.view is None or self.flight.active or self.queue.asks_for_move()

    def allows(self, action: str) -> bool:
        """Whether the table's ``action`` can be played now (else its key says why)."""
        if action in REFUSABLE and self.link is not Link.ONLINE:
            return False  # nothing can be sent: the key says why
        if action in REFUSABLE and self.view is not None and self.keys_wait():
            return True  # kept by the action, in order with the arrows pressed around it
        choices = self.choices
        if action in ("draw", "take"):  # a discard being taken must be placed, or put back
            can = choices.draw if action == "draw" else bool(choices.take)
            return can and self.mode is not Mode.TAKE
        if action == "discard":
            return bool(choices.discard_flip)
        if action == "cancel":
            return self.mode is not Mode.NORMAL and not self.flight.active  # a sent move stays
        if action == "choose":
            return choices.any
        if action == "hint":
            return self.hints_allowed and choices.any and not self.flight.active
        return True

    # -- the cursor ----------------------------------------------------------------------------

    def move_cursor(self, direction: str) -> list[Effect]:
        removed = (
            self.view.tableaux[self.view.seat].removed_columns
            if self.view and self.view.seat is not None
            else ()
        )
        self.cursor = move(self.cursor, direction, removed)
        return [Redraw()]

    def card_hovered(self, seat: int, pos: int) -> list[Effect]:
        if self.view is not None and seat == self.view.seat and self.cursor != pos:
            self.cursor = pos
            return [Redraw()]
        return []

    def card_chosen(self, seat: int, pos: int) -> list[Effect]:
        if self.view is not None and seat == self.view.seat:
            self.cursor = pos
            return self.choose(pos)
        return []

    def pile_chosen(self, pile: Target) -> list[Effect]:
        self.cursor = pile
        return self.choose(pile)

    # -- the moves -----------------------------------------------------------------------------

    def choose(self, target: Target | None = None) -> list[Effect]:
        """⏎ (or a click) on ``target``, the cursor's card or pile if None."""
        effects: list[Effect] = []
        self._choose(self.cursor if target is None else target, effects)
        return effects

    def draw(self) -> list[Effect]:
        effects: list[Effect] = []
        if not self._kept("draw", None, effects):
            self._choose("draw", effects)
        return effects

    def take(self) -> list[Effect]:
        effects: list[Effect] = []
        if not self._kept("take", None, effects):
            self._set_mode(Mode.TAKE, effects)
        return effects

    def discard(self) -> list[Effect]:
        effects: list[Effect] = []
        if not self._kept("discard", None, effects):
            self._set_mode(Mode.DISCARD, effects)
        return effects

    def cancel(self) -> list[Effect]:
        effects: list[Effect] = []
        self._set_mode(Mode.NORMAL, effects)
        return effects

    def key_refused(self, move: str) -> list[Effect]:
        """A move key whose binding is off now (Textual does not run it): say why. With no
        game shown yet (it is starting) the first view judges it: it is kept. The footer
        shows no move keys meanwhile, as a watcher's never does."""
        effects: list[Effect] = []
        if self.view is None:
            self._kept(move, None, effects)
        else:
            self._refuse(move, None, effects)
        return effects

    def _set_mode(self, mode: Mode, effects: list[Effect]) -> None:
        self.mode = self.choices.valid_mode(mode)
        if self.mode is not Mode.NORMAL and isinstance(self.cursor, str):
            self.cursor = HOME  # into the tableau, where the choice is made
        effects.append(Redraw())

    def _choose(self, target: Target, effects: list[Effect]) -> None:
        if self._kept("choose", target, effects):
            return
        choices = self.choices
        if target == "draw" and self.mode is Mode.TAKE:
            self._refuse("draw", None, effects)  # the discard taken must be placed, or put back
            return
        if target == "draw":
            action = choices.draw_action()
        elif target == "discard":
            mode = choices.mode_for_discard_pile()
            if mode is None:  # neither to take nor to put the drawn card on: say why
                self._refuse("discard" if choices.holding_drawn else "take", None, effects)
            self._set_mode(Mode.NORMAL if mode is None or mode is self.mode else mode, effects)
            return
        else:
            action = choices.action_for(self.mode, target)
        if action is None:  # a face-up card where a face-down one is wanted, ...
            self._refuse("choose", target, effects)
            return
        # In flight at once, not when the screen sends it: a key pressed right after is kept.
        # Until the update that shows the move, the board shows it as chosen (same mode).
        self.flight.sent()
        effects.append(Send(action))

    def _refuse(self, move: str, target: Target | None, effects: list[Effect]) -> None:
        if self.view is not None and not self.flight.active:
            effects.append(Refuse(move, self.view, self.mode, target))

    # -- our move on its way, and the keys kept meanwhile --------------------------------------

    def send_failed(self) -> list[Effect]:
        """The move was refused (said in a notification) or could not be sent: the board
        stays as it was, and keys pressed after the move no longer fit."""
        self.flight.refused()
        return [RefreshKeys()]  # the keys of the board as it is, no longer all kept

    def answered(self, seq: int | None) -> list[Effect]:
        """The server took our move, to be shown by its update ``seq``."""
        self.flight.answered(seq, self.shown_seq)
        if self.flight.active:
            return []
        # The update that shows it was on screen first.
        effects: list[Effect] = []
        if self.mode is not Mode.NORMAL:
            self._set_mode(Mode.NORMAL, effects)  # the mode the move was chosen in is used up
        else:
            effects.append(RefreshKeys())
        return effects + self.play_pending()

    def keep_keys(self, moves: Sequence[str]) -> list[Effect]:
        """Move keys pressed before the table opened (while the game started), in order:
        judged, as kept keys, by the first view shown."""
        effects: list[Effect] = []
        for move_ in moves:
            self._kept(move_, None, effects)
        return effects + self.play_pending()

    def _kept(self, move: str, target: Target | None, effects: list[Effect]) -> bool:
        """Keep ``move`` for the update it waits for, if keys wait now (full: the bell).

        The screen keeps it in the binding's action, not in ``on_key``: Textual runs a
        key's binding after the screen's ``on_key`` of the keys pressed with it, so only
        there has the cursor already moved for the arrows pressed before.
        """
        if not self.keys_wait():
            return False
        if not self.flight.keep(move, self.cursor if target is None else target):
            effects.append(Bell())
        return True

    def play_pending(self) -> list[Effect]:
        """Play the kept keys, in order, once the update they wait for is shown.

        Each is checked against that view's legal actions as if pressed now;
        one that sends a move leaves the rest for the update after it.
        """
        effects: list[Effect] = []
        while not self.keys_wait() and (kept := self.flight.next_key()) is not None:
            if kept.move == "choose":
                self._choose(kept.target, effects)
            elif not self.allows(kept.move):
                self._refuse(kept.move, None, effects)
            else:
                effects += {"draw": self.draw, "take": self.take, "discard": self.discard}[
                    kept.move
                ]()
        return effects


def next_round_at(table: Mapping[str, Any]) -> float | None:
    """When the table's next round starts by itself (``time.monotonic()``), from its
    ``next_round_in`` as of now (the table just came); None when it will not."""
    seconds = (
        table.get("next_round_in") if table.get("status") == TableStatus.BETWEEN_ROUNDS else None
    )
    if isinstance(seconds, (int, float)) and seconds > 0:
        return time.monotonic() + float(seconds)
    return None


def standin_of(message: Mapping[str, Any], seats: int) -> tuple[int, Standin] | None:
    """The seat and the bot that chose a ``game`` push's move for that seat's person, from
    its ``standin`` (docs/protocol.md); None when a person chose it, or the field is not
    one a seat of this table can have (the move is then shown as any other).

    Its words are the one text of a ``game`` push (``session.NUMBERS_ONLY``), so they are
    made printable here: someone else's server may name its bot with a terminal's controls.
    """
    data = message.get("standin")
    seat = data.get("seat") if isinstance(data, Mapping) else None
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
        return None
    try:
        standin = Standin.from_dict(data)
    except InvalidSetup:
        return None
    return seat, Standin(printable(standin.bot), printable(standin.reason))
