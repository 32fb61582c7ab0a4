"""Journey over the real OpenSSH client, in tmux at 80x24: a finished table that someone left
still names who played its game, to whoever comes to see it through the SSH door."""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from server.netclient import ServerConnection

from ..client.test_network import Opponent
from .realdoor import real_door
from .sshkit import poll_until
from .test_journeys import in_the_lobby
from .test_openssh import press
from .tmuxkit import SSH, TMUX, openssh_command, tmux_pane, write_private_key

pytestmark = pytest.mark.skipif(not (SSH and TMUX), reason="needs the ssh client and tmux")


@pytest.fixture
def key_file(tmp_path: Path) -> Path:
    key = asyncssh.generate_private_key("ssh-ed25519")
    return write_private_key(key.export_private_key(), tmp_path / "id_ed25519")


@contextlib.asynccontextmanager
async def people(port: int, *names: str) -> AsyncIterator[list[Opponent]]:
    """``names`` logged in on plain protocol connections, each playing his first legal move."""
    players: list[Opponent] = []
    try:
        for name in names:
            players.append(Opponent(await ServerConnection.open("127.0.0.1", port)))
            await players[-1].conn.hello(name=name)
        yield players
    finally:
        for player in players:
            await player.stop()


async def dan_leaves_a_finished_game(bob: Opponent, dan: Opponent) -> dict[str, Any]:
    """bob, dan and a greedy bot play bob's table to its end; dan leaves it (the lobby lists
    it "2/3 finished"). The stored game, as ``recent_games`` gives it."""
    created = await bob.conn.request(
        {"type": "create_table", "name": "bob's table", "seats": 3, "settings": {"end-score": 10}}
    )
    await dan.conn.request({"type": "join_table", "table_id": created["table"]["table_id"]})
    await dan.conn.request({"type": "ready"})
    await bob.conn.request({"type": "add_bot", "level": "greedy"})
    bob.start()
    dan.start()
    await bob.conn.request({"type": "start_game"})
    await poll_until(lambda: bob.table.get("status") == "finished", "the game over", 30)
    await dan.conn.request({"type": "leave_table"})
    await poll_until(lambda: bob.table["seats"][1] is None, "dan's seat empty")
    game: dict[str, Any] = (await bob.conn.request({"type": "recent_games"}))["games"][0]
    assert game["names"] == ["bob", "dan", "Greedy bot 1"]
    return game


async def test_a_watcher_over_ssh_reads_who_played_a_finished_game_one_of_them_left(
    tmp_path: Path, key_file: Path
) -> None:
    """bob, dan and a bot play bob's table to its end; dan leaves it. carol comes to watch
    over OpenSSH: the game over names dan with his total and the true winner, never a seat
    number or someone else in dan's place."""
    async with (
        real_door(tmp_path / "server") as door,
        people(door.server.port, "bob", "dan") as (
            bob,
            dan,
        ),
    ):
        game = await dan_leaves_a_finished_game(bob, dan)
        winners = [game["names"][seat] for seat in game["winners"]]

        async with tmux_pane(openssh_command(door.port, "carol", key_file)) as carol:
            await carol.wait_until(
                lambda screen: "bob's table  " in screen and in_the_lobby(screen),
                "bob's table listed",
            )
            over = await press(carol, "w", "Game over ·")
            title = next(line for line in over.splitlines() if "Game over ·" in line)
            assert not re.search(r"#\d", over), over
            results = [line for line in over.splitlines() if re.search(r"│\s+\d\.\s", line)]
            assert len(results) == 3, over
            for seat, name in enumerate(game["names"]):  # each row: a rank, a name, its total
                row = next((line for line in results if f" {name} " in line), "")
                assert row.split()[-2] == str(game["totals"][seat]), (name, over)
                assert (name in title) == (name in winners), (title, winners)
