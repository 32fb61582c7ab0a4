"""A Skyjo bot for skyjo-server: the example of docs/protocol.md, "Writing a bot".

    python examples/bot.py                                   # a new private table against a greedy bot
    python examples/bot.py --seed 42 --seat 1                # dealt from seed 42, in the second seat
    python examples/bot.py --connect HOST:PORT --table KXQPTW --seat 2   # join a table by its code

It connects, says hello with a name, creates or joins a table, plays the moves
a simple greedy policy picks from the views the server sends, and exits once
the game is over (status 0; 1 when the server refused it or the connection
dropped). It uses ``server.netclient`` (this repository's asyncio client); any
language that can speak the frames of docs/protocol.md would do as well.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from typing import Any

from server.netclient import ConnectionLost, ServerConnection, ServerError

# A face-down card is worth this much on average (the 150 cards add up to 760).
HIDDEN_VALUE = 5.0
# Take the discard only when it beats the card it replaces by this much: else draw.
TAKE_MARGIN = 3.0


def gain(view: dict[str, Any], pos: int, card: int) -> float:
    """How many points putting ``card`` at ``pos`` of my tableau saves (what leaves minus it)."""
    there = view["tableaux"][view["seat"]]["cards"][pos]
    return (HIDDEN_VALUE if there is None else there) - card


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """A greedy move from ``view`` (one of its ``legal_actions``)."""
    legal = view["legal_actions"]
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for action in legal:
        by_kind.setdefault(action["kind"], []).append(action)
    if "flip" in by_kind:  # the initial flips: any two cards
        return by_kind["flip"][0]
    if "take" in by_kind:  # my turn begins: take the discard if it is worth it, else draw
        card = view["discard_top"]
        best = max(by_kind["take"], key=lambda a: gain(view, a["pos"], card))
        return best if gain(view, best["pos"], card) >= TAKE_MARGIN else by_kind["draw"][0]
    # I drew a card: keep it where it saves the most, or throw it away and turn a card up.
    card = view["drawn_card"]
    best = max(by_kind["swap"], key=lambda a: gain(view, a["pos"], card))
    if gain(view, best["pos"], card) > 0 or "discard_flip" not in by_kind:
        return best
    return by_kind["discard_flip"][0]


async def sit_down(conn: ServerConnection, args: argparse.Namespace) -> None:
    """Join the table ``args.table`` (by its code), or create one with a server bot and start."""
    if args.table:
        await conn.request({"type": "join_table", "code": args.table, "seat": args.seat})
        await conn.request({"type": "ready"})  # the host starts once everyone is ready
        return
    table = {
        "type": "create_table",
        "name": f"{args.name}'s table",
        "seats": 2,
        "private": True,  # only a private table may have a seed
        "seed": args.seed,
        "seat": args.seat,
        "settings": {"end-score": args.end_score},
    }
    await conn.request(table)
    await conn.request({"type": "add_bot", "level": args.opponent})  # it takes the free seat
    await conn.request({"type": "start_game"})


async def play(conn: ServerConnection) -> dict[str, Any]:
    """Answer the pushes until the game is over; the ``game_over`` push."""
    acted = -1  # the update my last move made: older views are out of date
    async for push in conn.pushes():
        if push["type"] == "game" and push["seq"] >= acted and push["view"]["legal_actions"]:
            try:
                acted = (await conn.act(choose(push["view"])))["seq"]
            except ServerError as error:  # refused: nothing changed, the next view tells
                print(f"move refused: {error}", file=sys.stderr)
        elif push["type"] == "table":
            table, seat = push["table"], push["table"]["your_seat"]
            if table["status"] == "between_rounds" and not table["seats"][seat]["ready"]:
                with contextlib.suppress(ServerError):  # the round may have begun meanwhile
                    await conn.request({"type": "ready"})  # the next round, without waiting
        elif push["type"] == "game_over":
            return push
        elif push["type"] == "left_table":  # kicked, or the table closed: no game to finish
            raise ConnectionLost(f"removed from the table ({push['reason']})")
    raise ConnectionLost("the connection closed during the game")


def address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:7777`` for an IPv6 address) as a host and a port."""
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not HOST:PORT")
    return host.strip("[]"), int(port)


async def main(args: argparse.Namespace) -> int:
    host, port = args.connect
    try:
        conn = await ServerConnection.open(host, port)
    except (OSError, TimeoutError) as error:
        print(f"cannot connect to {host} port {port}: {error}", file=sys.stderr)
        return 1
    try:
        await conn.hello(name=args.name, client="example-bot")
        await sit_down(conn, args)
        over = await play(conn)
        results = ", ".join(f"{n} {t}" for n, t in zip(over["names"], over["totals"], strict=True))
        winners = ", ".join(over["names"][seat] for seat in over["winners"])
        print(f"game {over['game_id']} over: {results}; won by {winners}")
        await conn.request({"type": "leave_table"})
        return 0
    except (ServerError, ConnectionLost) as error:
        print(f"stopped: {error}", file=sys.stderr)
        return 1
    finally:
        await conn.close()


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--connect", type=address, default=("127.0.0.1", 7777), help="HOST:PORT of the server"
    )
    parser.add_argument("--name", default="Example bot", help="the name to play under")
    parser.add_argument("--table", help="join the table with this code (else create one)")
    parser.add_argument("--seat", type=int, help="the seat to sit in (default: any free one)")
    parser.add_argument("--seed", type=int, help="a new table: deal its game from this seed")
    parser.add_argument("--opponent", default="greedy", help="a new table: the server bot's level")
    parser.add_argument("--end-score", type=int, default=100, help="a new table: the end score")
    return parser.parse_args(argv)


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse())))
