"""Skyjo over SSH for real: the lobby server and the Textual client, players on asyncssh."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

import asyncssh
import pytest

from server.netclient import ServerConnection

from .realdoor import (
    RealDoor,
    create_table,
    first_to_show,
    join_first_table,
    player,
    real_door,
    take_the_discard,
    turn_up_two_cards,
    wait_collected,
)
from .sshkit import Term, poll_until


@pytest.fixture
async def door(tmp_path: Path):
    async with real_door(tmp_path) as door:
        yield door


@pytest.fixture(scope="module")
def keys() -> dict[str, asyncssh.SSHKey]:
    return {name: asyncssh.generate_private_key("ssh-ed25519") for name in ("alice", "bob", "eve")}


async def test_two_players_play_a_game_then_one_drops_and_comes_back(
    door: RealDoor, keys: dict[str, asyncssh.SSHKey]
) -> None:
    async with player(door.port, "bob", keys["bob"]) as bob:
        async with player(door.port, "alice", keys["alice"]) as alice:
            await alice.shows("Lobby · alice")
            await create_table(alice)
            await join_first_table(bob, "alice's table")
            bob.press(b"r")
            await alice.shows("✓")  # bob is ready
            alice.press(b"s")
            await turn_up_two_cards(alice, "alice")
            await turn_up_two_cards(bob, "bob")
            first = await play_turns({"alice": alice, "bob": bob}, 4)

            alice.proc.channel.get_connection().abort()  # the network goes away
            await bob.shows("away")

        # Her key remembers her name and her seat: straight back to the table,
        # where the game goes on in the same order.
        async with player(door.port, "skyjo", keys["alice"]) as alice:
            await alice.shows("Round 1")
            assert await play_turns({"alice": alice, "bob": bob}, 2) == first


async def play_turns(players: dict[str, Term], turns: int) -> str:
    """Whoever's turn it is takes the discard, ``turns`` times; who moved first."""
    names, terms = list(players), list(players.values())
    movers: list[str] = []
    for _ in range(turns):
        mover = await first_to_show(terms, "Your turn:")
        movers.append(names[mover])
        marks = [term.mark() for term in terms]
        await take_the_discard(terms[mover])
        for index, term in enumerate(terms):
            if index != mover:  # sees this move in words (not an older one)
                await term.wait_for(f"{names[mover]} took the", since=marks[index])
    assert len(set(movers[::2])) == len(set(movers[1::2])) == 1  # they take turns
    return movers[0]


async def test_names_are_reserved_for_the_key_that_took_them(
    door: RealDoor, keys: dict[str, asyncssh.SSHKey]
) -> None:
    async with player(door.port, "alice", keys["alice"]) as alice:
        await alice.shows("Lobby · alice")
    for impostor in (keys["eve"], None):  # another key, and a guest
        async with player(door.port, "alice", impostor) as eve:
            await eve.shows("Choose your name")
            await eve.shows("That name belongs to another player")
    async with player(door.port, "skyjo", keys["alice"]) as alice:
        await alice.shows("Lobby · alice")  # remembered: no question asked
    async with player(door.port, "skyjo", keys["bob"]) as newcomer:
        await newcomer.shows("Choose your name")
        newcomer.press(b"bob\r")
        await newcomer.shows("Lobby · bob")
    async with player(door.port, "skyjo", keys["bob"]) as bob:
        await bob.shows("Lobby · bob")


async def test_resize_reaches_the_game(door: RealDoor, keys: dict[str, asyncssh.SSHKey]) -> None:
    def chat_box_ends_at(width: int) -> Callable[[str], bool]:
        def ends(text: str) -> bool:  # the lobby chat's top right corner
            return any(line.endswith("╮") and len(line) == width for line in text.splitlines())

        return ends

    async with player(door.port, "alice", keys["alice"]) as alice:
        await alice.shows("Lobby · alice")
        await alice.wait_until(chat_box_ends_at(80), "the lobby at 80 columns")
        alice.resize(120, 40)
        await alice.wait_until(chat_box_ends_at(120), "the lobby at 120 columns")
        alice.resize(30, 10)
        await alice.shows("The terminal is too small")
        alice.resize(80, 24)
        await alice.wait_until(chat_box_ends_at(80), "the lobby at 80 columns")
        session = door.door.manager.sessions[0]  # type: ignore[union-attr]
        assert session.app is not None and tuple(session.app.size) == (80, 24)


