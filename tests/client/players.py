"""A person at the keyboard or with a mouse, for Pilot tests.

They read only what the table screen shows (the view's legal moves, the
cursor) and act with keys or clicks, as a player would. Every loop is
bounded in steps and in time.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

from textual import events
from textual.app import App
from textual.geometry import Offset
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import DataTable, TabbedContent

from skyjo_tui.layout import ROWS
from skyjo_tui.screens.game_over import GameOverScreen
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.round_summary import RoundSummaryScreen
from skyjo_tui.screens.stats import StatsScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.piles import PilesWidget
from skyjo_tui.widgets.tableau import TableauWidget

S = TypeVar("S", bound=Screen[Any])

MAX_STEPS = 3000
STEP_PAUSE = 0.01


async def wait_for(pilot: Pilot[Any], condition: Callable[[], Any], timeout: float = 15.0) -> None:
    """Let the app run until ``condition()`` holds; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(
                f"timed out waiting for {getattr(condition, '__name__', condition)}"
            )
        await pilot.pause(STEP_PAUSE)


async def click_shown(pilot: Pilot[Any], selector: str, timeout: float = 15.0) -> None:
    """Click ``selector`` on the current screen once it is there and laid out, as a
    person clicks what they see (a screen just pushed may not have composed it yet)."""

    def shown() -> bool:
        found = pilot.app.screen.query(selector)
        return bool(found) and found.first().region.area > 0

    shown.__name__ = f"{selector} shown"
    await wait_for(pilot, shown, timeout)
    await pilot.click(selector)


def burst(app: App[Any], *keys: str) -> None:
    """Keys arriving together, as a quick typist's do: none waits for the server's answer."""
    for key in keys:
        app.post_message(events.Key(key, "\r" if key == "enter" else None))


def rows(app: App[Any], screen_type: type, selector: str) -> int:
    """Rows of the data table ``selector`` on the current screen; -1 until it is there."""
    screen = app.screen
    if not isinstance(screen, screen_type):
        return -1
    found = screen.query(selector)
    return found.first(DataTable).row_count if found else -1


async def to_recent_games(pilot: Pilot[Any], count: int) -> None:
    """From the lobby to Statistics' recent games, once ``count`` games are listed."""
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
    await pilot.press("s")
    await wait_for(pilot, lambda: rows(app, StatsScreen, "#recent-games") == count)
    app.screen.query_one(TabbedContent).active = "recent"
    await pilot.pause()


def my_move(app: App[Any]) -> TableScreen | None:
    """The table screen when it waits for one of our moves."""
    screen = app.screen
    if isinstance(screen, TableScreen) and screen.choices.any and not screen.acting:
        return screen
    return None


class KeyboardPlayer:
    """Arrows and hjkl to move, Enter/Space to choose, d, t and x."""

    def __init__(self, pilot: Pilot[Any]) -> None:
        self.pilot = pilot
        self.keys_used: set[str] = set()

    async def press(self, *keys: str) -> None:
        self.keys_used.update(keys)
        await self.pilot.press(*keys)

    async def move_to(self, table: TableScreen, target: int) -> None:
        for step in range(16):
            cursor = table.cursor
            if cursor == target:
                return
            if isinstance(cursor, str):
                key = "l"
            else:
                column, row = divmod(cursor, ROWS)
                want_column, want_row = divmod(target, ROWS)
                if row != want_row:
                    key = (
                        ("j" if step % 2 else "down")
                        if want_row > row
                        else ("k" if step % 2 else "up")
                    )
                else:
                    key = (
                        ("right" if step % 2 else "l")
                        if want_column > column
                        else ("left" if step % 2 else "h")
                    )
            await self.press(key)
        raise AssertionError(f"the cursor did not reach {target}")

    async def play(self, table: TableScreen) -> None:
        choices, view = table.choices, table.view
        assert view is not None
        if choices.flip:
            await self.move_to(table, min(choices.flip))
            await self.press("enter")
        elif choices.draw and view.discard_top <= 0 and choices.take:
            await self.press("t")
            await self.move_to(table, max(choices.take))
            await self.press("space")
        elif choices.draw:
            await self.press("d")
        elif choices.discard_flip:
            await self.press("x")
            await self.move_to(table, min(choices.discard_flip))
            await self.press("space")
        elif choices.swap:
            await self.move_to(table, min(choices.swap))
            await self.press("enter")

    async def next_round(self, summary: RoundSummaryScreen) -> None:
        await self.press("enter")


