"""Logging in with the real OpenSSH client, in tmux: guests, names, and coming back to a seat."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from pathlib import Path

import asyncssh
import pytest

from server.termhost.options import WorkerOptions

from .realdoor import real_door
from .sshkit import TIMEOUT, poll_until
from .test_openssh import press
from .tmuxkit import SSH, TMUX, TmuxPane, openssh_command, tmux_pane, write_private_key

pytestmark = pytest.mark.skipif(not (SSH and TMUX), reason="needs the ssh client and tmux")


@pytest.fixture
def key_file(tmp_path: Path) -> Path:
    key = asyncssh.generate_private_key("ssh-ed25519")
    return write_private_key(key.export_private_key(), tmp_path / "id_ed25519")


async def test_a_guest_on_the_default_user_is_asked_a_name(tmp_path: Path) -> None:
    # ``ssh skyjo@host`` with no key at all (-o PubkeyAuthentication=no).
    async with real_door(tmp_path / "server") as door:
        async with tmux_pane(openssh_command(door.port, "skyjo", None)) as pane:
            screen = await pane.wait_for("Choose your name")
            assert "Could not connect" not in screen
            await pane.keys("carol", "Enter")
            await pane.wait_for("Lobby · carol")
            await press(pane, "q", "Leave this server?")
            await pane.keys("y")
            assert (await pane.wait_for_exit())[0] == 0


@pytest.mark.parametrize("back_as", ["bob", "skyjo"])
async def test_a_key_that_dropped_comes_back_to_its_seat_either_way(
    tmp_path: Path, key_file: Path, back_as: str
) -> None:
    """bob plays as ``bob@host``, drops, and comes back as ``bob@`` or ``skyjo@``."""
    async with real_door(tmp_path / "server", workers=WorkerOptions(processes=1)) as door:
        async with tmux_pane(openssh_command(door.port, "bob", key_file)) as pane:
            await pane.wait_for("Lobby · bob")
            await press(pane, "n", "New table")
            await press(pane, "C-s", "You are the host")
            await press(pane, "b", "bot")
            await press(pane, "s", "Turn up a card of your choice")
            await press(pane, "Enter", "You turned up")
            await drop_the_connection(pane)
        manager = door.door.manager
        assert manager is not None
        await poll_until(lambda: manager.connections.total == 0, "bob's connection closed")

        async with tmux_pane(openssh_command(door.port, back_as, key_file)) as pane:
            screen = await pane.wait_for("Discard")  # straight back to the table
            assert "You turned up" in screen or "Turn up a card" in screen, screen
            for _ in range(10):  # the board stays: no name prompt comes up behind it
                assert "Choose your name" not in await pane.screen()
                await asyncio.sleep(0.05)
            await press(pane, "q", "Leave this game?")


async def drop_the_connection(pane: TmuxPane) -> None:
    """The ssh client dies without a goodbye (SIGKILL): its TCP connection closes."""
    shell = int((await pane.tmux("display-message", "-p", "-t", "play", "#{pane_pid}")).strip())
    children = Path(f"/proc/{shell}/task/{shell}/children").read_text().split()
    assert len(children) == 1, children  # the shell runs ssh, and only ssh
    with contextlib.suppress(ProcessLookupError):
        os.kill(int(children[0]), signal.SIGKILL)
    # The screen stays as ssh left it (the exit mark may be hidden): ask tmux.
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    while (await pane.tmux("display-message", "-p", "-t", "play", "#{pane_dead}")).strip() != "1":
        if loop.time() > deadline:
            raise AssertionError("the ssh client is still running")
        await asyncio.sleep(0.05)
