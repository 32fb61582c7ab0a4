"""Nobody is ever sent a face-down card or the draw pile's order.

Every byte the server sends to two players and a watcher over whole games is
decoded again here, frame by frame. Each card value a view shows face up
must have been revealed before by a public event; no frame carries a pile,
a deal, a seed or a reshuffle's order.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterator
from typing import Any

from server.protocol import FrameDecoder

from .support import Client, table_with

FORBIDDEN_KEYS = {"pile", "deal", "deck", "seed", "draw_pile", "hidden", "face_down", "rounds"}


def frames(client: Client) -> list[dict[str, Any]]:
    assert client.tee is not None
    decoder = FrameDecoder(max_frame=1 << 24)
    decoder.feed(bytes(client.tee.received))
    decoded = list(decoder)
    assert all(isinstance(frame, dict) for frame in decoded)
    return decoded


def walk(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from walk(item, f"{path}.{key}")
    elif isinstance(value, list):
        for item in value:
            yield from walk(item, f"{path}[]")


class Witness:
    """What the table has been shown face up this round, from the events alone."""

    def __init__(self) -> None:
        self.face_up: dict[tuple[int, int], int] = {}

    def see(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "round_started":
            self.face_up.clear()
        elif kind in ("card_flipped", "card_exchanged", "card_revealed"):
            self.face_up[(event["player"], event["pos"])] = event["value"]
        elif kind == "pile_reshuffled":
            assert event.get("order") is None, "a reshuffle's order was sent"

    def check(self, view: dict[str, Any]) -> int:
        """Every face-up value in the view was revealed; returns how many were checked."""
        checked = 0
        for player, tableau in enumerate(view["tableaux"]):
            for pos, value in enumerate(tableau["cards"]):
                if value is not None:
                    assert self.face_up.get((player, pos)) == value, (player, pos, value)
                    checked += 1
        return checked


def check_frames(client: Client) -> int:
    witness, checked = Witness(), 0
    for frame in frames(client):
        for path, value in walk(frame):
            key = path.rsplit(".", 1)[-1]
            assert key not in FORBIDDEN_KEYS, path
            # A pile's order would be a long list of card values.
            if isinstance(value, list) and len(value) > 12:
                assert not all(type(v) is int for v in value), path
        if frame["type"] == "game":
            for event in frame["events"]:
                witness.see(event)
            checked += witness.check(frame["view"])
    return checked


def games_over(client: Client, count: int) -> Callable[[], bool]:
    """Whether ``client`` has seen ``count`` games end."""
    return lambda: sum(p["type"] == "game_over" for p in client.pushes) == count


async def test_no_face_down_card_or_pile_order_is_ever_sent(connect) -> None:
    alice, bob, watcher = await connect("Alice"), await connect("Bob"), await connect("Watcher")
    table = await table_with(alice, seats=5, bots=("expert", "greedy", "random"))
    await bob.request("join_table", table_id=table["table_id"])
    await watcher.request("spectate", table_id=table["table_id"])
    await bob.request("ready")
    for game in range(2):  # two whole games: many rounds, reshuffles, column removals
        await alice.request("start_game" if game == 0 else "rematch")
        if game:
            await bob.request("rematch")
        await asyncio.gather(
            alice.play(random.Random(30 + game), stop=games_over(alice, game + 1)),
            bob.play(random.Random(40 + game), stop=games_over(bob, game + 1)),
        )
        await watcher.until(games_over(watcher, game + 1))

    events = [e["type"] for p in frames(watcher) if p["type"] == "game" for e in p["events"]]
    assert events.count("round_started") >= 2 and "card_revealed" in events
    for client in (alice, bob, watcher):
        assert check_frames(client) > 1000
