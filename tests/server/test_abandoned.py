"""Tables people walked away from, and caps on tables per person and per address (issue 9, 3).

One address used to connect, create a table (or add a bot and start), drop,
and do it again: each table lived 5 minutes (an hour once started), and 500
of them locked everyone else out of the server. Everything here goes
through real sockets: TCP from 127.0.0.1, and the in-process socket pair the
local game and SSH use (which has no address of its own).
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from server.app import SkyjoServer
from server.netclient import ServerConnection, ServerError

from .support import FAST_PACE, TEST_LIMITS, Client, table_with


async def in_process(server: SkyjoServer, name: str, identity: str | None = None) -> Client:
    reader, writer = await server.open_in_process(identity)
    client = Client(ServerConnection.from_streams(reader, writer))
    client.welcome = await client.conn.hello(name=name)
    return client


async def refusal(client: Client, type_: str, **fields: object) -> ServerError:
    with pytest.raises(ServerError) as caught:
        await client.request(type_, **fields)
    return caught.value


async def test_one_address_cannot_fill_the_server_with_orphan_tables(make_server) -> None:
    limits = replace(TEST_LIMITS, max_tables=12, tables_per_address=4, tables_per_player=3)
    server = await make_server(limits=limits, pace=replace(FAST_PACE, empty_table=600.0))
    refused: list[tuple[int, str]] = []
    for number in range(limits.max_tables):  # each: a new name, a started game, gone
        flooder = await Client.connect(server, f"Flood {number}")
        try:
            await table_with(flooder, seats=2, bots=("random",))
            await flooder.request("start_game")
        except ServerError as exc:
            refused.append((number, exc.code))
        await flooder.close()
    assert refused[0] == (limits.tables_per_address, "tables_per_address")
    assert {code for _, code in refused} == {"tables_per_address"}

    carol = await in_process(server, "Carol")  # someone else still gets a table
    table = await table_with(carol)
    assert table["seats"][0]["name"] == "Carol"
    message = (
        await refusal(
            await Client.connect(server, "Flood again"), "create_table", name="More", seats=2
        )
    ).message
    assert "at most 4" in message and "your address" in message
    await carol.close()


async def test_one_person_may_keep_only_so_many_tables_open(make_server) -> None:
    server = await make_server(limits=replace(TEST_LIMITS, tables_per_player=2))
    host = await in_process(server, "Hostess")  # in-process: no address cap, only the person's
    guests = []
    for number in range(2):  # she creates a table, a guest stays at it, she moves on
        table = await table_with(host, seats=2)
        guest = await Client.connect(server, f"Guest {number}")
        await guest.request("join_table", table_id=table["table_id"])
        guests.append(guest)
        await host.request("leave_table")
    error = await refusal(host, "create_table", name="Third", seats=2)
    assert error.code == "tables_per_player" and "at most 2" in error.message
    await guests[0].request("leave_table")  # her first table closes: she may create again
    await host.until(lambda: len(server.lobby.tables) == 1)
    assert (await host.request("create_table", name="Third", seats=2))["table"]["name"] == "Third"
    for client in (host, *guests):
        await client.close()


async def listed(watcher: Client) -> set[str]:
    return {t["table_id"] for t in (await watcher.request("list_tables", follow=True))["tables"]}


async def gone_from_the_lobby(watcher: Client, table_id: str) -> None:
    """Wait (bounded) until the lobby's pushes no longer list ``table_id``."""

    def gone() -> bool:
        pushed = [p for p in watcher.pushes if p["type"] == "tables_changed"]
        return bool(pushed) and table_id not in pushed[-1]["order"]

    await watcher.until(gone)


async def test_tables_everyone_dropped_from_close_once_the_grace_is_over(make_server) -> None:
    server = await make_server(pace=replace(FAST_PACE, empty_table=0.5))
    watcher = await Client.connect(server, "Watcher")
    await watcher.request("list_tables", follow=True)
    alice, bob = await Client.connect(server, "Alice"), await Client.connect(server, "Bob")
    started = await table_with(alice, seats=2, bots=("greedy",))
    await alice.request("start_game")
    room = await table_with(bob, seats=3)
    assert await listed(watcher) == {started["table_id"], room["table_id"]}
    for client in (alice, bob):
        await client.close()  # gone without leaving: the seats are kept for the grace
    await gone_from_the_lobby(watcher, started["table_id"])
    await gone_from_the_lobby(watcher, room["table_id"])
    assert server.lobby.tables == {}
    await watcher.close()


