"""A seeded game (dealt from a seed its host chose) is marked so in Statistics' recent
games, and in its replay's status line."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from textual.pilot import Pilot

from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.replay import ReplayScreen
from skyjo_tui.screens.stats import StatsScreen
from skyjo_tui.widgets.text import TextTable

from ..server.support import Client
from ..server.test_bot_authors import seeded_game
from ..server.test_ratings import leave, play_game
from .journeys.seen import screen_lines
from .players import to_recent_games, wait_for


@asynccontextmanager
async def ann_in_her_recent_games(
    make_app: Callable[..., SkyjoApp], make_server: Callable[..., Any], lang: str = "en"
) -> AsyncIterator[tuple[SkyjoApp, Pilot[Any]]]:
    """Ann played a seeded game, then one that is not; she opens Statistics' recent games
    (the newest first: the unseeded game, then the seeded one)."""
    server = await make_server()
    ann, ben = await Client.connect(server, "Ann"), await Client.connect(server, "Ben")
    await seeded_game(ann, seed=9)
    await leave(ann)
    await play_game(ann, ben, private=True)  # not seeded: listed as usual
    await leave(ann, ben)
    await ann.close()  # Ann comes back in the app, by name

    app = make_app(tcp_connector("127.0.0.1", server.port), name="Ann", lang=lang)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await to_recent_games(pilot, 2)
            yield app, pilot
    finally:
        await ben.close()


async def test_statistics_mark_a_seeded_game_and_only_that_one(
    make_app: Callable[..., SkyjoApp], make_server: Callable[..., Any]
) -> None:
    async with ann_in_her_recent_games(make_app, make_server) as (app, _):
        recent = app.screen.query_one("#recent-games", TextTable)
        tables = [str(recent.get_row_at(r)[1]) for r in range(2)]  # the newest first
        assert tables == ["Test table", "Test table · seeded, not counted"]


@pytest.mark.parametrize(
    ("lang", "seeded"),
    [("en", " Seeded deal · Round 1 · "), ("fr", " Donne imposée · Manche 1 · ")],
)
async def test_the_replay_of_a_seeded_game_says_so_and_only_that_one(
    make_app: Callable[..., SkyjoApp], make_server: Callable[..., Any], lang: str, seeded: str
) -> None:
    async with ann_in_her_recent_games(make_app, make_server, lang) as (app, pilot):
        recent = app.screen.query_one("#recent-games", TextTable)
        status_lines: list[str] = []
        for row in range(2):  # the unseeded game, then the seeded one
            recent.focus()
            recent.move_cursor(row=row)
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
            await wait_for(pilot, lambda: " 1/" in screen_lines(app)[0])  # the first move
            status_lines.append(screen_lines(app)[0])
            await pilot.press("q")
            await wait_for(pilot, lambda: isinstance(app.screen, StatsScreen))
        plain, marked = status_lines
        assert plain.startswith(seeded.split(" · ")[1], 1), plain
        assert marked.startswith(seeded), marked
        assert re.search(r" 1/\d+ *$", marked), marked  # the position still shown whole
