"""Every screen's first frame is styled as the whole stylesheet says.

Textual restyles a resuming screen from the whole stylesheet; the client skips
that on a screen's first resume, its widgets having been styled as they mounted
a moment before (``SkyjoScreenMixin.on_screen_resume``), and skips the second
layout a screen's first layout asks for (``_on_resize``). Here each screen a
player meets first is drawn, then restyled and laid out as Textual would have
done: not one cell may change.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen

from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.help import HelpScreen
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.join import JoinScreen
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.settings import SettingsScreen
from skyjo_tui.screens.setup import SetupScreen
from skyjo_tui.screens.stats import StatsScreen

from .journeys.seen import a_local_game, on_screen, screen_text

Cells = list[list[tuple[str, Any]]]


def drawn(app: App[Any]) -> Cells:
    """The screen as the terminal gets it: each segment's text and style."""
    strips = app.screen._compositor.render_strips()  # noqa: SLF001
    return [[(segment.text, segment.style) for segment in strip] for strip in strips]


async def settled(pilot: Pilot[Any]) -> Cells:
    """The screen once drawing stops changing it (bounded: 50 looks)."""
    last = drawn(pilot.app)
    for _ in range(50):
        await pilot.pause(0.02)
        now = drawn(pilot.app)
        if now == last:
            return now
        last = now
    raise AssertionError("the screen kept changing:\n" + screen_text(pilot.app))


async def assert_styled_in_full(pilot: Pilot[Any], screen: Screen[Any]) -> None:
    first = await settled(pilot)
    app = pilot.app
    app.update_styles(screen)  # what Textual's first resume would have done
    screen._refresh_layout(app.size)  # noqa: SLF001 - and its second layout
    again = await settled(pilot)
    assert again == first, f"{type(screen).__name__} changed once restyled:\n{screen_text(app)}"


async def test_the_screens_of_the_home_menu_are_drawn_in_full_at_once(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await assert_styled_in_full(pilot, await on_screen(pilot, HomeScreen))
        for key, kind in (
            ("n", SetupScreen),
            ("o", SettingsScreen),
            ("j", JoinScreen),
            ("s", StatsScreen),
            ("question_mark", HelpScreen),
        ):
            await pilot.press(key)
            await assert_styled_in_full(pilot, await on_screen(pilot, kind))
            await pilot.press("escape")
            await on_screen(pilot, HomeScreen)
        await assert_styled_in_full(pilot, await a_local_game(pilot))


async def test_the_lobby_is_drawn_in_full_at_once(
    make_app: Callable[..., SkyjoApp], make_server: Callable[..., Any]
) -> None:
    server = await make_server()
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice")
    async with app.run_test(size=(80, 24)) as pilot:
        await assert_styled_in_full(pilot, await on_screen(pilot, LobbyScreen))
