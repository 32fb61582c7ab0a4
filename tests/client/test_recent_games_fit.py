"""Statistics' recent games at 80 columns: long names wrap in their columns, so a person
reads each game's table, winner and players whole, with no sideways scroll; bots are
named in the player's language."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from server.store import Store
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.i18n import LANGUAGES
from skyjo_tui.widgets.text import TextTable

from ..server.support import Client
from ..server.test_ratings import leave, play_game
from .journeys.seen import column_text, screen_text
from .players import to_recent_games, wait_for

LONG = "Annabelle Marguerite"  # the longest name the server takes: 20 characters
LONGER = "Bartholomew Quinzy-X"


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_recent_games_with_long_names_fit_80_columns(
    make_app: Callable[..., SkyjoApp], make_server: Callable[..., Any], lang: str
) -> None:
    server = await make_server()
    ann, ben = await Client.connect(server, LONG), await Client.connect(server, LONGER)
    await play_game(ann, ben, private=True)
    await leave(ann, ben)
    await ann.close()
    app = make_app(tcp_connector("127.0.0.1", server.port), name=LONG, lang=lang)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await to_recent_games(pilot, 1)
            recent = app.screen.query_one("#recent-games", TextTable)
            labels = [str(column.label) for column in recent.ordered_columns]
            await wait_for(pilot, lambda: labels[-1] in screen_text(app))
            assert recent.max_scroll_x == 0 and recent.region.right <= 80
            for label, cell in zip(labels, recent.get_row_at(0), strict=True):
                assert str(cell) in column_text(app, recent, labels, label), (label, cell)
            players = column_text(app, recent, labels, labels[-1])
            assert LONG in players and LONGER in players, players
            # The bot is named in the player's language, as at the table and in the replay.
            bot = {
                "de": "Gieriger Bot 1",
                "en": "Greedy bot 1",
                "es": "Bot codicioso 1",
                "fr": "Robot glouton 1",
                "it": "Bot avido 1",
                "nl": "Inhalige bot 1",
            }[lang]
            assert bot in players and (lang == "en" or "Greedy bot" not in players), players
    finally:
        await ben.close()


async def test_recent_games_from_a_server_that_sends_strange_bots(
    make_app: Callable[..., SkyjoApp],
    make_server: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A server's ``bots`` that is not a list of levels (someone else's server): the names
    are shown as sent, nothing breaks."""
    real = Store.recent_games

    async def strange(self: Store, limit: int, viewer: int) -> list[dict[str, Any]]:
        return [game | {"bots": 5} for game in await real(self, limit, viewer)]

    monkeypatch.setattr(Store, "recent_games", strange)
    server = await make_server()
    ann, ben = await Client.connect(server, LONG), await Client.connect(server, LONGER)
    await play_game(ann, ben, private=True)
    await leave(ann, ben)
    await ann.close()
    app = make_app(tcp_connector("127.0.0.1", server.port), name=LONG)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await to_recent_games(pilot, 1)
            recent = app.screen.query_one("#recent-games", TextTable)
            await wait_for(pilot, lambda: "Greedy bot 1" in str(recent.get_row_at(0)[-1]))
    finally:
        await ben.close()
