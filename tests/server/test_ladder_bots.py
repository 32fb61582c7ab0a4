"""The new levels of the ladder at a real table: a master bot plays a whole game."""

from __future__ import annotations

import asyncio
import random

from .support import table_with


async def test_a_table_with_a_master_and_a_casual_bot_plays_through(connect) -> None:
    alice = await connect("Alice")
    welcome_levels = alice.welcome.bot_levels
    assert welcome_levels.index("casual") < welcome_levels.index("expert")
    assert welcome_levels.index("expert") < welcome_levels.index("master")
    await table_with(alice, seats=3, bots=("master", "casual"), settings={"end-score": 20})
    await alice.request("start_game")

    await asyncio.wait_for(alice.play(random.Random(5)), 120)

    over = await alice.push("game_over")
    assert over["names"] == ["Alice", "Master bot 1", "Casual bot 2"]
    assert max(over["totals"]) >= 20
