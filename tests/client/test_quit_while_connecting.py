"""An app told to stop while its "Connecting…" screen is still being put up ends cleanly.

Over SSH or in the browser, the door stops the app when the player hangs up or stays idle;
on a loaded machine that can come before the first screen has mounted.
"""

from __future__ import annotations

from collections.abc import Callable

from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.connecting import ConnectingScreen


async def test_exit_while_the_connecting_screen_mounts_is_not_a_crash(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app()
    async with app.run_test() as pilot:
        await pilot.pause()
        app.push_screen(ConnectingScreen("example.org"))
        app.exit()  # in the same moment, before the screen's on_mount has run
        await pilot.pause()
    # run_test raises the app's crash, if any, as it closes.
    assert app.return_code == 0
