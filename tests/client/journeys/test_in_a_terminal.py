"""Journey: ``skyjo`` launched in a real terminal (tmux, 80x24), as a person types.

Settings (a new name) keep the keyboard working; the game uses the name; a
card turned up shows in the log; leaving asks; Ctrl+Q quits.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from ...ssh.tmuxkit import TMUX, tmux_pane

SKYJO = Path(sys.executable).with_name("skyjo")
pytestmark = pytest.mark.skipif(
    not TMUX or not SKYJO.exists(), reason="needs tmux and the skyjo command"
)
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


async def test_your_turn_rings_and_titles_a_real_terminal(tmp_path: Path) -> None:
    """The escape sequences reach a real terminal: tmux shows the title and hears the bell."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "client.json").write_text(json.dumps({"turn_bell": True}), "utf-8")
    rang = tmp_path / "rang"
    command = [str(SKYJO), "--lang", "en", "--pace", "off", "--data-dir", str(data)]
    async with tmux_pane(command, size=(80, 24), env={"USER": "", "LOGNAME": ""}) as pane:
        await pane.tmux("set-hook", "-g", "alert-bell", f"run-shell 'echo rang >> {rang}'")

        async def title() -> str:
            return (await pane.tmux("display-message", "-p", "-t", "play", "#{pane_title}")).strip()

        async def until(condition: Callable[[], Awaitable[bool]], what: str) -> None:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + SLOW
            while not await condition():
                assert loop.time() < deadline, f"no {what}: the title is {await title()!r}"
                await asyncio.sleep(0.1)

        await pane.wait_for("n New game", SLOW)
        assert await title() != "Your turn · Skyjo"
        assert not rang.exists()
        await pane.keys("n")
        await pane.wait_for("Start")
        await pane.keys("Enter")
        await pane.wait_for("Turn up", SLOW)

        async def told() -> bool:
            return await title() == "Your turn · Skyjo" and rang.exists()

        await until(told, "title and bell")
        assert rang.read_text().split() == ["rang"]  # once: when it became your turn
        await pane.keys("q")
        await pane.wait_for("Leave this game?")
        await pane.keys("y")
        await pane.wait_for("n New game")

        async def back() -> bool:
            return await title() == "Skyjo"

        await until(back, "title back")
        await pane.keys("C-q")
        status, _ = await pane.wait_for_exit(SLOW)
        assert status == 0
