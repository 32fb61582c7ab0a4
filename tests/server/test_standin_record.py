"""A stand-in's moves in the stored record: marked as the bot's, and left out of the review.

Over real sockets against a real server on 127.0.0.1: Bob plays a few moves,
drops, a bot plays for him past the grace time, he comes back and plays to the
end. The record says which of his seat's moves the bot chose: exactly those
his own requests did not make; a restart in between forgets none of it.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

from server.app import SkyjoServer
from server.bots.review import review_game
from server.config import Pace
from server.engine import replay
from server.engine.movelog import AWAY
from server.engine.records import without_standins

from ..support_server import StartServer
from .support import Client, table_with
from .test_away import moves_by

BOB = 1  # Bob's seat
# The stand-in's level, as the operator chose it: the random bot, whose moves the review
# would find costly (the expert's would cost nothing: it plays by the review's own model).
LEVEL = "random"


def moves_by_seq(record: dict[str, Any]) -> Iterator[tuple[int, int, dict[str, Any]]]:
    """Every recorded move with its ``seq`` (each move is one, and so is each round after
    the first), and its step for ``review_game`` (the deal of each round is a step)."""
    seq, step = 0, -1
    for number, round_data in enumerate(record["rounds"], start=1):
        seq, step = seq + (number > 1), step + 1  # the round is dealt
        for move in round_data["moves"]:
            seq, step = seq + 1, step + 1
            yield seq, step, move


PACE = Pace(bot_delay=0, grace_period=0.2, between_rounds=0, standin_level=LEVEL)
Connect = Callable[..., Awaitable[Client]]


async def bob_away_for_two_turns(
    server: SkyjoServer, connect: Connect
) -> tuple[Client, str, list[int]]:
    """Alice and Bob start a game; Bob plays a turn, drops, and a bot plays two turns for him.

    Returns Alice, Bob's token and the ``seq`` of each move Bob's own requests made."""
    alice, bob = await connect("Alice", to=server), await connect("Bob", to=server)
    table = await table_with(alice, seats=2, settings={"end-score": 40})
    await bob.request("join_table", table_id=table["table_id"])
    await bob.request("ready")
    await alice.request("start_game")
    await bob.push("game")
    own: list[int] = []
    gone: list[int] = []  # how many pushes Alice had when Bob dropped
    alice_plays = asyncio.create_task(
        alice.play(
            random.Random(1), stop=lambda: bool(gone) and len(moves_by(alice, BOB, gone[0])) >= 4
        )
    )
    try:
        # Bob flips his two cards and plays a turn to its end, then his connection drops.
        await bob.play(
            random.Random(2),
            stop=lambda: len(own) >= 4 and not bob.view["legal_actions"],
            acked=own,
        )
        gone.append(len(alice.pushes))
        await bob.close()
        await alice.until(lambda: alice.last_table["seats"][BOB]["autoplay"])
        await alice_plays
    finally:
        alice_plays.cancel()
    return alice, bob.welcome.token, own


async def bob_back_to_the_end(
    server: SkyjoServer, connect: Connect, alice: Client, bob_token: str, own: list[int]
) -> dict[str, Any]:
    """Bob comes back and both play to the end; the record, marks asked for."""
    bob = await connect(token=bob_token, to=server)
    await bob.push("game")
    before_return = len(own)
    await asyncio.gather(alice.play(random.Random(3)), bob.play(random.Random(4), acked=own))
    assert len(own) > before_return  # back, Bob played his own moves again
    over = await alice.push("game_over")
    reply = await alice.request("game_record", game_id=over["game_id"], standins=True)
    return reply["record"]


def marked_as_the_bots(record: dict[str, Any], own: list[int]) -> set[int]:
    """The record steps a stand-in chose for Bob, checked to be exactly those his requests
    did not make; no other seat's move is marked."""
    bobs = [
        (seq, step, move)
        for seq, step, move in moves_by_seq(record)
        if move["action"]["player"] == BOB
    ]
    marked = {seq for seq, _, move in bobs if "standin" in move}
    assert marked and marked == {seq for seq, _, _ in bobs} - set(own)
    assert all(
        move["standin"] == {"bot": LEVEL, "reason": AWAY}
        for _, _, move in bobs
        if "standin" in move
    )
    others = [move for _, _, move in moves_by_seq(record) if move["action"]["player"] != BOB]
    assert not any("standin" in move for move in others)
    replay(record)  # the marks replay: the engine rebuilds them move for move
    return {step for _, step, move in bobs if "standin" in move}


async def test_the_record_marks_the_moves_a_stand_in_played_and_the_review_skips_them(
    make_server: StartServer, connect: Connect
) -> None:
    server = await make_server(pace=PACE)
    alice, token, own = await bob_away_for_two_turns(server, connect)
    record = await bob_back_to_the_end(server, connect, alice, token, own)
    marked = marked_as_the_bots(record, own)

    review = review_game(record, BOB)
    judged = [move for move in review.moves if move.standin is None]
    flips = {step for _, step, move in moves_by_seq(record) if move["action"]["kind"] == "flip"}
    assert marked - flips and {move.step for move in review.standins} == marked - flips
    assert not any(move.costly for move in review.standins)
    assert review.costly == tuple(move for move in judged if move.costly)
    assert review.points_given_away == sum(move.given_away for move in judged)

    # A client from before the marks (no ``standins``) gets the record as it was then.
    game_id = alice.last_table["game_id"]
    plain = (await alice.request("game_record", game_id=game_id))["record"]
    assert plain == without_standins(record)
    assert not any("standin" in move for _, _, move in moves_by_seq(plain))
    replay(plain)
    unmarked = review_game(plain, BOB)  # what the review said before: the bot's moves held
    assert all(move.standin is None for move in unmarked.moves)
    assert unmarked.points_given_away > review.points_given_away


async def test_a_restart_keeps_which_moves_the_stand_in_played(
    make_server: StartServer, connect: Connect, tmp_path: Path
) -> None:
    data = tmp_path / "kept"
    server = await make_server(data, pace=PACE)
    alice, token, own = await bob_away_for_two_turns(server, connect)
    alice_token = alice.welcome.token
    await alice.close()
    await server.stop()  # the stand-in's moves are in the log of moves since the round began

    again = await make_server(data, pace=PACE)
    alice = await connect(token=alice_token, to=again)
    await alice.push("game")
    record = await bob_back_to_the_end(again, connect, alice, token, own)
    marked_as_the_bots(record, own)