async def test_a_player_whose_connection_blips_is_back_in_the_seat(make_server) -> None:
    server = await make_server(pace=replace(FAST_PACE, empty_table=30.0))
    alice = await Client.connect(server, "Alice")
    table = await table_with(alice, seats=2, bots=("greedy",))
    await alice.request("start_game")
    await alice.close()
    again = await Client.connect(server, token=alice.welcome.token)
    assert again.welcome.resumed and again.welcome.table_id == table["table_id"]
    await again.until(lambda: again.game is not None)
    assert again.view["seat"] == 0
    await again.close()


async def test_unused_guest_names_are_forgotten_and_names_that_matter_are_kept(
    tmp_path: Path, make_server
) -> None:
    data = tmp_path / "shared"
    server = await make_server(data)
    drive_by = await Client.connect(server, "Drive By")
    keeper = await Client.connect(server, "Keeper")
    await table_with(keeper, seats=2, bots=("random",), settings={"end-score": 10})
    await keeper.request("start_game")
    await keeper.play(random.Random(9))  # a finished game: statistics to keep
    await keeper.request("leave_table")
    owner = await in_process(server, "Owner", identity="ssh-key:SHA256:owner")  # reserved
    seated = await Client.connect(server, "Seated Guest")
    kept_table = await table_with(seated, seats=2)  # drops, holding this seat
    for client in (drive_by, keeper, owner, seated):
        await client.close()
    await server.stop()

    again = await make_server(data, limits=replace(TEST_LIMITS, forget_guests_after=0.0))
    asker = await Client.connect(again, "Asker")
    error = await refusal(asker, "stats", name="Drive By")
    assert error.code == "not_found"
    assert (await asker.request("stats", name="Keeper"))["stats"]["games"] == 1
    assert (await asker.request("stats", name="Owner"))["stats"]["name"] == "Owner"
    back = await Client.connect(again, token=seated.welcome.token)
    assert back.welcome.resumed and back.welcome.table_id == kept_table["table_id"]
    newcomer = await Client.connect(again, "drive by")  # the name is free for anyone
    assert newcomer.welcome.name == "drive by"
    for client in (asker, back, newcomer):
        await client.close()


def test_the_caps_and_the_grace_are_set_from_the_command_line() -> None:
    from server import cli

    args = cli.build_parser().parse_args(
        [
            "--tables-per-player",
            "1",
            "--tables-per-address",
            "40",
            "--tables-page",
            "20",
            "--empty-table",
            "45",
            "--forget-guests-after",
            "3600",
        ]
    )
    config = cli.config_from_args(args)
    limits = config.limits
    assert (limits.tables_per_player, limits.tables_per_address, limits.tables_page) == (1, 40, 20)
    assert config.pace.empty_table == 45.0 and limits.forget_guests_after == 3600.0


async def test_a_guest_who_watched_a_private_game_is_not_forgotten(
    tmp_path: Path, make_server
) -> None:
    """Forgetting them would drop their right to see it, and their id could be handed on."""
    data = tmp_path / "shared"
    server = await make_server(data)
    host = await Client.connect(server, "Host")
    private = await table_with(
        host, seats=2, bots=("random",), private=True, settings={"end-score": 10}
    )
    watcher = await Client.connect(server, "Watcher")
    await watcher.request("spectate", code=private["code"])
    await host.request("start_game")
    await host.play(random.Random(4))
    secret = (await watcher.push("game_over"))["game_id"]
    await watcher.request("leave_table")
    await host.request("leave_table")  # the table closes: nobody holds a place there
    for client in (host, watcher):
        await client.close()
    await server.stop()

    again = await make_server(data, limits=replace(TEST_LIMITS, forget_guests_after=0.0))
    back = await Client.connect(again, token=watcher.welcome.token)  # not forgotten
    assert back.welcome.name == "Watcher"
    assert [g["game_id"] for g in (await back.request("recent_games"))["games"]] == [secret]
    newcomer = await Client.connect(again, "Newcomer")  # a fresh id sees nothing of it
    assert (await newcomer.request("recent_games"))["games"] == []
    for client in (back, newcomer):
        await client.close()
