"""The local game's data directory is one server's: a second app on it says why it cannot play."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from server.app import SkyjoServer
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.table import TableScreen

from .conftest import server_config
from .players import my_move, wait_for


def errors_said(app: SkyjoApp) -> list[str]:
    return [n.message for n in app._notifications if n.severity == "error"]  # noqa: SLF001 - Textual's notifications (no public list)


async def test_a_local_game_on_a_data_directory_another_server_holds_is_refused_with_why(
    make_app: Callable[..., SkyjoApp], tmp_path: Path
) -> None:
    local = tmp_path / "client" / "local"  # where make_app's local game keeps its data
    other = SkyjoServer(server_config(local))  # e.g. another `skyjo` on the same --data-dir
    await other.start()
    try:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("enter")  # the local game's setup
            setup = app.screen
            await pilot.press("enter")  # play
            await wait_for(pilot, lambda: errors_said(app) != [])
            assert errors_said(app) == [
                f"The local game could not start: another Skyjo server (process {os.getpid()}) "
                f"is using the data directory {local}; stop it first, or give this one another --data-dir"
            ]
            assert app.screen is setup  # no crash, no table: it may be tried again
            await other.stop()  # once the other one is gone, Enter on the Start button plays
            # at once: the failed start's press is over (it was shown as under way for 0.2 s)
            assert app.focused is setup.query_one("#start")
            await pilot.press("enter")
            await wait_for(
                pilot, lambda: isinstance(app.screen, TableScreen) and my_move(app) is not None
            )
    finally:
        await other.stop()
