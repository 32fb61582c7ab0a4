"""Colours over the real OpenSSH client: what the player's terminal can show, and no more."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from server.termhost.options import WorkerOptions

from .realdoor import RealDoor, real_door
from .tmuxkit import SSH, TMUX, openssh_command, tmux_pane

pytestmark = pytest.mark.skipif(not (SSH and TMUX), reason="needs the ssh client and tmux")

TRUECOLOR = re.compile(rb"\x1b\[[0-9;]*[34]8;2;(\d+);(\d+);(\d+)")
EIGHT_BIT = re.compile(rb"\x1b\[[0-9;]*[34]8;5;\d+")
ASK_TRUECOLOR = ("-o", "SetEnv=COLORTERM=truecolor")


async def lobby_bytes(door: RealDoor, output: Path, *options: str) -> bytes:
    """Everything a guest's ``xterm-256color`` terminal got, from login to goodbye."""
    command = openssh_command(door.port, "carol", None, *options)
    async with tmux_pane(command, env={"TERM": "xterm-256color"}) as pane:
        await pane.tmux("pipe-pane", "-o", "-t", "play", f"cat >> {output}")
        await pane.wait_for("Lobby · carol")
        await pane.keys("q")
        await pane.wait_for("Leave this server?")
        await pane.keys("y")
        assert (await pane.wait_for_exit())[0] == 0
    return output.read_bytes()


@pytest.mark.parametrize("workers", [None, 1], ids=["in-process", "worker"])
async def test_each_player_gets_the_colours_of_their_own_terminal(
    tmp_path: Path, workers: int | None
) -> None:
    """OpenSSH sends TERM but not COLORTERM: ``xterm-256color`` alone is 256
    colours; ``ssh -o SetEnv=COLORTERM=truecolor`` asks for more. Players one
    after the other on one server (in one worker) never get another's."""
    options = None if workers is None else WorkerOptions(processes=workers)
    async with real_door(tmp_path / "server", workers=options) as door:
        for turn, asks in enumerate((False, True, False)):
            output = await lobby_bytes(door, tmp_path / f"{turn}", *(ASK_TRUECOLOR if asks else ()))
            if asks:
                assert TRUECOLOR.search(output) and not EIGHT_BIT.search(output), turn
            else:
                assert EIGHT_BIT.search(output) and not TRUECOLOR.search(output), turn


async def test_no_color_wins_over_truecolor(tmp_path: Path) -> None:
    async with real_door(tmp_path / "server") as door:
        output = await lobby_bytes(
            door, tmp_path / "out", "-o", "SetEnv=COLORTERM=truecolor NO_COLOR=1"
        )
    shades = {(int(r), int(g), int(b)) for r, g, b in TRUECOLOR.findall(output)}
    assert all(r == g == b for r, g, b in shades), shades  # greys at most
    assert not EIGHT_BIT.search(output)
