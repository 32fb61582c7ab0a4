"""The table's controller without an app: what keys, clicks and the server's pushes do to
the table in play, and what it asks the screen to send, say or draw.

Fed the ``game`` pushes a server sends (``scenes.game_pushes``: a seeded game between
greedy bots, seen from seat 0), shown as the table screen shows them.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

from server.engine import Action, PlayerView
from skyjo_tui.coaching import Hint
from skyjo_tui.link import Link
from skyjo_tui.table.choices import Mode
from skyjo_tui.table.controller import (
    Bell,
    Redraw,
    RefreshKeys,
    Refuse,
    Send,
    TableController,
)
from skyjo_tui.table.kept_keys import MAX_KEPT_KEYS
from skyjo_tui.table.pacing import PACES, Step

from .scenes import game_pushes, moves, table_map

#: Seat 0's view, by seq: 0 the deal, 1 and 2 its own first flips (4, then 5: the greedy
#: bot's), 3 the other seat's first, 4 its second and our turn (draw or take), 5 a drawn
#: card in hand, 6 it discarded (and card 10 turned up): the other seat's turn.
PUSHES = game_pushes(2, 7, moves(6))
DEAL, FIRST_FLIP, SECOND_FLIP, THEIR_FLIP, OUR_TURN, DRAWN, THEIR_TURN = PUSHES


class Table:
    """A controller, the link it is told, and the screen's part of showing an update."""

    def __init__(self) -> None:
        self.link = Link.ONLINE
        self.controller = TableController(table_map(2), lambda: self.link)

    def push(self, message: dict[str, Any]) -> None:
        """``message`` arrives: queued (or set at once, a catch-up), nothing shown yet."""
        update = self.controller.game_update(message, now=0.0)
        if update.catch_up:
            self.show(Step.of([], update.view, update.seq))
        else:
            self.controller.enqueue(update)

    def show(self, step: Step | None = None) -> list[object]:
        """The next update waiting (or ``step``) is on screen; what the kept keys then do."""
        step = step or self.controller.queue.pop()
        assert step is not None, "no update waits"
        self.controller.shown(step, highlight=True)
        return list(self.controller.play_pending())

    def reach(self, message: dict[str, Any]) -> None:
        """Every push up to ``message``, each shown."""
        for push in PUSHES[: PUSHES.index(message) + 1]:
            self.push(push)
            while len(self.controller.queue):
                self.show()


def test_the_first_view_lets_the_key_turn_up_the_card_under_the_cursor() -> None:
    table = Table()
    assert not table.controller.allows("choose")  # no game shown yet
    table.reach(DEAL)
    ctl = table.controller
    assert ctl.cursor == 4 and ctl.allows("choose") and not ctl.allows("draw")
    assert ctl.choose() == [Send(Action.flip(0, 4))]
    assert ctl.flight.active  # until the update that shows it


def test_the_arrows_move_the_cursor_and_a_click_moves_it_to_the_card() -> None:
    table = Table()
    table.reach(DEAL)
    ctl = table.controller
    assert ctl.move_cursor("right") == [Redraw()] and ctl.cursor == 7
    assert ctl.card_hovered(1, 0) == [] and ctl.cursor == 7  # another player's card
    assert ctl.card_hovered(0, 2) == [Redraw()] and ctl.cursor == 2
    assert ctl.card_chosen(0, 9) == [Send(Action.flip(0, 9))] and ctl.cursor == 9


def test_a_key_pressed_before_the_game_is_shown_is_played_by_its_first_view() -> None:
    table = Table()
    ctl = table.controller
    assert ctl.key_refused("choose") == [] and len(ctl.flight) == 1
    table.push(DEAL)
    assert table.show() == [Send(Action.flip(0, 4))]


