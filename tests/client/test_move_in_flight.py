"""Between a move sent and the update that shows it: what the board offers, what keys do.

A key is only ever judged against the view it was meant for. While a move of
ours is on its way the board keeps showing it as chosen (never the turn's
choices again); an update that asks for our move is shown at once, whatever
the pace, and a key pressed while the board catches up to it is kept.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from server.app import SkyjoServer
from server.engine import Game, Phase
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.room import RoomScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.table.kept_keys import MAX_KEPT_KEYS, MoveInFlight
from skyjo_tui.widgets.footer import KeyFooter

from .players import KeyboardPlayer, burst, my_move, rows, wait_for
from .relay import Relay
from .scenes import game_pushes, table_map

MOVE_ACTIONS = ("draw", "take", "discard", "cancel")


@pytest.fixture
async def slow_link(make_server: Callable[..., Awaitable[SkyjoServer]]) -> AsyncIterator[Relay]:
    """A real server behind a relay that can hold back what the server sends."""
    server = await make_server()
    relay = Relay(server.port)
    await relay.start()
    yield relay
    await relay.stop()


@pytest.fixture
def alice(make_app: Callable[..., SkyjoApp], slow_link: Relay) -> SkyjoApp:
    """The app, connected through the slow link."""
    return make_app(tcp_connector("127.0.0.1", slow_link.port), name="Alice")


def prompt(table: TableScreen) -> str:
    return table.board.prompt_line.text


async def a_game_against_a_bot(pilot: Pilot[Any], app: SkyjoApp) -> TableScreen:
    """Host a table, add a bot, start: the table when we may turn up our first card."""
    await wait_for(pilot, lambda: rows(app, LobbyScreen, "#tables") == 0)
    await pilot.press("n")
    await wait_for(pilot, lambda: app.screen.query("#timer"))
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: rows(app, RoomScreen, "#seats") == 4)
    await pilot.press("b")
    room = app.screen
    assert isinstance(room, RoomScreen)
    await wait_for(pilot, lambda: sum(1 for seat in room.table["seats"] if seat) == 2)
    await pilot.press("s")
    await wait_for(pilot, lambda: (t := my_move(app)) is not None and t.choices.flip)
    assert isinstance(app.screen, TableScreen)
    return app.screen


async def our_turn_against_a_bot(pilot: Pilot[Any], app: SkyjoApp) -> TableScreen:
    """As ``a_game_against_a_bot``, with our two cards turned up: the table at our first turn."""
    table = await a_game_against_a_bot(pilot, app)
    player = KeyboardPlayer(pilot)
    await player.play(table)
    await wait_for(pilot, lambda: my_move(app) is table and table.choices.flip)
    await player.play(table)
    await wait_for(pilot, lambda: my_move(app) is table and table.choices.take)
    return table


async def test_keys_pressed_together_while_a_move_is_on_its_way_follow_the_cursor(
    alice: SkyjoApp, slow_link: Relay
) -> None:
    async with alice.run_test(size=(80, 24)) as pilot:
        table = await a_game_against_a_bot(pilot, alice)
        seat, first = table.view.seat, table.cursor  # type: ignore[union-attr]
        assert seat is not None and isinstance(first, int)
        slow_link.hold()
        await pilot.press("enter")  # the first card goes out; the answer waits in the relay
        assert table.acting
        # Right and Enter arrive together (one read of an SSH channel): Textual runs
        # both keys' on_key before Right's binding moves the cursor.
        burst(alice, "right", "enter")
        # Enter is kept in its on_key, Right moves the cursor after: wait for both.
        await wait_for(pilot, lambda: table.kept_keys == 1 and table.cursor == first + 3)
        slow_link.release()

        def both_up() -> bool:
            cards = table.view.tableaux[seat].cards  # type: ignore[union-attr]
            return cards[first] is not None and cards[first + 3] is not None

        await wait_for(pilot, both_up, timeout=5.0)


async def test_the_turn_is_not_offered_again_while_the_move_is_on_its_way(
    alice: SkyjoApp, slow_link: Relay
) -> None:
    async with alice.run_test(size=(80, 24)) as pilot:
        table = await our_turn_against_a_bot(pilot, alice)
        view = table.view
        assert view is not None and view.seat is not None and isinstance(table.cursor, int)
        taken, place = view.discard_top, table.cursor
        await pilot.press("t")
        assert prompt(table).startswith(f"Choose the card the {taken} replaces")

        slow_link.hold()  # the server's answer and its update wait in the relay
        await pilot.press("enter")
        assert table.acting
        await pilot.press("right")  # the cursor moves meanwhile: the board is drawn again
        assert prompt(table).startswith(
            f"Choose the card the {taken} replaces"
        )  # not "Your turn: ..."
        await pilot.press("escape")  # nothing to cancel: the move is sent
        assert prompt(table).startswith(f"Choose the card the {taken} replaces")

        slow_link.release()
        await wait_for(pilot, lambda: not table.acting)
        # In flight until the update that shows the move is on screen, not just its answer.
        assert table.view is not None and table.view.tableaux[view.seat].cards[place] == taken
        # The footer offers what the board offers now (not every key, as while in flight).
        await wait_for(pilot, lambda: footer_moves(table) == board_moves(table))


def footer_moves(table: TableScreen) -> set[str]:
    drawn = [spot for footer in table.query(KeyFooter) for spot in footer.drawn or ()]
    return {spot.key.action for spot in drawn if spot.key.action in MOVE_ACTIONS}


def board_moves(table: TableScreen) -> set[str]:
    return {action for action in MOVE_ACTIONS if table.check_action(action, ())}


async def test_your_turn_cuts_the_pace_short_and_a_key_pressed_meanwhile_is_kept(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app(pace="slow")
    async with app.run_test(size=(80, 24)) as pilot:
        table = TableScreen(table_map(4))
        await app.push_screen(table)
        # Each other player's move would stay on screen an hour: only the cut passes.
        table.controller.queue.pace = 3600.0

        def our_turn(game: Game, moves: int) -> bool:
            return moves > 14 and game.current_player == 0 and game.round.phase is Phase.CHOOSE

        *_, before, held, waiting, yours = game_pushes(4, 5, our_turn)
        assert all(
            push["events"][0]["player"] != 0 for push in (held, waiting, yours)
        )  # bots' moves
        table.feed_game({**before, "events": []})  # joining: the table as it is
        table.feed_game(held)  # a bot's move, on screen for the pace
        table.feed_game(waiting)  # another, waiting its turn to be shown
        assert table.view is not None and not table.choices.any
        table.feed_game(yours)  # the update that gives us the move arrives...
        await pilot.press("t")  # ...and t is pressed at once
        await wait_for(pilot, lambda: table.choices.take and not table.kept_keys)
        assert prompt(table).startswith("Choose the card the")


def test_a_move_lands_when_its_update_is_shown_whichever_comes_first() -> None:
    answer_first = MoveInFlight()
    answer_first.sent()
    answer_first.answered(7, shown_seq=6)  # the answer came before the update it caused
    assert answer_first.active
    answer_first.shown(6)
    assert answer_first.active
    answer_first.shown(7)
    assert not answer_first.active

    update_first = MoveInFlight()
    update_first.sent()
    update_first.shown(7)  # not known yet to be ours: still in flight
    assert update_first.active
    update_first.answered(7, shown_seq=7)
    assert not update_first.active


def test_kept_keys_are_bounded_and_dropped_with_a_refused_move() -> None:
    flight = MoveInFlight()
    flight.sent()
    assert all(flight.keep("choose", pos) for pos in range(MAX_KEPT_KEYS))
    assert not flight.keep("take", 0) and len(flight) == MAX_KEPT_KEYS
    flight.refused()
    assert not flight.active and len(flight) == 0 and flight.next_key() is None
