"""Journey: the terminal's title says it is your turn, in your language, unless turned off.

What the terminal receives is tested over SSH (tests/ssh/test_your_turn.py, the bytes
through the real driver); here, the title the app gives the terminal at each step.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.confirm import ConfirmScreen
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.setup import SetupScreen
from skyjo_tui.screens.table import TableScreen

from .seen import on_screen, prompt_line, until


async def first_prompt(pilot, words: str) -> None:
    await on_screen(pilot, HomeScreen)
    await pilot.press("n")
    await on_screen(pilot, SetupScreen)
    await pilot.press("enter")
    await on_screen(pilot, TableScreen)
    await until(pilot, lambda: words in prompt_line(pilot.app), "the first prompt")


async def test_the_title_says_your_turn_in_french(make_app: Callable[..., SkyjoApp]) -> None:
    app = make_app(lang="fr")
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.terminal_title.shown is None  # the terminal's own, until a turn of ours
        await first_prompt(pilot, "Retournez")
        await until(pilot, lambda: app.terminal_title.shown == "À vous · Skyjo", "the title")
        await pilot.press("q")
        await on_screen(pilot, ConfirmScreen)
        await pilot.press("y")
        await on_screen(pilot, HomeScreen)
        assert app.terminal_title.shown == "Skyjo"  # away from the table: no longer your turn


async def test_no_title_when_turned_off(make_app: Callable[..., SkyjoApp], tmp_path: Path) -> None:
    (tmp_path / "client").mkdir()
    (tmp_path / "client" / "client.json").write_text(json.dumps({"turn_title": False}), "utf-8")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await first_prompt(pilot, "Turn up")
        await pilot.pause(0.1)
        assert app.terminal_title.shown is None
