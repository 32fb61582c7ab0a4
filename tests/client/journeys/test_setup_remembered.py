"""Journey: a local game set up (bots, their levels, every variant), then `skyjo` launched
again on the same data: its new-game screen opens with those choices.

Before, only the number of bots and the first bot's level came back (every bot at that
level), and the variants were back to the rules' defaults each time.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input

from server.app import SkyjoServer
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.confirm import ConfirmScreen
from skyjo_tui.screens.create_table import CreateTableScreen
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.room import RoomScreen
from skyjo_tui.screens.setup import SetupScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.text import Select

from .seen import focused, on_screen, prompt_line, screen_text, until

CHOSEN: dict[str, Any] = {
    "bot-count": 2,
    "level-0": "master",
    "level-1": "random",
    "variant-starter": "closer-starts",
    "variant-clear-columns": "off",
    "variant-closer-penalty": "off",
}
TABLE_CHOSEN: dict[str, Any] = {"seats": 2, "private": True, "hints": False}
SHOWN = ("master", "random", "closer starts", "kept", "none")  # as the selects read


def chosen_on(setup: SetupScreen) -> dict[str, Any]:
    return {name: setup.query_one(f"#{name}", Select).value for name in CHOSEN}


async def a_game_from(pilot: Pilot[Any]) -> TableScreen:
    """Enter on the set-up's Start: the table, once it asks for the first cards."""
    assert focused(pilot.app) == "FormButton#start"
    await pilot.press("enter")
    table = await on_screen(pilot, TableScreen)
    await until(pilot, lambda: "Turn up" in prompt_line(pilot.app), "the first prompt")
    return table


async def leave_and_quit(pilot: Pilot[Any], leave: str, back_to: type[Screen[Any]]) -> None:
    """Leave the game or table with ``leave`` (it asks first: yes), then quit the app."""
    await pilot.press(leave)
    await on_screen(pilot, ConfirmScreen)
    await pilot.press("y")
    await on_screen(pilot, back_to)
    await pilot.press("ctrl+q")


def played_with(table: TableScreen) -> tuple[list[str], dict[str, Any]]:
    """The table's bots (by level) and its rules, as the server holds them."""
    bots = [seat["level"] for seat in table.table["seats"] if seat and seat["kind"] == "bot"]
    return bots, table.table["settings"]


WANTED_RULES = {
    "starter": "closer-starts",
    "clear-columns": "off",
    "closer-penalty": "off",
    "end-score": 50,
}


async def test_the_new_game_screen_opens_with_the_last_games_choices_after_a_relaunch(
    make_app: Callable[..., SkyjoApp],
) -> None:
    first = make_app()
    async with first.run_test(size=(80, 30)) as pilot:
        await on_screen(pilot, HomeScreen)
        await pilot.press("n")
        setup = await on_screen(pilot, SetupScreen)
        for name, value in CHOSEN.items():
            setup.query_one(f"#{name}", Select).value = value
        end_score = setup.query_one("#variant-end-score", Input)
        end_score.focus()
        await pilot.press("ctrl+a", "ctrl+k", "5", "0")
        setup.query_one("#start").focus()
        await until(pilot, lambda: focused(first) == "FormButton#start", "the Start button focused")
        table = await a_game_from(pilot)
        bots, rules = played_with(table)
        assert sorted(bots) == ["master", "random"]
        assert {name: rules[name] for name in WANTED_RULES} == WANTED_RULES
        await leave_and_quit(pilot, "q", HomeScreen)

    again = make_app()
    async with again.run_test(size=(80, 30)) as pilot:
        await on_screen(pilot, HomeScreen)
        await pilot.press("n")
        setup = await on_screen(pilot, SetupScreen)
        assert chosen_on(setup) == CHOSEN
        assert setup.query_one("#variant-end-score", Input).value == "50"
        text = screen_text(again)
        assert all(word in text for word in SHOWN), text
        table = await a_game_from(pilot)  # Enter at once: the same game again
        bots, rules = played_with(table)
        assert sorted(bots) == ["master", "random"]
        assert {name: rules[name] for name in WANTED_RULES} == WANTED_RULES


