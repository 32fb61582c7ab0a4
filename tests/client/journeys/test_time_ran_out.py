"""When a turn timer runs out, the log says a bot played: nobody takes it for the person's move.

Alice joins Bob's table with a one-second turn timer and neither of them turns a card
up. The server's bot turns up two cards for each; Alice's log says so before the moves
("Your time ran out, so the greedy bot played for you:", "You turned up a 7."), in her
language, and names Bob as it names him everywhere ("The greedy bot played for Bob: their
time ran out:").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from textual.pilot import Pilot

from server.netclient import ServerConnection
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.line_log import LineLog

from ..conftest import TEST_LIMITS
from ..players import ready_at_the_listed_table, wait_for

#: Per language: how the log introduces the bot's moves for Alice, her flip, the same
#: for Bob (the bot's level, the server's stand-in level, stands between each pair's halves).
WORDS = {
    "en": (
        ("Your time ran out, so the ", " bot played for you:"),
        "You turned up",
        ("The ", " bot played for Bob: their time ran out:"),
        "Bob turned up",
    ),
    "fr": (
        ("Votre temps était écoulé : le robot ", " a joué pour vous :"),
        "Vous avez retourné",
        ("Le robot ", " a joué pour Bob : son temps était écoulé :"),
        "Bob a retourné",
    ),
}


def log_lines(app: SkyjoApp) -> list[str]:
    """The table's log (a round's summary may be shown over it)."""
    tables = [s for s in app.screen_stack if isinstance(s, TableScreen)]
    return list(tables[-1].query_one(LineLog).lines) if tables else []


async def at_a_timed_table(pilot: Pilot[Any], bob: ServerConnection) -> None:
    """Bob opens a table for two with a one-second turn timer; Alice (the app) sits down
    from the lobby and is ready; Bob starts the game. Neither moves: the timer does."""
    await bob.hello(name="Bob")
    await bob.request({"type": "create_table", "name": "Bob's", "seats": 2, "turn_timer": 1})
    await ready_at_the_listed_table(pilot, "Alice")
    await bob.request({"type": "start_game"})


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_move_the_timer_made_is_said_to_be_the_bots(
    make_app: Callable[..., SkyjoApp], make_server: Callable[..., Any], lang: str
) -> None:
    server = await make_server(limits=replace(TEST_LIMITS, turn_timer_min=1))
    bob = await ServerConnection.open("127.0.0.1", server.port)
    try:
        app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice", lang=lang)
        async with app.run_test(size=(100, 30)) as pilot:
            await at_a_timed_table(pilot, bob)
            yours, your_flip, bobs, bob_flip = WORDS[lang]

            def told(said: tuple[str, str], flip: str) -> bool:
                """The log says ``said``, and the line right after it is that player's
                first flip: the introduction comes before the moves it speaks of."""
                lines = log_lines(app)
                return any(
                    line.startswith(said[0])
                    and line.endswith(said[1])
                    and lines[i + 1 :][:1]
                    and lines[i + 1].startswith(flip)
                    for i, line in enumerate(lines)
                )

            await wait_for(pilot, lambda: told(yours, your_flip), timeout=30)
            await wait_for(pilot, lambda: told(bobs, bob_flip), timeout=30)
    finally:
        await bob.close()
