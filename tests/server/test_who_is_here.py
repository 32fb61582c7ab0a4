"""Who is here: the players online and where, one page at a time, kept up to date; real sockets."""

from __future__ import annotations

import pytest

from server.netclient import ServerError

from .support import table_with


def places(page: dict) -> dict[str, tuple]:
    return {p["name"]: (p["where"], p["table_name"]) for p in page["players"]}


async def test_who_is_here_says_where_everyone_is_and_follows_them(make_server, connect) -> None:
    server = await make_server()
    alice, bob = await connect("Alice", to=server), await connect("Bob", to=server)
    page = await alice.request("who")
    assert page["total"] == 2 and places(page) == {"Alice": ("lobby", None), "Bob": ("lobby", None)}

    table = await table_with(bob, seats=3)  # Bob sits down at his new table
    pushed = await alice.push("who", where=lambda p: places(p).get("Bob", ("",))[0] == "seated")
    assert places(pushed)["Bob"] == ("seated", "Test table") and pushed["total"] == 2
    assert [p["table_id"] for p in pushed["players"] if p["name"] == "Bob"] == [table["table_id"]]

    carol = await connect("Carol", to=server)
    await carol.request("spectate", table_id=table["table_id"])
    pushed = await alice.push("who", where=lambda p: places(p).get("Carol", ("",))[0] == "watching")
    assert places(pushed) == {
        "Alice": ("lobby", None),
        "Bob": ("seated", "Test table"),
        "Carol": ("watching", "Test table"),
    }

    await carol.close()
    pushed = await alice.push("who", where=lambda p: p["total"] == 2)
    assert "Carol" not in places(pushed)


async def test_a_page_of_who_is_here_is_bounded_and_a_private_table_is_not_named(
    make_server, connect
) -> None:
    server = await make_server()
    alice, bob = await connect("Alice", to=server), await connect("Bob", to=server)
    await connect("Carol", to=server)
    await table_with(bob, seats=2, private=True)
    first = await alice.request("who", limit=2)
    assert first["total"] == 3 and [p["name"] for p in first["players"]] == ["Alice", "Bob"]
    assert first["players"][1] == {
        "name": "Bob",
        "where": "seated",
        "table_id": None,
        "table_name": None,
    }
    rest = await alice.request("who", offset=2, limit=2)
    assert [p["name"] for p in rest["players"]] == ["Carol"]
    for bad in ({"limit": 0}, {"limit": 51}, {"offset": -1}):
        with pytest.raises(ServerError) as refused:
            await alice.request("who", **bad)
        assert refused.value.code == "bad_field"