async def test_an_earlier_versions_set_up_still_opens_the_new_game_screen(
    make_app: Callable[..., SkyjoApp], tmp_path: Path
) -> None:
    data_dir = tmp_path / "client"
    data_dir.mkdir()  # as an earlier version left it: a number of bots and one level
    (data_dir / "client.json").write_text(json.dumps({"bots": 4, "bot_level": "expert"}))
    app = make_app(data_dir=data_dir)
    async with app.run_test(size=(80, 30)) as pilot:
        await on_screen(pilot, HomeScreen)
        await pilot.press("n")
        setup = await on_screen(pilot, SetupScreen)
        assert setup.query_one("#bot-count", Select).value == 4
        levels = [setup.query_one(f"#level-{index}", Select).value for index in range(4)]
        assert levels == ["expert"] * 4
        assert setup.query_one("#variant-end-score", Input).value == "100"


async def test_a_servers_new_table_opens_as_the_last_table_opened(
    make_app: Callable[..., SkyjoApp], server: SkyjoServer
) -> None:
    def online() -> SkyjoApp:
        return make_app(tcp_connector("127.0.0.1", server.port), name="Alice")

    first = online()
    async with first.run_test(size=(100, 32)) as pilot:
        await on_screen(pilot, LobbyScreen)
        await pilot.press("n")
        dialog = await on_screen(pilot, CreateTableScreen)
        for name in ("variant-starter", "variant-clear-columns", "variant-closer-penalty"):
            dialog.query_one(f"#{name}", Select).value = CHOSEN[name]
        dialog.query_one("#variant-end-score", Input).value = "50"
        for name, value in TABLE_CHOSEN.items():
            dialog.query_one(f"#{name}", Select).value = value
        dialog.query_one("#timer", Input).value = "30"
        await pilot.press("ctrl+s")
        room = await on_screen(pilot, RoomScreen)
        rules = room.table["settings"]
        assert {name: rules[name] for name in WANTED_RULES} == WANTED_RULES
        assert (len(room.table["seats"]), room.table["turn_timer"]) == (2, 30)
        await leave_and_quit(pilot, "l", LobbyScreen)

    again = online()
    async with again.run_test(size=(100, 32)) as pilot:
        await on_screen(pilot, LobbyScreen)
        await pilot.press("n")
        dialog = await on_screen(pilot, CreateTableScreen)
        variants = ("variant-starter", "variant-clear-columns", "variant-closer-penalty")
        assert {name: dialog.query_one(f"#{name}", Select).value for name in variants} == {
            name: CHOSEN[name] for name in variants
        }
        assert dialog.query_one("#variant-end-score", Input).value == "50"
        # The seats, the visibility, the coach and the timer too (not the name: "Bob's table").
        assert {name: dialog.query_one(f"#{name}", Select).value for name in TABLE_CHOSEN} == (
            TABLE_CHOSEN
        )
        assert dialog.query_one("#timer", Input).value == "30"


async def test_a_new_table_kept_wrong_in_the_file_opens_with_the_defaults(
    make_app: Callable[..., SkyjoApp], server: SkyjoServer, tmp_path: Path
) -> None:
    data_dir = tmp_path / "client"
    data_dir.mkdir()  # edited by hand: no value makes sense
    kept = {"seats": 99, "private": "yes", "hints": 0, "turn_timer": -3}
    (data_dir / "client.json").write_text(json.dumps({"new_table": kept}))
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice", data_dir=data_dir)
    async with app.run_test(size=(100, 32)) as pilot:
        await on_screen(pilot, LobbyScreen)
        await pilot.press("n")
        dialog = await on_screen(pilot, CreateTableScreen)
        fields = {name: dialog.query_one(f"#{name}", Select).value for name in TABLE_CHOSEN}
        assert fields == {"seats": 4, "private": False, "hints": True}
        assert dialog.query_one("#timer", Input).value == ""
        await pilot.press("ctrl+s")  # and the table opens
        await on_screen(pilot, RoomScreen)
