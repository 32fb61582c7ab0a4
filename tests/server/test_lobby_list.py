"""The lobby's list stays small with many tables: pages, and pushes of what changed (issue 9, 3).

With 500 tables the whole list was 90 KB, and an 87 KB push went to every
lobby client every second. The sizes asserted here are those of the real
frames the clients read from their sockets.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import pytest

from server.app import SkyjoServer
from server.lobby.listing import LIST_PUSH_INTERVAL, TableListing
from server.netclient import LobbyTables, ServerError
from server.protocol import HEADER, HEADER_SIZE, decode_body

from .support import TEST_LIMITS, Client, table_with

TABLES = 150  # three pages' worth
PAGE = TEST_LIMITS.tables_page


def frames(raw: bytes) -> list[tuple[int, dict[str, Any]]]:
    """Each whole frame in ``raw``: its size in bytes (with its header) and its message."""
    found, at = [], 0
    while at + HEADER_SIZE <= len(raw):
        (length,) = HEADER.unpack_from(raw, at)
        end = at + HEADER_SIZE + length
        if end > len(raw):
            break
        found.append((end - at, decode_body(raw[at + HEADER_SIZE : end])))
        at = end
    return found


def received(client: Client, type_: str, since: int = 0) -> list[tuple[int, dict[str, Any]]]:
    """The frames of ``type_`` (``ok`` for replies) that ``client`` read after byte ``since``."""
    assert client.tee is not None
    return [(n, m) for n, m in frames(bytes(client.tee.received[since:])) if m["type"] == type_]


async def many_tables(server: SkyjoServer, count: int) -> list[str]:
    """``count`` public tables, each held by a host who dropped (the seat is kept)."""
    ids = []
    for number in range(count):
        host = await Client.connect(server, f"Host {number}")
        ids.append((await table_with(host, seats=2))["table_id"])
        await host.close()
    return ids


@pytest.fixture
async def crowded(make_server) -> tuple[SkyjoServer, list[str]]:
    limits = replace(TEST_LIMITS, tables_per_address=TABLES + 10)
    server = await make_server(limits=limits)
    return server, await many_tables(server, TABLES)


async def test_list_tables_answers_one_page_and_says_how_many_there_are(crowded) -> None:
    server, ids = crowded
    reader = await Client.connect(server, "Reader")
    first = await reader.request("list_tables")
    assert [t["table_id"] for t in first["tables"]] == ids[:PAGE]  # oldest open tables first
    assert first["total"] == TABLES and first["offset"] == 0
    second = await reader.request("list_tables", offset=PAGE, limit=PAGE)
    assert [t["table_id"] for t in second["tables"]] == ids[PAGE : 2 * PAGE]
    assert (await reader.request("list_tables", offset=TABLES))["tables"] == []
    (size, _), *_ = received(reader, "ok")[-3:]
    assert size < 16 * 1024  # a page, not 150 tables (about 27 KB)
    for bad in ({"limit": PAGE + 1}, {"limit": 0}, {"offset": -1}):
        with pytest.raises(ServerError) as caught:
            await reader.request("list_tables", **bad)
        assert caught.value.code == "bad_field"
    await reader.close()


async def test_a_change_reaches_the_lobby_as_a_small_push(crowded) -> None:
    server, ids = crowded
    follower = await Client.connect(server, "Follower")
    legacy = await Client.connect(server, "Legacy")  # never lists: gets pages whole, as before
    assert follower.tee is not None  # Client.connect keeps a copy of what it reads
    listing = LobbyTables()
    listing.apply(await follower.request("list_tables", follow=True))
    since = len(follower.tee.received)

    joiner = await Client.connect(server, "Joiner")
    await joiner.request("join_table", table_id=ids[3])
    await follower.push("tables_changed")
    ((size, change),) = received(follower, "tables_changed", since)
    assert [t["table_id"] for t in change["changed"]] == [ids[3]]
    assert change["changed"][0]["seats_taken"] == 2 and change["total"] == TABLES
    assert size < 1024  # one summary and the page's order, not the whole list
    listing.apply(change)
    assert [t["table_id"] for t in listing.tables] == ids[:PAGE]
    assert listing.tables[3]["seats_taken"] == 2

    await legacy.push("tables")
    (whole, page), *_ = received(legacy, "tables")
    assert len(page["tables"]) == PAGE and page["total"] == TABLES and whole < 16 * 1024

    since = len(follower.tee.received)
    await joiner.request("leave_table")  # seat 1 free again
    await joiner.request("create_table", name="Newest", seats=2)  # listed after the others
    await follower.push("tables_changed", lambda p: p["total"] == TABLES + 1)
    changes = received(follower, "tables_changed", since)  # one push, or two if a second went by
    assert {t["table_id"] for _, c in changes for t in c["changed"]} == {ids[3]}
    assert all(size < 1024 for size, _ in changes)
    for client in (follower, legacy, joiner):
        await client.close()


async def test_a_client_back_from_a_table_hears_what_changed_meanwhile(crowded) -> None:
    server, ids = crowded
    follower = await Client.connect(server, "Follower")
    await follower.request("list_tables", follow=True)
    await follower.request("join_table", table_id=ids[0])  # hears nothing of the lobby now
    joiner = await Client.connect(server, "Joiner")
    await joiner.request("join_table", table_id=ids[1])
    await follower.request("leave_table")
    await follower.push("tables_changed", lambda p: ids[1] in [t["table_id"] for t in p["changed"]])
    await follower.close()
    await joiner.close()


class StubTable:
    """As much of a table as the listing reads."""

    def __init__(self, table_id: str) -> None:
        self.id, self.private, self.status, self.created = table_id, False, "waiting", 0.0
        self.seats_taken = 1

    def summary(self) -> dict[str, Any]:
        return {"table_id": self.id, "seats_taken": self.seats_taken}


class StubSession:
    """A lobby client: what the listing sent it."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)


async def test_a_quiet_lobby_hears_of_a_change_at_once_and_a_busy_one_once_an_interval() -> None:
    """A new table is listed on the next turn of the loop, not a second later; changes
    that keep coming go out together, one interval after the last push."""
    tables: dict[str, Any] = {}
    follower = StubSession()
    listing = TableListing(tables, lambda: [follower], TEST_LIMITS)  # type: ignore[list-item]
    listing.list_tables(follower, {"follow": True})  # type: ignore[arg-type]
    loop = asyncio.get_running_loop()
    try:
        first = tables["t1"] = StubTable("t1")
        listing.changed(first)  # type: ignore[arg-type]
        second = tables["t2"] = StubTable("t2")
        listing.changed(second)  # type: ignore[arg-type]  # the same request: the same push
        for _ in range(20):  # bounded: the push is due now
            if follower.sent:
                break
            await asyncio.sleep(0)
        ((push,),) = [follower.sent]
        assert push["order"] == ["t1", "t2"] and len(push["changed"]) == 2
        pushed_at = loop.time()

        first.seats_taken = 2
        listing.changed(first)  # type: ignore[arg-type]
        assert listing._push is not None  # noqa: SLF001 - when the next push is due
        assert listing._push.when() >= pushed_at - 0.05 + LIST_PUSH_INTERVAL  # noqa: SLF001
        assert len(follower.sent) == 1
    finally:
        listing.stop()