async def test_finished_apps_are_freed(door: RealDoor, keys: dict[str, asyncssh.SSHKey]) -> None:
    """30 sessions, six at a time: some quit with keys, the others hang up."""
    for wave in range(5):
        async with contextlib.AsyncExitStack() as stack:
            terms = [
                await stack.enter_async_context(
                    player(
                        door.port, f"p{wave}x{i}", keys["alice"] if (wave, i) == (0, 0) else None
                    )
                )
                for i in range(6)
            ]
            for term in terms:
                await term.shows("Lobby · ")
            quitter = terms[wave]
            quitter.press(b"q")
            await quitter.shows("Leave this server?")
            quitter.press(b"y")
            assert await quitter.exit_status() == 0
    manager = door.door.manager
    assert manager is not None
    await poll_until(lambda: not manager.sessions, "every session ended")
    assert len(door.apps) == 30
    await wait_collected(door.apps)


async def test_an_app_is_freed_while_its_game_plays_on(
    door: RealDoor, keys: dict[str, asyncssh.SSHKey]
) -> None:
    """The table outlives the player who dropped; it must not keep their app."""
    async with player(door.port, "alice", keys["alice"]) as alice:
        await alice.shows("Lobby · alice")
        await create_table(alice)
        alice.press(b"b")
        await alice.shows("bot")
        alice.press(b"s")
        await turn_up_two_cards(alice, "alice")
        alice.proc.channel.get_connection().abort()
    manager = door.door.manager
    assert manager is not None
    await poll_until(lambda: not manager.sessions, "the session ended")
    await wait_collected(door.apps)

    watcher = await ServerConnection.open("127.0.0.1", door.server.port)
    try:
        await watcher.hello(name="watcher")
        tables = (await watcher.request({"type": "list_tables"}))["tables"]
    finally:
        await watcher.close()
    assert [t["status"] for t in tables] == ["playing"]  # her seat waits for her


async def test_skyjo_server_command_line_with_the_ssh_plugin(
    tmp_path: Path, keys: dict[str, asyncssh.SSHKey], monkeypatch: pytest.MonkeyPatch
) -> None:
    """How ``skyjo-server`` wires it: the shared host first, then the door on it."""
    from server import cli
    from server.app import SkyjoServer
    from server.doors.host import GameHost
    from server.ssh.frontdoor import SSHFrontDoor
    from server.ssh.options import SSH_DOOR

    monkeypatch.setattr(cli, "DOORS", [SSH_DOOR])
    # The GC policy is process-wide: keep it out of the test process.
    monkeypatch.setattr("server.doors.host._gc_policy_applied", True)
    argv = ["--host", "127.0.0.1", "--port", "0", "--data-dir", str(tmp_path), "--ssh-port", "0"]
    args = cli.build_parser().parse_args(argv)
    server = SkyjoServer(cli.config_from_args(args))
    cli.attach_doors(server, args)
    game_host, door = server.front_doors[1:]
    assert isinstance(game_host, GameHost) and isinstance(door, SSHFrontDoor)
    assert door.game_host is game_host
    await server.start()
    try:
        async with player(door.port, "alice", keys["alice"]) as alice:
            await alice.shows("Lobby · alice")
    finally:
        await server.stop()
    assert (tmp_path / "ssh_host_ed25519_key").exists()

    args = cli.build_parser().parse_args([*argv, "--no-ssh"])
    server = SkyjoServer(cli.config_from_args(args))
    cli.attach_doors(server, args)
    assert server.front_doors == [server.tcp]  # no door, so no host either
