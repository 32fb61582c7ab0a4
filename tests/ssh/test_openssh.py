"""The real OpenSSH client, in tmux, as a player types it."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import asyncssh
import pytest

from server.termhost.options import WorkerOptions

from .realdoor import real_door
from .sshkit import TIMEOUT, poll_until
from .standin import stand_in_door
from .tmuxkit import SSH, TMUX, TmuxPane, openssh_command, tmux_pane, write_private_key

pytestmark = pytest.mark.skipif(not (SSH and TMUX), reason="needs the ssh client and tmux")


@pytest.fixture
def key_file(tmp_path: Path) -> tuple[asyncssh.SSHKey, Path]:
    key = asyncssh.generate_private_key("ssh-ed25519")
    return key, write_private_key(key.export_private_key(), tmp_path / "id_ed25519")


async def test_play_a_move_against_a_bot_then_quit(
    tmp_path: Path, key_file: tuple[asyncssh.SSHKey, Path]
) -> None:
    # As skyjo-server runs it by default: the player's app in a worker process.
    async with real_door(tmp_path / "server", workers=WorkerOptions(processes=1)) as door:
        async with tmux_pane(openssh_command(door.port, "alice", key_file[1])) as pane:
            await pane.wait_for("Lobby · alice")
            await press(pane, "n", "New table")
            await press(pane, "C-s", "You are the host")
            await press(pane, "b", "bot")
            await press(pane, "s", "Turn up a card of your choice")
            board = await pane.wait_for("Discard")
            assert "Pile" in board and "░░" in board  # face-down cards
            await press(pane, "Enter", "You turned up")
            await pane.keys("Right")
            await press_until_gone(pane, "Enter", "Turn up a card")
            await pane.wait_for("Your turn:")  # the bot moves at once when it starts
            await press(pane, "t", "Choose the card the")
            await press(pane, "Enter", "You took the")

            await press(pane, "q", "Leave this game?")
            await press(pane, "y", "Lobby · alice")
            await press(pane, "q", "Leave this server?")
            await pane.keys("y")
            status, screen = await pane.wait_for_exit()
        assert status == 0
        assert "Lobby" not in screen  # the terminal was given back clean


async def test_openssh_keys_guests_and_refusals(
    tmp_path: Path, key_file: tuple[asyncssh.SSHKey, Path]
) -> None:
    key, path = key_file
    async with stand_in_door(tmp_path) as door:
        async with tmux_pane(openssh_command(door.port, "skyjo", path)) as pane:
            await pane.wait_for(f"ID=ssh-key:{key.get_fingerprint('sha256')} NAME=None")
            await press(pane, "a", "BUMPED")
            await pane.keys("q")
            assert (await pane.wait_for_exit())[0] == 0
        async with tmux_pane(openssh_command(door.port, "alice", None)) as pane:
            await pane.wait_for("ID=guest NAME=alice")  # no key, no prompt
            await pane.keys("q")
            assert (await pane.wait_for_exit())[0] == 0
        command = [*openssh_command(door.port, "skyjo", path), "ls"]
        command.remove("-tt")
        async with tmux_pane(command) as pane:
            status, screen = await pane.wait_for_exit()
        assert status == 1 and "does not run commands" in screen


async def press(pane: TmuxPane, key: str, then: str) -> str:
    """Press ``key``; the screen once it shows ``then``."""
    await pane.keys(key)
    return await pane.wait_for(then)


async def press_until_gone(pane: TmuxPane, key: str, text: str, tries: int = 5) -> None:
    """Press ``key`` until ``text`` leaves the screen (a key typed while the
    previous move is still on its way is ignored by the client)."""
    for _ in range(tries):
        await pane.keys(key)
        try:
            await pane.wait_gone(text, timeout=1.0)
            return
        except AssertionError:
            continue
    raise AssertionError(f"{text!r} stayed on screen:\n{await pane.screen()}")


async def test_a_client_that_vanishes_is_noticed_by_keepalives(
    tmp_path: Path, key_file: tuple[asyncssh.SSHKey, Path]
) -> None:
    async with stand_in_door(tmp_path, keepalive_interval=0.2, keepalive_count_max=2) as door:
        ssh = await asyncio.create_subprocess_exec(
            *openssh_command(door.port, "skyjo", key_file[1]),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        try:
            await poll_until(lambda: len(door.apps) == 1 and door.apps[0].is_running, "the app")
            ssh.send_signal(signal.SIGSTOP)  # the laptop lid closes: no answer, no goodbye
            # What the server does about it, once done: the connection's slot is free and
            # the app stopped (the app stops after its connection drops, not at that moment).
            await poll_until(
                lambda: door.manager.connections.total == 0 and not door.apps[0].is_running,
                "the connection dropped and its app stopped",
            )
        finally:
            ssh.kill()
            await asyncio.wait_for(ssh.wait(), TIMEOUT)
