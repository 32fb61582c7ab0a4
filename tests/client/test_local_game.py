"""Whole local games against bots, through the real in-process server, by keys and by mouse."""

from __future__ import annotations

from collections.abc import Callable

from textual.widgets import DataTable, Select, TabbedContent

from server.bots import BOT_LEVELS
from skyjo_tui.app import SkyjoApp
from skyjo_tui.names import default_level
from skyjo_tui.screens.game_over import GameOverScreen
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.replay import ReplayScreen
from skyjo_tui.screens.setup import SetupScreen
from skyjo_tui.screens.stats import StatsScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.line_log import LineLog
from skyjo_tui.widgets.results import ResultsTable

from .journeys.seen import screen_text
from .players import (
    KeyboardPlayer,
    MousePlayer,
    burst,
    click_shown,
    current_screen,
    play_to_game_over,
    rows,
    wait_for,
)

#: The bot a game set up with the default level is named after.
BOT_NAME = f"{default_level(list(BOT_LEVELS)).capitalize()} bot 1"


async def test_keyboard_game_from_home_to_game_over(make_app: Callable[..., SkyjoApp]) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")  # home: "Play against bots"
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
        await click_shown(pilot, "#variant-end-score")
        await pilot.press("end", "backspace", "backspace", "backspace", "1", "0")
        await click_shown(pilot, "#bot-count")
        await pilot.press("up", "up", "enter")  # from 3 bots to 1 bot
        await pilot.press("ctrl+s")  # start
        await wait_for(
            pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.view is not None
        )
        table = app.screen
        assert isinstance(table, TableScreen)
        assert len(table.view.tableaux) == 2  # type: ignore[union-attr]

        player = KeyboardPlayer(pilot)
        over = await play_to_game_over(pilot, app, player)

        assert {"enter", "space", "d", "x"} <= player.keys_used
        assert {"up", "down", "k", "j"} & player.keys_used and {
            "left",
            "right",
            "h",
            "l",
        } & player.keys_used
        assert over.summary.game_over and over.summary.winners
        assert max(p.total for p in over.summary.players) >= 10  # the chosen end score
        results = over.query_one(ResultsTable)  # two players: room for the bot's whole name
        assert any(BOT_NAME in str(results.get_row_at(row)[1]) for row in range(results.row_count))
        log = table.query_one(LineLog).lines
        assert any(" drew " in line for line in log) and any(
            "Round 1 begins" in line for line in log
        )
        # You are "You" alike in the log, the results and the headline; the bot keeps its name.
        own = over.summary.own_seat
        assert (
            own is not None and next(p.name for p in over.summary.players if p.seat == own) == "You"
        )
        assert any(
            str(results.get_row_at(row)[1]).startswith("You") for row in range(results.row_count)
        )
        assert any(line.startswith("You drew ") for line in log)
        assert any(line.startswith(f"{BOT_NAME} ") for line in log)
        assert not any("Player" in line for line in log)
        headline = str(over.query_one("#winners").render())
        assert "Player" not in headline and ("You" in headline) == (own in over.summary.winners)

        await pilot.press("l")  # leave: back home, then the statistics of that game
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        await pilot.press("s")
        await wait_for(pilot, lambda: rows(app, StatsScreen, "#recent-games") == 1)
        stats = current_screen(app, StatsScreen)
        mine = str(stats.query_one("#my-stats").render())
        assert (
            "1 game, " in mine and "games against the bots on this computer are not rated" in mine
        )
        board = stats.query_one("#leaderboard", DataTable)
        assert board.row_count == 1 and str(board.get_row_at(0)[1]) == "Player"  # people only; you
        stats.query_one(TabbedContent).active = "recent"
        await pilot.pause()
        stats.query_one("#recent-games").focus()
        await pilot.press("enter")  # watch it again
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        recording = current_screen(app, ReplayScreen).recording
        assert recording is not None and recording.frames[-1].view.phase == "game_over"


