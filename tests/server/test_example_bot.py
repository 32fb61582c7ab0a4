"""The example bot (examples/bot.py, docs/protocol.md "Writing a bot") plays whole games
against a real server, run as its author would run it: a script in its own process."""

from __future__ import annotations

import asyncio
import random
import re
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

from server.app import SkyjoServer

from .support import WAIT, Client, table_with
from .test_bot_authors import seat_names

Connect = Callable[..., Awaitable[Client]]
SCRIPT = Path(__file__).parents[2] / "examples" / "bot.py"
OVER = re.compile(r"game (\d+) over: (.+); won by (.+)")


async def run_bot(server: SkyjoServer, *options: str) -> tuple[int, str, str]:
    """Run the example bot against ``server`` until it exits: status, stdout, stderr."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(SCRIPT),
        "--connect",
        f"127.0.0.1:{server.port}",
        *options,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        async with asyncio.timeout(WAIT * 3):
            out, err = await process.communicate()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def test_the_example_bot_creates_a_seeded_table_and_plays_a_whole_game(
    server: SkyjoServer,
) -> None:
    status, out, err = await run_bot(
        server, "--name", "Robo", "--seed", "42", "--seat", "1", "--end-score", "10"
    )
    assert status == 0, err
    over = OVER.search(out)
    assert over is not None, out
    assert re.fullmatch(r"Greedy bot 1 -?\d+, Robo -?\d+", over.group(2))

    # The server kept the game: finished, dealt from the seed, the bot in the seat it chose.
    robo = await server.store.player_by_name_key("robo")
    assert robo is not None
    stored = await server.store.game_record(int(over.group(1)), robo.id)
    assert stored is not None
    record, seeded = stored
    assert seeded and record["seed"] == 42 and record["finished"]
    assert [s["name"] for s in record["seats"]] == ["Greedy bot 1", "Robo"]
    moves = [m["action"] for r in record["rounds"] for m in r["moves"]]
    assert any(a["player"] == 1 and a["kind"] in ("take", "swap") for a in moves)


async def test_the_example_bot_joins_a_table_in_the_seat_it_asks_for(
    server: SkyjoServer, connect: Connect
) -> None:
    alice = await connect("Alice")
    table = await table_with(
        alice, seats=4, bots=("greedy",), settings={"end-score": 10}, private=True
    )
    bot = asyncio.create_task(run_bot(server, "--table", table["code"], "--seat", "3"))
    try:

        def bot_is_ready() -> bool:
            seat = alice.last_table["seats"][3]  # not the lowest free one (2)
            return seat is not None and seat["name"] == "Example bot" and seat["ready"]

        await alice.until(bot_is_ready)
        await alice.request("start_game")  # the seats close up: the bot plays third
        await alice.play(random.Random(3))
        status, out, err = await bot
    finally:
        bot.cancel()
        await asyncio.gather(bot, return_exceptions=True)
    assert status == 0, err
    game_over = await alice.push("game_over")
    assert game_over["names"] == ["Alice", "Greedy bot 1", "Example bot"]
    over = OVER.search(out)
    assert over is not None and over.group(1) == str(game_over["game_id"]), out


async def test_the_example_bot_says_why_it_could_not_sit_down(
    server: SkyjoServer, connect: Connect
) -> None:
    alice = await connect("Alice")
    table = await table_with(alice, seats=3, bots=("greedy",), private=True)
    status, out, err = await run_bot(server, "--table", table["code"], "--seat", "1")
    assert status == 1 and out == ""
    assert "seat_taken: seat 1 is taken (free seats: 2)" in err
    assert seat_names(alice) == ["Alice", "Greedy bot 1", None]
