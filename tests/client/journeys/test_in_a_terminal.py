"""Journey: ``skyjo`` launched in a real terminal (tmux, 80x24), as a person types.

Settings (a new name) keep the keyboard working; the game uses the name; a
card turned up shows in the log; leaving asks; Ctrl+Q quits.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from ...ssh.tmuxkit import TMUX, tmux_pane

SKYJO = Path(sys.executable).with_name("skyjo")
pytestmark = pytest.mark.skipif(not TMUX or not SKYJO.exists(), reason="needs tmux and the skyjo command")
SLOW = 30.0  # the first game starts the in-process server: bounded, not timed


async def test_skyjo_in_a_terminal_settings_then_a_game(tmp_path: Path) -> None:
    command = [str(SKYJO), "--lang", "en", "--pace", "off", "--data-dir", str(tmp_path / "data")]
    async with tmux_pane(command, size=(80, 24), env={"USER": "", "LOGNAME": ""}) as pane:
        screen = await pane.wait_for("n New game", SLOW)
        assert screen.splitlines()[-1].startswith(" n New game  j Join server")
        await pane.keys("o")
        await pane.wait_for("Save")
        await pane.keys("Z")  # the name box has the keyboard: its first letter shows
        await pane.wait_for("Your name                Z")
        await pane.keys("o", "e")
        await pane.wait_for("Zoe")
        await pane.keys("C-s")
        screen = await pane.wait_gone("Save")
        assert "n New game" in screen.splitlines()[-1]  # the home screen's keys, which still work:
        await pane.keys("n")
        await pane.wait_for("Start")
        await pane.keys("Enter")
        screen = await pane.wait_for("Turn up", SLOW)
        assert "Zoe" in screen and "Player" not in screen
        await pane.keys("Enter")  # the card under the cursor turns up
        await pane.wait_for("You turned up", SLOW)  # your own moves are told to you as "You"
        await pane.keys("q")
        await pane.wait_for("Leave this game?")
        await pane.keys("y")
        await pane.wait_for("n New game")
        await pane.keys("C-q")
        status, _ = await pane.wait_for_exit(SLOW)
        assert status == 0