def a_flip_sent_then_a_key_kept(direction: str) -> Table:
    """At the deal, card 4 chosen (in flight), then the card in ``direction`` chosen (kept)."""
    table = Table()
    table.reach(DEAL)
    ctl = table.controller
    assert ctl.choose() == [Send(Action.flip(0, 4))]
    ctl.move_cursor(direction)
    assert ctl.choose() == [] and len(ctl.flight) == 1  # kept, with the card it was for
    return table


def test_keys_pressed_while_our_move_is_on_its_way_wait_for_the_update_that_shows_it() -> None:
    table = a_flip_sent_then_a_key_kept("right")
    ctl = table.controller
    assert ctl.answered(FIRST_FLIP["seq"]) == []  # answered before its update came
    assert ctl.flight.active and len(ctl.flight) == 1
    table.push(FIRST_FLIP)
    assert table.show() == [Send(Action.flip(0, 7))]  # judged by the update that shows it


def test_keys_beyond_the_kept_ones_ring_the_bell() -> None:
    table = Table()
    table.reach(DEAL)
    ctl = table.controller
    ctl.choose()
    for _key in range(MAX_KEPT_KEYS):
        assert ctl.choose() == []
    assert ctl.choose() == [Bell()] and len(ctl.flight) == MAX_KEPT_KEYS


def test_a_refused_move_leaves_the_board_as_it_was_and_drops_the_keys_kept_after_it() -> None:
    table = a_flip_sent_then_a_key_kept("down")
    ctl = table.controller
    assert ctl.send_failed() == [RefreshKeys()]
    assert not ctl.flight.active and len(ctl.flight) == 0
    assert ctl.choose() == [Send(Action.flip(0, 5))]  # the board's move again, sent now


def test_a_move_answered_after_its_update_was_shown_plays_the_keys_kept_at_once() -> None:
    table = a_flip_sent_then_a_key_kept("right")
    ctl = table.controller
    table.push(FIRST_FLIP)
    assert table.show() == []  # the server has not answered: our move may be later still
    assert ctl.answered(FIRST_FLIP["seq"]) == [RefreshKeys(), Send(Action.flip(0, 7))]


def test_a_face_up_card_is_refused_with_the_view_and_mode_it_was_chosen_in() -> None:
    table = Table()
    table.reach(FIRST_FLIP)
    ctl = table.controller
    view = ctl.view
    assert view is not None
    assert ctl.choose(4) == [Refuse("choose", view, Mode.NORMAL, 4)]  # turned up already
    assert ctl.key_refused("draw") == [Refuse("draw", view, Mode.NORMAL)]


def test_the_drawn_card_goes_on_the_discard_pile_or_takes_a_card_s_place() -> None:
    table = Table()
    table.reach(DRAWN)
    ctl = table.controller
    assert ctl.choices.holding_drawn
    assert not ctl.allows("draw") and not ctl.allows("take") and ctl.allows("discard")
    assert ctl.pile_chosen("discard") == [Redraw()]
    assert ctl.mode is Mode.DISCARD and ctl.cursor == 4  # into the tableau, to choose
    assert ctl.allows("cancel")
    view = ctl.view
    assert view is not None
    refused = ctl.choose()  # card 4 is face up: not one to turn up
    assert refused == [Refuse("choose", view, Mode.DISCARD, 4)]
    assert ctl.cancel() == [Redraw()] and ctl.mode is Mode.NORMAL
    assert ctl.choose() == [Send(Action.swap_drawn(0, 4))]  # in its place


def test_a_discard_taken_must_be_placed_before_drawing() -> None:
    table = Table()
    table.reach(OUR_TURN)
    ctl = table.controller
    assert ctl.allows("draw") and ctl.allows("take")
    assert ctl.take() == [Redraw()] and ctl.mode is Mode.TAKE
    assert not ctl.allows("draw")
    view = ctl.view
    assert view is not None
    assert ctl.pile_chosen("draw") == [Refuse("draw", view, Mode.TAKE)]
    assert ctl.choose(0) == [Send(Action.take_discard(0, 0))]


