"""The app's local server has one person: ``Store.one_person`` folds the others into them."""

from __future__ import annotations

from pathlib import Path

from server.store import PlayerResult, Store


async def finish_private_game(store: Store, player_id: int, name: str, won: bool) -> None:
    await store.save_table("t1", {})
    await store.finish_game(
        "Local game",
        [name, "Casual bot 1"],
        [10, 50] if won else [50, 10],
        [0] if won else [1],
        {"seats": [{"name": name, "bot": None}, {"name": "Casual bot 1", "bot": "casual"}]},
        [PlayerResult(player_id, won, [10 if won else 50])],
        table_id="t1",
        meta={},
        viewers={player_id},
    )


async def test_every_name_once_used_is_the_person_last_seen_with_all_their_games(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "skyjo.sqlite3")
    await store.open()
    try:
        player = await store.claim_name(None, "Player", "player", "token-1", None)
        await finish_private_game(store, player.id, "Player", won=True)
        seated = await store.claim_name(None, "Seated", "seated", "token-2", None)
        zoe = await store.claim_name(None, "Zoé", "zoé", "token-3", None)  # seen last
        await finish_private_game(store, zoe.id, "Zoé", won=False)

        assert await store.one_person(held={seated.id}) == zoe.id
        stats = await store.stats(zoe.id)
        assert (stats["name"], stats["games"], stats["wins"], stats["rounds"]) == ("Zoé", 2, 1, 2)
        assert stats["mean_round_score"] == 30
        games = await store.recent_games(10, zoe.id)
        assert [g["names"][0] for g in games] == ["Zoé", "Player"]  # as they were called then
        assert await store.player_by_name_key("player") is None  # the name is free again
        assert await store.player_by_token("token-3") == zoe
        # A table still refers to the seated one: left as it is, for now.
        assert await store.player_by_id(seated.id) == seated

        assert await store.one_person(held=set()) == zoe.id
        assert await store.player_by_id(seated.id) is None
        assert (await store.stats(zoe.id))["games"] == 2  # nothing counted twice
    finally:
        await store.close()


async def test_nobody_yet(tmp_path: Path) -> None:
    store = Store(tmp_path / "skyjo.sqlite3")
    await store.open()
    try:
        assert await store.one_person(held=set()) is None
    finally:
        await store.close()
