"""Journey: a local game interrupted by quitting the app, then `skyjo` launched again.

The seat was kept (only leaving with `q` gives it to a bot): the new launch goes
straight back to that game, with the cards as they were and what was said at the
table (the in-process server keeps its chat, as any server does). A game left with `q`
is not offered again: the next launch stays on the home screen.
"""

from __future__ import annotations

from collections.abc import Callable

from server.engine.views import PlayerView
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.confirm import ConfirmScreen
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.table import TableScreen

from ..players import my_move
from .seen import a_local_game, focused, in_text_box, on_screen, screen_text, until


def my_cards(table: TableScreen) -> tuple[int | None, ...]:
    view = table.view
    assert isinstance(view, PlayerView) and view.seat is not None
    return view.tableaux[view.seat].cards


def logged_in(app: SkyjoApp) -> bool:
    """Logged in to the local server, and done with what the login brought."""
    session = app.session
    busy = any(worker.group == "login" and not worker.is_finished for worker in app.workers)
    return session is not None and session.welcome is not None and not busy


async def test_a_local_game_quit_with_ctrl_q_is_resumed_at_the_next_launch(
    make_app: Callable[..., SkyjoApp],
) -> None:
    first = make_app()
    async with first.run_test(size=(80, 24)) as pilot:
        table = await a_local_game(pilot)
        await pilot.press("enter", "right", "enter")  # two cards turned up
        await until(
            pilot,
            lambda: sum(card is not None for card in my_cards(table)) == 2,
            "two of my cards face up",
        )
        cards, table_id = my_cards(table), table.table["table_id"]
        await pilot.press("ctrl+q")  # the terminal closed, or quit by mistake

    again = make_app()
    async with again.run_test(size=(80, 24)) as pilot:
        resumed = await on_screen(pilot, TableScreen)
        assert resumed.table["table_id"] == table_id
        await until(pilot, lambda: resumed.view is not None, "the board")
        assert my_cards(resumed) == cards, screen_text(again)
        await until(pilot, lambda: my_move(again) is not None, "my move, as before quitting")
        # Leaving now is for good: the seat goes to a bot, and home comes back.
        await pilot.press("q")
        await on_screen(pilot, ConfirmScreen)
        await pilot.press("y")
        await on_screen(pilot, HomeScreen)
        assert focused(again) == "OptionList#menu"

    third = make_app()
    async with third.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, HomeScreen)
        await until(pilot, lambda: logged_in(third), "the look for a game to resume")
        assert isinstance(third.screen, HomeScreen), screen_text(third)
        assert third.heard.table is None


async def test_the_tables_chat_comes_back_with_the_resumed_local_game(
    make_app: Callable[..., SkyjoApp],
) -> None:
    first = make_app()
    async with first.run_test(size=(80, 24)) as pilot:
        await a_local_game(pilot)
        for line in ("[b]gl", "have fun"):  # someone's words, markup and all: shown as typed
            await pilot.press("c")
            await until(pilot, lambda: in_text_box(first), "the table's chat line")
            await pilot.press(*line, "enter")
        await until(pilot, lambda: "have fun" in screen_text(first), "our lines on the board")
        await pilot.press("ctrl+q")

    again = make_app()
    async with again.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, TableScreen)
        await until(pilot, lambda: "have fun" in screen_text(again), "the chat, back")
        shown = screen_text(again)
        assert shown.index("[b]gl") < shown.index("have fun"), shown  # in the order said
