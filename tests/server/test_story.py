"""A table's story: whoever arrives at a table in play (to watch, or back) is told its game
so far in the order the table was told it; within its budget; again after a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from server.lobby.story import Story
from server.protocol import encode_frame

from .support import Client


def kinds(log: list[dict[str, Any]]) -> list[str]:
    return [entry["kind"] for entry in log]


def a_table(*names: str, watchers: tuple[str, ...] = ()) -> dict[str, Any]:
    seats = [
        {"seat": i, "kind": "human", "name": n, "player_id": i + 1, "connected": True}
        for i, n in enumerate(names)
    ]
    return {"seats": seats, "watchers": list(watchers), "rematch": []}


def test_the_story_keeps_its_budget_and_still_begins_with_who_was_there() -> None:
    story = Story(max_bytes=2_000)
    story.begin(a_table("Ann", "Bob"), [{"from_id": 2, "from_name": "Bob", "text": "hi"}])
    story.seen(a_table("Ann", "Bob", watchers=("Cy",)))
    story.seen(a_table("Ann", "Bob", watchers=("Cy",)))  # nothing new: not kept twice
    move = [{"type": "card_flipped", "player": 0, "pos": 3, "value": 7, "initial": True}]
    for _ in range(200):
        story.played(move, None)
    told = story.told(set())
    assert kinds(told)[0] == "table" and told[0]["watchers"] == ["Cy"]
    assert set(kinds(told)[1:]) == {"game"}
    assert sum(len(encode_frame(entry)) for entry in told) <= 2_000 + len(encode_frame(told[0]))


def test_a_rematch_goes_on_with_the_story_from_its_players() -> None:
    """Those who stay read the first game above the rematch, its chat once: so does whoever
    arrives; each game's moves follow the roster of its players."""
    story = Story()
    first = {**a_table("Ann", "Bob"), "game_seats": [{"name": "Ann"}, {"name": "Bob"}]}
    story.dealt(first, [{"from_id": 2, "from_name": "Bob", "text": "hi"}])
    move = [{"type": "card_flipped", "player": 1, "pos": 3, "value": 7, "initial": True}]
    story.played(move, None)
    rematch = {**a_table("Ann", "Cy"), "game_seats": [{"name": "Ann"}, {"name": "Cy"}]}
    story.dealt(rematch, [{"from_id": 2, "from_name": "Bob", "text": "hi"}])
    story.played(move, None)
    told = story.told(set())
    assert kinds(told) == ["table", "chat", "game", "table", "game"]
    assert [told[0]["game_seats"], told[3]["game_seats"]] == [
        first["game_seats"],
        rematch["game_seats"],
    ]


def test_a_muted_players_lines_are_left_out_of_the_story() -> None:
    story = Story()
    story.begin(a_table("Ann", "Bob"), [{"from_id": 2, "from_name": "Bob", "text": "hi"}])
    story.said({"from_id": 1, "from_name": "Ann", "text": "hello"})
    assert [e["chat"]["text"] for e in story.told({2}) if e["kind"] == "chat"] == ["hello"]


async def test_after_a_restart_the_story_tells_the_chat_then_the_round_so_far(
    tmp_path: Path, make_server: Any
) -> None:
    data = tmp_path / "shared"
    server = await make_server(data)
    alice = await Client.connect(server, "Alice")
    await alice.request("create_table", name="Kept", seats=2)
    await alice.request("add_bot", level="greedy")
    await alice.request("chat", text="good luck, bot")
    await alice.request("start_game")
    await alice.until(lambda: bool(alice.game and alice.view["legal_actions"]))
    await alice.request("act", action=alice.view["legal_actions"][0])
    token = alice.welcome.token
    await alice.close()
    await server.stop()

    again = await make_server(data)
    back = await Client.connect(again, token=token)
    try:
        arrived = await back.push("table", lambda push: "log" in push)
        log = arrived["log"]
        assert kinds(log)[:3] == ["table", "chat", "game"], log
        assert log[1]["chat"]["text"] == "good luck, bot"
        assert log[2]["events"][0]["type"] == "round_started"
        moves = [e for entry in log[3:] if entry["kind"] == "game" for e in entry["events"]]
        flips = [e for e in moves if e["type"] == "card_flipped"]
        assert any(flip["player"] == 0 for flip in flips), log  # Alice's own move
    finally:
        await back.close()