def test_a_mode_our_update_no_longer_allows_goes_back_to_normal() -> None:
    table = Table()
    table.reach(DRAWN)
    ctl = table.controller
    ctl.discard()
    assert ctl.mode is Mode.DISCARD
    table.reach(THEIR_TURN)  # our drawn card was played: the other seat's turn
    assert ctl.mode is Mode.NORMAL and not ctl.choices.any


def test_the_turn_timer_counts_down_from_what_the_push_says() -> None:
    table = Table()
    ctl = table.controller
    ctl.game_update({**DEAL, "timer": {"seats": [0], "remaining": 30, "total": 30}}, now=100.0)
    assert ctl.turn_timer.running and ctl.seconds_left(110.4) == 20
    assert ctl.seconds_left(200.0) == 0
    ctl.game_update(FIRST_FLIP, now=120.0)  # no timer said: none runs
    assert not ctl.turn_timer.running and ctl.seconds_left(121.0) is None


def test_other_players_moves_are_held_at_the_pace_and_our_move_cuts_it_short() -> None:
    table = Table()
    table.reach(SECOND_FLIP)
    ctl = table.controller
    ctl.queue.pace = PACES["normal"]
    table.push(THEIR_FLIP)
    step = ctl.queue.pop()
    assert step is not None
    table.show(step)
    assert ctl.hold_after(step) == PACES["normal"]  # the other seat's move, held
    table.push(OUR_TURN)  # an update that asks for our move is waiting: no hold
    assert ctl.keys_wait() and ctl.allows("choose")  # a key is kept meanwhile
    assert ctl.hold_after(step) == 0.001


def test_a_catch_up_sets_the_board_at_once() -> None:
    table = Table()
    table.reach(SECOND_FLIP)
    ctl = table.controller
    table.push(THEIR_FLIP)
    assert len(ctl.queue) == 1
    table.push({**OUR_TURN, "catch_up": True})
    assert len(ctl.queue) == 0
    assert ctl.view == PlayerView.from_dict(OUR_TURN["view"])
    assert ctl.shown_seq == OUR_TURN["seq"]


def test_while_the_link_is_down_no_move_is_offered_and_the_prompt_says_why() -> None:
    table = Table()
    table.reach(DEAL)
    ctl = table.controller
    ctl.choose()
    ctl.choose()  # kept
    table.link = Link.RECONNECTING
    ctl.link_changed(table.link)
    assert len(ctl.flight) == 0  # keys meant for a game no longer seen live
    assert not ctl.allows("choose") and ctl.allows("chat")
    assert ctl.key_refused("draw") == []  # our move is on its way: nothing to say yet
    assert ctl.link_prompt() == "prompt.reconnecting"
    table.link = Link.OFFLINE
    assert ctl.link_prompt() == "prompt.offline"
    table.link = Link.ONLINE
    assert ctl.link_prompt() is None


def test_a_hint_is_of_the_update_it_was_asked_for_until_the_move_is_sent() -> None:
    table = Table()
    table.reach(DEAL)
    ctl = table.controller
    hint = Hint(Action.flip(0, 0), None, 0.0)
    assert not ctl.hinted(ctl.shown_seq, hint)  # of the update on screen
    assert ctl.current_hint() == hint and ctl.prompt_hint() == hint
    assert ctl.hinted(-1, hint)  # of an older update, while one asks for our move: ask again
    assert ctl.current_hint() is None
    ctl.hinted(ctl.shown_seq, hint)
    ctl.choose()
    assert ctl.current_hint() is None  # our move is on its way


def test_the_table_says_the_game_id_and_the_coach_once_finished() -> None:
    ctl = Table().controller
    assert ctl.game_id is None and ctl.hints_allowed
    ctl.table_changed({**table_map(2, status="finished"), "game_id": 12, "hints": False})
    assert ctl.game_id == 12 and not ctl.hints_allowed


def test_the_controller_imports_no_textual() -> None:
    code = "import sys, skyjo_tui.table.controller; print('textual' in sys.modules)"
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert loaded.stdout.strip() == "False"
