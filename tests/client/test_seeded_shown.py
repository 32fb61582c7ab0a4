"""A seeded game (dealt from a seed its host chose) is marked so in Statistics' recent games."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.widgets import TabbedContent

from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.stats import StatsScreen
from skyjo_tui.widgets.text import TextTable

from ..server.support import Client
from ..server.test_bot_authors import seeded_game
from ..server.test_ratings import leave, play_game
from .players import rows, wait_for


async def test_statistics_mark_a_seeded_game_and_only_that_one(
    make_app: Callable[..., SkyjoApp], make_server: Callable[..., Any]
) -> None:
    server = await make_server()
    ann, ben = await Client.connect(server, "Ann"), await Client.connect(server, "Ben")
    await seeded_game(ann, seed=9)
    await leave(ann)
    await play_game(ann, ben, private=True)  # not seeded: listed as usual
    await leave(ann, ben)
    await ann.close()  # Ann comes back in the app, by name

    app = make_app(tcp_connector("127.0.0.1", server.port), name="Ann")
    try:
        async with app.run_test(size=(100, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.press("s")
            await wait_for(pilot, lambda: rows(app, StatsScreen, "#recent-games") == 2)
            app.screen.query_one(TabbedContent).active = "recent"
            await pilot.pause()
            recent = app.screen.query_one("#recent-games", TextTable)
            tables = [str(recent.get_row_at(r)[1]) for r in range(2)]  # the newest first
            assert tables == ["Test table", "Test table · seeded, not counted"]
    finally:
        await ben.close()
