"""A bot that thinks for a long time stalls nobody: not the server, not other tables.

``StallingBot`` is a real bot (the random one) that does not answer until the
test lets it. If its thinking ran on the event loop, the whole server (and
this test, which shares the loop) would freeze until the bot gave up waiting.
"""

from __future__ import annotations

import asyncio
import logging
import random
import threading
from collections.abc import Iterator

import pytest

from server.bots import BOT_LEVELS
from server.bots.random_bot import RandomBot
from server.engine import Action, PlayerView

from .support import WAIT, table_with

STALL = 15.0  # seconds a stalled bot waits for the test before it gives up by itself


class StallingBot(RandomBot):
    level = "stalling"
    description = "waits until released (tests only)"
    thinking = threading.Event()  # a decision has begun
    release = threading.Event()
    gave_up = False  # the test never released it: the event loop was blocked

    def choose(self, view: PlayerView) -> Action:
        StallingBot.thinking.set()
        if not StallingBot.release.wait(STALL):
            StallingBot.gave_up = True
        return super().choose(view)


@pytest.fixture
def stalling_bot(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[StallingBot]]:
    monkeypatch.setitem(BOT_LEVELS, StallingBot.level, StallingBot)
    StallingBot.thinking.clear()
    StallingBot.release.clear()
    StallingBot.gave_up = False
    yield StallingBot
    StallingBot.release.set()  # no thread left waiting


async def test_while_a_bot_thinks_the_server_serves_everyone_else(stalling_bot, connect) -> None:
    alice, bob = await connect("Alice"), await connect("Bob")
    await table_with(alice, seats=2, bots=("stalling",), settings={"end-score": 10})
    await alice.request("start_game")
    await asyncio.wait_for(asyncio.to_thread(stalling_bot.thinking.wait, WAIT), WAIT)

    # The bot is thinking now. Bob plays a whole game at another table meanwhile,
    # and Alice makes her own initial flips at the bot's table.
    await table_with(bob, seats=2, bots=("random",), settings={"end-score": 10})
    await bob.request("start_game")
    await bob.play(random.Random(1))
    await alice.play(random.Random(2), stop=lambda: not alice.view["legal_actions"])
    assert alice.view["initial_flips_pending"] == [1]

    stalling_bot.release.set()
    await alice.until(lambda: alice.view["initial_flips_pending"] == [])
    assert not stalling_bot.gave_up


async def test_a_bot_that_thinks_too_long_is_played_for(
    stalling_bot, server, connect, caplog
) -> None:
    caplog.set_level(logging.ERROR, logger="server")
    server.lobby.thinker.time_limit = 0.1
    alice = await connect("Alice")
    await table_with(alice, seats=2, bots=("stalling",), settings={"end-score": 10})
    await alice.request("start_game")
    # The bot never answers, yet its seat makes its flips and the game goes on.
    await alice.play(random.Random(3), stop=lambda: alice.game["seq"] >= 6)
    assert "bot for seat 1 took too long" in caplog.text