async def test_two_key_presses_start_a_local_game(make_app: Callable[..., SkyjoApp]) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "enter")
        await wait_for(
            pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.view is not None
        )
        view = app.screen.view  # type: ignore[attr-defined]
        assert view.phase == "initial_flips" and len(view.tableaux) == 4  # three bots by default


async def test_each_bot_bears_the_number_of_its_row_in_the_set_up(
    make_app: Callable[..., SkyjoApp],
) -> None:
    """Bot 2 set to expert among casual bots sits down as "Expert bot 2", not "Expert bot 1":
    a bot's number is its own at the table, whatever the levels."""
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")  # home: "Play against bots"
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
        assert str(app.screen.query_one("#level-1", Select).value) == "casual"
        await click_shown(pilot, "#level-1")
        await pilot.press("down", "enter")  # casual -> expert
        await wait_for(
            pilot, lambda: str(app.screen.query_one("#level-1", Select).value) == "expert"
        )
        await pilot.press("ctrl+s")
        await wait_for(
            pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.view is not None
        )
        await wait_for(pilot, lambda: "Expert bot 2" in screen_text(app))
        shown = screen_text(app)
        assert "Casual bot 1" in shown and "Casual bot 3" in shown
        assert "Expert bot 1" not in shown and "Casual bot 2" not in shown


async def test_mouse_game_to_game_over_then_rematch(make_app: Callable[..., SkyjoApp]) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.click("#menu", offset=(3, 1))  # "Play against bots"
        await wait_for(pilot, lambda: isinstance(app.screen, SetupScreen))
        await click_shown(pilot, "#variant-end-score")
        await pilot.press("end", "backspace", "backspace", "backspace", "1", "5")
        await click_shown(pilot, "#start")
        await wait_for(
            pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.view is not None
        )
        table = app.screen
        assert isinstance(table, TableScreen)

        player = MousePlayer(pilot)
        over = await play_to_game_over(pilot, app, player)
        assert player.clicks > 10 and over.summary.winners

        await click_shown(pilot, "#rematch")
        await wait_for(pilot, lambda: not isinstance(app.screen, GameOverScreen))
        await wait_for(
            pilot,
            lambda: (
                table.view is not None
                and table.view.round == 1
                and table.view.phase == "initial_flips"
            ),
        )
        assert all(total == 0 for total in table.view.totals)  # type: ignore[union-attr]


async def test_a_key_pressed_while_a_move_is_in_flight_is_played_next(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "enter")  # a local game against three bots
        await wait_for(
            pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.view is not None
        )
        table = app.screen
        assert (
            isinstance(table, TableScreen)
            and table.view is not None
            and table.view.seat is not None
        )
        seat, cursor = table.view.seat, table.cursor
        assert table.view.phase == "initial_flips" and cursor in table.choices.flip

        burst(
            app, "enter", "right", "enter"
        )  # the second Enter comes before the first flip's answer

        def both_up() -> bool:
            cards = table.view.tableaux[seat].cards  # type: ignore[union-attr]
            return cards[cursor] is not None and cards[cursor + 3] is not None

        # Both flips' views come before the second flip's answer: wait for that answer too.
        await wait_for(pilot, lambda: both_up() and not table.acting)
        assert table.cursor == cursor + 3


async def test_a_kept_key_is_checked_against_the_new_view(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "enter")
        await wait_for(
            pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.view is not None
        )
        table = app.screen
        assert isinstance(table, TableScreen) and table.view is not None
        seat, cursor = table.view.seat, table.cursor

        burst(app, "enter", "enter")  # twice the same card: only legal the first time
        assert seat is not None and isinstance(cursor, int)
        await wait_for(
            pilot,
            lambda: table.view is not None and table.view.tableaux[seat].cards[cursor] is not None,
        )
        await wait_for(pilot, lambda: not table.acting and not table.kept_keys)
        cards = table.view.tableaux[seat].cards
        assert (
            sum(card is not None for card in cards) == 1 and table.choices.flip
        )  # the second is still to choose
        assert not any(
            n.severity == "error"
            for n in app._notifications  # noqa: SLF001 - Textual's notifications (no public list)
        )  # never sent: no server refusal
