"""Journey: a local game where the player chooses cards that cannot be chosen.

Every key that can do nothing says why in the prompt line: a face-up card in
the first two flips, and after ``x`` (discard the drawn card, turn one up).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.setup import SetupScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.table.choices import Mode

from ..players import KeyboardPlayer, my_move
from .seen import a_local_game, footer, on_screen, prompt_line, screen_text, until

FACE_UP = "That card is face up: choose a face-down card to turn up."


def face_up(table: TableScreen) -> list[int]:
    view = table.view
    assert view is not None and view.seat is not None
    return [pos for pos, card in enumerate(view.tableaux[view.seat].cards) if card is not None]


async def walk_choosing_a_face_up_card_says_why(pilot: Pilot[Any]) -> None:
    app = pilot.app
    assert isinstance(app, SkyjoApp)
    await on_screen(pilot, HomeScreen)
    await pilot.press("n")
    await on_screen(pilot, SetupScreen)
    await pilot.press("enter")
    table: TableScreen = await on_screen(pilot, TableScreen)
    player = KeyboardPlayer(pilot)
    await until(pilot, lambda: my_move(app) is not None and table.choices.flip, "our first flip")
    await player.move_to(table, 4)
    await pilot.press("enter")
    await until(
        pilot, lambda: face_up(table) == [4] and not table.acting, "the first card turned up"
    )
    assert table.cursor == 4
    await pilot.press("enter")  # the same card again: already face up
    await until(
        pilot, lambda: prompt_line(app) == FACE_UP, "why a face-up card cannot be turned up"
    )
    assert face_up(table) == [4]

    # The second flip, then our turn: draw, x, and a face-up card.
    await player.move_to(table, 7)
    await pilot.press("enter")
    await until(
        pilot, lambda: my_move(app) is not None and table.choices.draw, "our first turn", timeout=30
    )
    assert "Nothing drawn" in screen_text(app)
    await pilot.press("t")  # take the discard: the empty slot says what we hold
    await until(
        pilot,
        lambda: (
            table.view is not None and f"You take the {table.view.discard_top}" in screen_text(app)
        ),
        "what we take",
    )
    assert "Nothing drawn" not in screen_text(app)
    # Taking the discard obliges the exchange: d no longer draws, and says what to do.
    assert not (await footer(pilot)).has("Draw")  # the group's d, its tooltip "Draw"
    await pilot.press("d")
    await until(pilot, lambda: "You are taking the" in prompt_line(app), "why d cannot draw")
    assert "esc to leave it on the discard" in prompt_line(app)
    assert table.mode is Mode.TAKE and table.view is not None and table.view.drawn_card is None
    for _ in range(8):  # ⏎ on the draw pile (leftmost) says the same, and draws nothing
        if table.cursor == "draw":
            break
        await pilot.press("left")
        await pilot.pause()
    await pilot.press("enter")
    await until(pilot, lambda: "You are taking the" in prompt_line(app), "why ⏎ cannot draw")
    assert table.mode is Mode.TAKE and table.view is not None and table.view.drawn_card is None
    await pilot.press("escape")  # not this time
    await until(pilot, lambda: "Nothing drawn" in screen_text(app), "nothing taken")
    await pilot.press("d")
    await until(
        pilot, lambda: my_move(app) is not None and table.choices.discard_flip, "the drawn card"
    )
    # ⏎ on the draw pile with a card drawn: where ⏎ works instead, not "⏎ swaps it".
    for _ in range(8):  # left from the tableau onto the piles (the draw pile is leftmost)
        if table.cursor == "draw":
            break
        await pilot.press("left")
        await pilot.pause()
    assert table.cursor == "draw"
    await pilot.press("enter")
    await until(pilot, lambda: "move onto one of your cards" in prompt_line(app), "where ⏎ works")
    assert table.view is not None and table.view.drawn_card is not None  # nothing played
    await pilot.press("x")
    await player.move_to(table, face_up(table)[0])
    await pilot.press("enter")
    await until(
        pilot, lambda: prompt_line(app) == FACE_UP, "why a face-up card cannot be turned up after x"
    )
    await player.move_to(table, min(table.choices.discard_flip))
    await pilot.press("enter")
    await until(
        pilot,
        lambda: table.view is not None and table.view.drawn_card is None,
        "the drawn card discarded",
    )


async def test_choosing_a_face_up_card_says_why(make_app: Callable[..., SkyjoApp]) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await walk_choosing_a_face_up_card_says_why(pilot)


FLIP_FIRST = "First turn up a card: move to it, then ⏎."


async def test_a_move_key_pressed_while_the_game_starts_says_why_once_it_is_shown(
    make_app: Callable[..., SkyjoApp],
) -> None:
    """``d`` right after Enter: the set-up screen is still on top while the game starts."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, HomeScreen)
        await pilot.press("n")
        setup = await on_screen(pilot, SetupScreen)
        # Hold the in-process server's start (its lock) so that the key surely arrives before
        # the table opens, as a quick typist's does in a real terminal (there: 0.3 s).
        starting = app.local_server()._lock  # noqa: SLF001 - the test looks inside
        await starting.acquire()
        try:
            await pilot.press("enter", "d")
            assert app.screen is setup
        finally:
            starting.release()
        table: TableScreen = await on_screen(pilot, TableScreen)
        await until(
            pilot, lambda: prompt_line(app) == FLIP_FIRST, "why d cannot draw in the first flips"
        )
        assert table.view is not None and table.view.drawn_card is None and table.kept_keys == 0


async def test_choosing_the_discard_pile_in_the_first_flips_says_why(
    make_app: Callable[..., SkyjoApp],
) -> None:
    """Enter on the discard pile (the cursor goes there left of the first column) while our
    first cards are to be turned up: the prompt says what to do, as the draw pile's does."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table: TableScreen = await a_local_game(pilot)
        await until(pilot, lambda: table.choices.flip and not table.acting, "our first flip")
        await KeyboardPlayer(pilot).move_to(table, 1)
        await pilot.press("left")
        assert table.cursor == "discard"
        await pilot.press("enter")
        await until(
            pilot, lambda: prompt_line(app) == FLIP_FIRST, "why the discard cannot be chosen yet"
        )
        assert table.mode is Mode.NORMAL and not face_up(table)
