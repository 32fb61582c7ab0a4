"""The real ``skyjo-server`` killed with SIGKILL mid-game and restarted: nothing is lost."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from pathlib import Path

from .processes import ServerProcess, client
from .support import Client, same_update


async def test_a_killed_server_resumes_every_game_exactly_and_players_rejoin(
    tmp_path: Path, processes: list[ServerProcess]
) -> None:
    data = tmp_path / "data"
    processes.append(ServerProcess(data, tmp_path / "first.log"))
    alice, bob = await client(processes[0].port, "Alice"), await client(processes[0].port, "Bob")
    table = (await alice.request("create_table", name="Durable", seats=3, turn_timer=600))["table"]
    await alice.request("add_bot", level="greedy")
    await bob.request("join_table", table_id=table["table_id"])
    await bob.request("ready")
    await alice.request("start_game")

    # Play until Alice holds a drawn card on her turn, several turns in.
    def alice_holds_a_card() -> bool:
        game = alice.game
        if game is None or game["seq"] <= 12:
            return False
        return game["view"]["phase"] == "drawn" and game["view"]["current_player"] == 0

    def draw_when_late(view: dict, rng: random.Random) -> dict:
        if alice.last_game["seq"] > 12 and view["phase"] == "choose":
            return {"kind": "draw"}
        return rng.choice(view["legal_actions"])

    bob_playing = asyncio.create_task(bob.play(random.Random(22), stop=alice_holds_a_card))
    await alice.play(random.Random(21), stop=alice_holds_a_card, choose=draw_when_late)
    await same_update(alice, bob)
    bob_playing.cancel()
    before = {"alice": alice.last_game, "bob": bob.last_game, "table": alice.last_table}
    tokens, killed_after = (alice.welcome.token, bob.welcome.token), time.time()

    processes[0].kill()
    await alice.until(lambda: alice.lost is not None)
    for c in (alice, bob):
        await c.close()

    processes.append(ServerProcess(data, tmp_path / "second.log"))
    port, back_from = processes[1].port, time.time()
    alice = await client(port, token=tokens[0])
    bob = await client(port, token=tokens[1])
    assert alice.welcome.resumed and alice.welcome.table_id == table["table_id"]
    assert bob.welcome.resumed
    for person, old in ((alice, before["alice"]), (bob, before["bob"])):
        state = await person.push("game")
        assert state["seq"] == old["seq"]
        assert state["view"] == old["view"]  # every card, the drawn card, the legal moves
    assert [s["name"] for s in alice.last_table["seats"]] == [
        s["name"] for s in before["table"]["seats"]
    ]
    assert alice.view["drawn_card"] is not None
    # Alice's turn timer went on counting: it was not given a fresh 600 seconds.
    timer, old_timer = alice.last_game["timer"], before["alice"]["timer"]
    assert timer["seats"] == old_timer["seats"] == [0]
    assert timer["remaining"] <= old_timer["remaining"] - (back_from - killed_after) + 0.1

    # The game plays on to its end, and is stored with everyone's statistics.
    await asyncio.gather(alice.play(random.Random(23)), bob.play(random.Random(24)))
    over = await alice.push("game_over")
    assert (await bob.request("stats"))["stats"]["games"] == 1
    record = (await alice.request("game_record", game_id=over["game_id"]))["record"]
    assert record["totals"] == over["totals"]
    for c in (alice, bob):
        await c.close()
    assert processes[1].stop() == 0  # SIGTERM: a clean stop
    assert "everything is saved" in processes[1].log.read_text()


async def test_a_killed_server_resumes_between_rounds_with_its_watchers_and_ready_players(
    tmp_path: Path, processes: list[ServerProcess]
) -> None:
    data = tmp_path / "data"
    processes.append(ServerProcess(data, tmp_path / "first.log", between_rounds=600))
    port = processes[0].port
    alice, bob, carol = [await client(port, name) for name in ("Alice", "Bob", "Carol")]
    settings = {"end-score": 1000}  # one round cannot end the game
    table = (await alice.request("create_table", name="Rounds", seats=3, settings=settings))[
        "table"
    ]
    await alice.request("add_bot", level="greedy")
    await bob.request("join_table", table_id=table["table_id"])
    await bob.request("ready")
    await carol.request("spectate", table_id=table["table_id"])
    await alice.request("start_game")

    def round_over(c: Client) -> Callable[[], bool]:
        return lambda: c.last_table["status"] == "between_rounds"

    def link_lost(c: Client) -> Callable[[], bool]:
        return lambda: c.lost is not None

    def in_round(c: Client, number: int) -> Callable[[], bool]:
        return lambda: c.last_game["view"]["round"] == number

    await asyncio.gather(
        *(
            c.play(random.Random(n), stop=round_over(c), ready=False)
            for n, c in enumerate((alice, bob))
        )
    )
    await bob.request("ready")
    await alice.until(lambda: alice.last_table["seats"][2]["ready"])
    before, killed_after = alice.last_table, time.time()
    summary = {c.welcome.name: c.last_game for c in (alice, bob, carol)}
    tokens = [c.welcome.token for c in (alice, bob, carol)]
    processes[0].kill()
    for c in (alice, bob, carol):
        await c.until(link_lost(c))
        await c.close()

    processes.append(ServerProcess(data, tmp_path / "second.log", between_rounds=600))
    port, back_from = processes[1].port, time.time()
    alice, bob, carol = [await client(port, token=token) for token in tokens]
    # The watcher is back at the table she watched, with the public view.
    assert carol.welcome.resumed and carol.welcome.table_id == table["table_id"]
    for c in (alice, bob, carol):
        state = await c.push("game")
        assert state["view"] == summary[c.welcome.name]["view"]  # the round's summary
    await carol.until(lambda: carol.table is not None)
    assert carol.last_table["your_seat"] is None and carol.view["seat"] is None
    await alice.until(
        lambda: alice.last_table["seats"][2]["connected"] and alice.last_table["spectators"] == 1
    )
    now = alice.last_table
    assert now["status"] == "between_rounds"
    assert [(s["kind"], s["name"], s["level"]) for s in now["seats"]] == [
        (s["kind"], s["name"], s["level"]) for s in before["seats"]
    ]
    assert [s["ready"] for s in now["seats"]] == [False, True, True]  # Bob said ready, the bot is
    assert now["next_round_in"] <= before["next_round_in"] - (back_from - killed_after) + 0.1

    await alice.request("ready")  # the last one: the next round begins for all three
    for c in (alice, bob, carol):
        await c.until(in_round(c, 2))
    for c in (alice, bob, carol):
        await c.close()


async def test_a_table_that_cannot_be_restored_is_kept_aside_and_the_rest_come_back(
    tmp_path: Path, make_server
) -> None:
    import sqlite3

    data = tmp_path / "shared"
    server = await make_server(data)
    alice, bob = await Client.connect(server, "Alice"), await Client.connect(server, "Bob")
    broken = (await alice.request("create_table", name="Broken", seats=2))["table"]
    kept = (await bob.request("create_table", name="Kept", seats=2))["table"]
    for c in (alice, bob):
        await c.close()
    await server.stop()
    with sqlite3.connect(data / "skyjo.sqlite3") as db:
        db.execute("UPDATE tables SET meta = '{\"name\": 1}' WHERE id = ?", (broken["table_id"],))

    again = await make_server(data)
    assert list(again.lobby.tables) == [kept["table_id"]]
    bob = await Client.connect(again, token=bob.welcome.token)
    assert bob.welcome.resumed and bob.welcome.table_id == kept["table_id"]
    with sqlite3.connect(data / "skyjo.sqlite3") as db:  # nothing was deleted
        assert db.execute("SELECT COUNT(*) FROM tables").fetchone()[0] == 2
    await bob.close()


async def test_a_finished_table_comes_back_finished_with_its_game_stored_once(
    tmp_path: Path, make_server
) -> None:
    """The table's status is its game's (a finished game: ``finished``) and the game is
    stored once: the restart does not store it again, nor forget that it was."""
    data = tmp_path / "shared"
    server = await make_server(data)
    alice = await Client.connect(server, "Alice")
    await alice.request("create_table", name="Short", seats=2, settings={"end-score": 10})
    await alice.request("add_bot", level="greedy")
    await alice.request("start_game")
    await alice.play(random.Random(3))
    over = await alice.push("game_over")
    await alice.until(lambda: alice.last_table["status"] == "finished")
    token = alice.welcome.token
    await alice.close()
    await server.stop()

    again = await make_server(data)
    alice = await Client.connect(again, token=token)
    assert alice.welcome.resumed
    await alice.until(lambda: alice.table is not None)
    assert alice.last_table["status"] == "finished"
    assert alice.last_table["game_id"] == over["game_id"]
    assert (await alice.request("stats"))["stats"]["games"] == 1
    assert not [p for p in alice.pushes if p["type"] == "game_over"]  # not finished again
    await alice.request("rematch")  # a finished table's rematch: the game is dealt again
    await alice.until(lambda: alice.last_table["status"] == "playing")
    await alice.close()