class MousePlayer:
    """Clicks on the piles, on cards and on buttons."""

    def __init__(self, pilot: Pilot[Any]) -> None:
        self.pilot = pilot
        self.clicks = 0

    async def click_card(self, table: TableScreen, pos: int) -> None:
        own = table.query_one("#own", TableauWidget)
        card = own.card_size
        column, row = divmod(pos, ROWS)
        offset = Offset(
            1 + column * (card.width + card.gap) + card.width // 2,
            1 + row * card.height + card.height // 2,
        )
        await self._click(own, offset)

    async def click_pile(self, table: TableScreen, pile: str) -> None:
        piles = table.query_one(PilesWidget)
        card = piles.card_size
        x = 1 + card.width // 2 if pile == "draw" else card.width + 4 + card.width // 2
        await self._click(piles, Offset(x, 1 + card.height // 2))

    async def _click(self, widget: Any, offset: Offset) -> None:
        self.clicks += 1
        assert await self.pilot.click(widget, offset=offset), (
            f"nothing to click at {offset} of {widget}"
        )

    async def play(self, table: TableScreen) -> None:
        choices = table.choices
        if choices.flip:
            await self.click_card(table, max(choices.flip))
        elif choices.draw:
            await self.click_pile(table, "draw")
        elif choices.discard_flip:
            await self.click_pile(table, "discard")
            await self.click_card(table, max(choices.discard_flip))
        elif choices.swap:
            await self.click_card(table, max(choices.swap))

    async def next_round(self, summary: RoundSummaryScreen) -> None:
        self.clicks += 1
        await click_shown(self.pilot, "#ready")


async def play_to_game_over(
    pilot: Pilot[Any], app: App[Any], player: KeyboardPlayer | MousePlayer
) -> GameOverScreen:
    """Play every move asked of us, and each next round, until the game-over screen."""
    deadline = time.monotonic() + 90
    rounds_seen: set[int] = set()
    for _ in range(MAX_STEPS):
        assert time.monotonic() < deadline, "the game took too long"
        screen = app.screen
        if isinstance(screen, GameOverScreen):
            return screen
        if (
            isinstance(screen, RoundSummaryScreen)
            and screen.summary is not None
            and screen.summary.round not in rounds_seen
        ):
            rounds_seen.add(screen.summary.round)
            await player.next_round(screen)
        table = my_move(app)
        if table is not None:
            await player.play(table)
        await pilot.pause(STEP_PAUSE)
    raise AssertionError("no game over after the maximum number of steps")


def current_screen(app: App[Any], screen_type: type[S]) -> S:
    """The current screen, which the test knows is a ``screen_type``."""
    screen = app.screen
    assert isinstance(screen, screen_type), (
        f"on {type(screen).__name__}, not {screen_type.__name__}"
    )
    return screen


async def ready_at_the_listed_table(pilot: Pilot[Any], name: str) -> None:
    """From the lobby, the one table listed: join it (Enter), then be ready (``r``), as
    ``name``; until the room says so."""
    from skyjo_tui.screens.room import RoomScreen

    app = pilot.app
    await wait_for(pilot, lambda: rows(app, LobbyScreen, "#tables") == 1)
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(app.screen, RoomScreen))
    await pilot.press("r")

    def ready() -> bool:
        room = app.screen
        seats = room.table["seats"] if isinstance(room, RoomScreen) else []
        return any(s and s["name"] == name and s["ready"] for s in seats)

    await wait_for(pilot, ready)
