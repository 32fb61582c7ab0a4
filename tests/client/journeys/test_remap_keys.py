"""Journey: a key remapped from Settings works at once, the old one no longer does;
a key another action of the same place has is refused, saying which; defaults come back.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import DataTable

from skyjo_tui import keymap
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.confirm import ConfirmScreen
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.keys import KeysScreen
from skyjo_tui.screens.settings import SettingsScreen
from skyjo_tui.screens.setup import SetupScreen
from skyjo_tui.screens.table import TableScreen

from .seen import focused, footer, on_screen, prompt_line, screen_text, until
from .test_palette import back_home


def row_of(binding_id: str) -> int:
    """Where the Keys screen lists a binding (its list follows ``keymap.places``)."""
    ids = [b.id for place in keymap.places() for b in place.bindings]
    return ids.index(binding_id)


def listed_keys(app: SkyjoApp, binding_id: str) -> str:
    table = app.screen.query_one("#key-list", DataTable)
    return str(table.get_row(binding_id)[2])


async def open_keys(pilot: Pilot[Any]) -> None:
    await pilot.press("o")
    await on_screen(pilot, SettingsScreen)
    assert (await footer(pilot)).has("Keys")
    await pilot.press("ctrl+b")
    await on_screen(pilot, KeysScreen)
    keys = await footer(pilot)
    assert keys.has("Change key") and keys.has("Defaults") and keys.has("Back"), keys
    assert focused(pilot.app) == "TextTable#key-list"


async def test_remap_a_table_key_then_play_with_it(
    make_app: Callable[..., SkyjoApp], tmp_path: Path
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, HomeScreen)
        await open_keys(pilot)
        await pilot.press(*["down"] * row_of("table.chat"), "enter")
        await until(
            pilot,
            lambda: "Press the new key for “Chat” (Table)" in screen_text(app),
            "the question",
        )
        assert focused(app) == "KeyCatcher#key-catcher"

        # Draw's key, on the same table: refused, saying whose it is; Chat keeps c.
        await pilot.press("d")
        await until(pilot, lambda: "d is already “Draw” (Table)" in screen_text(app), "the refusal")
        assert listed_keys(app, "table.chat") == "c"
        assert focused(app) == "TextTable#key-list"

        # The lobby's Watch key, "w", is no key of the table: free there.
        await pilot.press("enter", "w")
        await until(pilot, lambda: "“Chat” is now w." in screen_text(app), "the change said")
        assert listed_keys(app, "table.chat") == "w"
        await pilot.press("escape")
        await on_screen(pilot, SettingsScreen)
        await pilot.press("escape")
        await back_home(pilot)

        # At the table: the footer shows w for Chat at once; w opens the chat, c no longer does.
        await pilot.press("n")
        await on_screen(pilot, SetupScreen)
        await pilot.press("enter")
        await on_screen(pilot, TableScreen)
        await until(pilot, lambda: "Turn up" in prompt_line(app), "the first prompt")
        keys = await footer(pilot)
        assert ("w", "Chat") in keys.shown and ("c", "Chat") not in keys.shown, keys
        await pilot.press("c")
        await pilot.pause(0.1)
        assert focused(app) == "nothing"  # the old key does nothing
        await pilot.press("w")
        await until(pilot, lambda: focused(app) == "ChatInput#chat-input", "the chat box focused")
        await pilot.press("escape")
        await until(pilot, lambda: focused(app) == "nothing", "the chat closed")
        await pilot.press("q")
        await on_screen(pilot, ConfirmScreen)
        await pilot.press("y")
        await back_home(pilot)
    saved = json.loads((tmp_path / "client" / "client.json").read_text("utf-8"))
    assert saved["keys"] == {"table.chat": "w"}

    # The next launch has it too; then back to the defaults.
    again = make_app()
    async with again.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, HomeScreen)
        await open_keys(pilot)
        assert listed_keys(again, "table.chat") == "w"
        await pilot.press("ctrl+r")
        await until(
            pilot,
            lambda: "Every key is back to its default." in screen_text(again),
            "the defaults said",
        )
        assert listed_keys(again, "table.chat") == "c"
        await pilot.press("escape", "escape")
        await back_home(pilot)
    saved = json.loads((tmp_path / "client" / "client.json").read_text("utf-8"))
    assert saved["keys"] == {}


async def test_a_home_key_remapped_shows_in_the_footer_at_once(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, HomeScreen)
        await open_keys(pilot)
        await pilot.press(*["down"] * row_of("home.stats"), "enter")
        await until(pilot, lambda: "“Stats” (Home)" in screen_text(app), "the question")
        await pilot.press("escape")  # Esc leaves it as it is
        await until(pilot, lambda: "Unchanged." in screen_text(app), "unchanged said")
        await pilot.press("enter", "t")
        await until(pilot, lambda: "“Stats” is now t." in screen_text(app), "the change said")
        await pilot.press("escape", "escape")
        await on_screen(pilot, HomeScreen)
        keys = await footer(pilot)
        assert ("t", "Stats") in keys.shown and ("s", "Stats") not in keys.shown, keys
        await pilot.press("s")
        await pilot.pause(0.1)
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("t")
        from skyjo_tui.screens.stats import StatsScreen

        await on_screen(pilot, StatsScreen)


async def test_the_new_key_prompt_reads_whole_in_french_at_80x24(
    make_app: Callable[..., SkyjoApp],
) -> None:
    """The question is longer than 80 columns in French: it wraps, it is not cut."""
    app = make_app(lang="fr")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, HomeScreen)
        await pilot.press("o")
        await on_screen(pilot, SettingsScreen)
        await pilot.press("ctrl+b")
        await on_screen(pilot, KeysScreen)
        await pilot.press(*["down"] * row_of("table.draw"), "enter")
        said = (
            "Appuyez sur la nouvelle touche de « Piocher » (Table) ; Échap la laisse telle quelle."
        )
        await until(pilot, lambda: said in " ".join(screen_text(app).split()), "the question whole")
        assert focused(app) == "KeyCatcher#key-catcher"
