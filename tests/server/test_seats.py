"""Seats that close up (a game starts, a rematch) stay each person's own, over real sockets."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

from server.config import Pace

from .support import Client, table_with

SHORT_GAME = {"end-score": 10}


def over_since(client: Client, start: int) -> Callable[[], bool]:
    """Whether a game ended after push number ``start``."""
    return lambda: any(p["type"] == "game_over" for p in client.pushes[start:])


def seat_names(client: Client) -> list[str | None]:
    assert client.table is not None
    return [None if s is None else s["name"] for s in client.table["seats"]]


async def test_when_empty_seats_close_up_everyone_plays_their_own_seat(connect) -> None:
    alice, bob, carol, dan = [await connect(n) for n in ("Alice", "Bob", "Carol", "Dan")]
    table = await table_with(alice, seats=4, settings=SHORT_GAME)
    for guest in (bob, carol, dan):
        await guest.request("join_table", table_id=table["table_id"])
        await guest.request("ready")
    await bob.request("leave_table")  # seat 1 is empty: Carol is at 2, Dan at 3
    await alice.until(lambda: seat_names(alice) == ["Alice", None, "Carol", "Dan"])

    await alice.request("start_game")  # the seats close up: Carol is player 1, Dan player 2
    for who, seat in ((alice, 0), (carol, 1), (dan, 2)):
        await who.until(lambda who=who: who.game is not None and who.table["status"] == "playing")
        assert who.table["your_seat"] == seat and who.view["seat"] == seat
    assert seat_names(carol) == ["Alice", "Carol", "Dan", None]

    # Each plays as their own seat to the end (a move for another seat would be refused).
    await asyncio.gather(*(c.play(random.Random(i)) for i, c in enumerate((alice, carol, dan))))
    over = await dan.push("game_over")
    assert over["names"] == ["Alice", "Carol", "Dan"]

    # Carol leaves the finished table: her seat empties, Dan keeps his.
    await carol.request("leave_table")
    await dan.until(lambda: seat_names(dan) == ["Alice", None, "Dan", None])
    assert dan.table["your_seat"] == 2 and not any(p["type"] == "left_table" for p in dan.pushes)

    # A rematch closes the seats up again: Dan is now player 1, and plays as him.
    first_game = {c: len(c.pushes) for c in (alice, dan)}
    await alice.request("rematch")
    await dan.request("rematch")
    await dan.push("game", lambda p: p["seq"] == 0, after=first_game[dan])
    await dan.until(lambda: dan.table["status"] == "playing")
    assert dan.table["your_seat"] == 1 and dan.view["seat"] == 1
    await asyncio.gather(
        *(c.play(random.Random(5), stop=over_since(c, start)) for c, start in first_game.items())
    )
    assert (await dan.push("game_over", after=first_game[dan]))["names"] == ["Alice", "Dan"]


async def test_a_person_who_drops_after_the_seats_closed_up_comes_back_to_their_own_seat(
    make_server, connect
) -> None:
    server = await make_server(pace=Pace(bot_delay=0, grace_period=600, between_rounds=0))
    alice, bob, carol, dan = [await connect(n, to=server) for n in ("Alice", "Bob", "Carol", "Dan")]
    table = await table_with(alice, seats=4, settings=SHORT_GAME)
    for guest in (bob, carol, dan):
        await guest.request("join_table", table_id=table["table_id"])
        await guest.request("ready")
    await bob.request("leave_table")
    await alice.until(lambda: seat_names(alice) == ["Alice", None, "Carol", "Dan"])
    await alice.request("start_game")
    await carol.until(lambda: carol.game is not None)

    # Carol drops: her seat (1 now) shows her away, not Dan's.
    token = carol.welcome.token
    await carol.close()
    await alice.until(lambda: not alice.table["seats"][1]["connected"])
    assert alice.table["seats"][2]["connected"] and alice.table["seats"][2]["name"] == "Dan"
    carol = await connect(token=token, to=server)
    assert carol.welcome.resumed
    await carol.until(lambda: carol.game is not None and carol.table["status"] == "playing")
    assert carol.table["your_seat"] == 1 and carol.view["seat"] == 1
    await asyncio.gather(*(c.play(random.Random(i)) for i, c in enumerate((alice, carol, dan))))
    assert (await carol.push("game_over"))["names"] == ["Alice", "Carol", "Dan"]


def game_seat_names(client: Client) -> list[str]:
    assert client.table is not None
    return [seat["name"] for seat in client.table["game_seats"]]


async def test_a_finished_game_keeps_its_seats_whoever_leaves_or_sits_down(
    tmp_path, make_server
) -> None:
    """Who played a finished game is the game's (``game_seats``), not the table's seats now:
    Alice leaves it, Carol sits down in the seat Alice emptied and is not handed Alice's
    result; Bob, back with his token, and after a restart, still has his own; the rematch
    deals Carol in."""
    data = tmp_path / "kept"
    server = await make_server(data)
    alice, bob, carol = [await Client.connect(server, n) for n in ("Alice", "Bob", "Carol")]
    table = await table_with(alice, seats=2, settings=SHORT_GAME)
    await bob.request("join_table", table_id=table["table_id"])
    await bob.request("ready")
    await alice.request("start_game")
    await asyncio.gather(alice.play(random.Random(1)), bob.play(random.Random(2)))
    over = await bob.push("game_over")
    assert over["names"] == game_seat_names(bob) == ["Alice", "Bob"]

    await alice.request("leave_table")
    await bob.until(lambda: seat_names(bob) == [None, "Bob"])
    assert game_seat_names(bob) == ["Alice", "Bob"]
    await carol.request("join_table", table_id=table["table_id"])  # the lowest free seat: 0
    await bob.until(lambda: seat_names(bob) == ["Carol", "Bob"])
    assert carol.last_table["your_seat"] == 0 and game_seat_names(carol) == ["Alice", "Bob"]
    assert not any(p["type"] == "game" for p in carol.pushes), "Carol was given Alice's game"

    token = bob.welcome.token
    for client in (alice, bob, carol):
        await client.close()
    await server.stop()
    server = await make_server(data)
    bob = await Client.connect(server, token=token)
    await bob.until(lambda: bob.game is not None and bob.table is not None)
    assert bob.view["seat"] == 1 and bob.view["totals"] == over["totals"]
    assert game_seat_names(bob) == ["Alice", "Bob"] and seat_names(bob) == ["Carol", "Bob"]
    await bob.close()
