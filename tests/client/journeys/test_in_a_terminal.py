"""Journey: ``skyjo`` launched in a real terminal (tmux, 80x24), as a person types.

Settings (a new name) keep the keyboard working; the game uses the name; a
card turned up shows in the log; leaving asks; Ctrl+Q quits.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shlex
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from ...ssh.tmuxkit import TMUX, TmuxPane, tmux_pane

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


def _typed_name(screen: str) -> str | None:
    """What the Settings name box shows (the text after its label); None: not on screen."""
    for line in screen.splitlines():
        if "Your name" in line:
            return line.split("Your name", 1)[1].strip(" │▏▕▎▌▐┃|")
    return None


@contextlib.asynccontextmanager
async def _settings_in_a_terminal(tmp_path: Path) -> AsyncIterator[TmuxPane]:
    """``skyjo`` in tmux at 80x24, on Settings, its name box holding the keyboard."""
    command = [str(SKYJO), "--lang", "en", "--pace", "off", "--data-dir", str(tmp_path / "data")]
    async with tmux_pane(command, size=(80, 24), env={"USER": "", "LOGNAME": ""}) as pane:
        await pane.wait_for("n New game", SLOW)
        await pane.keys("o")
        await pane.wait_for("Save")
        yield pane


async def test_keys_in_one_read_edit_in_the_order_typed(tmp_path: Path) -> None:
    # Textual issue #6605: keys parsed from one read were applied out of order (a letter
    # as it reached the text box, a Backspace only once it had bubbled up to the app).
    async with _settings_in_a_terminal(tmp_path) as pane:
        await pane.keys("Z")
        await pane.wait_for("Your name                Z")
        await pane.keys("BSpace")
        # Empty, the box shows (greyed) the name games go by: "Player", with no login name.
        await pane.wait_until(lambda screen: _typed_name(screen) == "Player", "the box empty")
        # One send-keys: tmux writes the keys to the terminal at once, read in one read.
        await pane.keys("h", "e", "l", "o", "BSpace", "l", "o")
        screen = await pane.wait_until(
            lambda screen: (
                (_typed_name(screen) or "Player") != "Player"
                and len(_typed_name(screen) or "") >= 5
            ),
            "five letters typed in the name box",
        )
        assert _typed_name(screen) == "hello"


async def test_esc_then_a_letter_in_one_read_are_the_two_keys(tmp_path: Path) -> None:
    # Read together, an Esc and a letter were Alt+letter: the Esc was lost, and the
    # letter went into the name box instead of leaving Settings and acting at Home.
    async with _settings_in_a_terminal(tmp_path) as pane:
        await pane.keys("Escape", "n")  # Esc (back to Home, nothing changed), then n (New game)
        screen = await pane.wait_until(
            lambda screen: "Start" in screen or _typed_name(screen) == "n",
            "the Esc and the n handled",
        )
        assert "Your name" not in screen, "the n was typed into the name box"
        assert "Start" in screen


@pytest.mark.parametrize(
    ("redirect", "stream"), [("< /dev/null", "stdin"), ("> /dev/null", "stdout")]
)
async def test_started_from_a_script_without_a_terminal_it_says_so(
    redirect: str, stream: str, tmp_path: Path
) -> None:
    # A background job of a POSIX sh reads /dev/null: the app drew its screen, read
    # no key and spun forever. The rest of the pane is a terminal, which shows why.
    data = tmp_path / "data"
    script = (
        f"exec {shlex.quote(str(SKYJO))} --lang en --data-dir {shlex.quote(str(data))} {redirect}"
    )
    async with tmux_pane(["sh", "-c", script], size=(80, 24)) as pane:
        status, screen = await pane.wait_for_exit(SLOW)
        assert status != 0
        assert f"skyjo needs a terminal: its {stream} is not one" in screen
        assert "n New game" not in screen and not data.exists()
