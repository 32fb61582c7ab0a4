"""Journey: Settings in the middle of a game, and back to the same seat.

A player at a local table wants the others' moves slower, or French, without leaving
(leaving gives the seat to a bot for good). ``o`` (and the palette) opens Settings over
the table; saved or not, the table is back as it was: the same prompt, the footer's
keys, the keyboard on the table, the game going on, the new pace and language in use.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.command import CommandPalette
from textual.widgets import Markdown, Select

from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.help import HelpScreen
from skyjo_tui.screens.keys import KeysScreen
from skyjo_tui.screens.settings import SettingsScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.table.pacing import PACES
from skyjo_tui.widgets.line_log import LineLog

from ..players import KeyboardPlayer, my_move
from .seen import (
    a_local_game,
    focused,
    footer,
    on_screen,
    play_the_round,
    prompt_line,
    screen_text,
    until,
)


def log_lines(table: TableScreen) -> list[str]:
    return list(table.query_one(LineLog).lines)


async def test_settings_from_the_table_and_back_to_the_game(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app(pace="off")
    async with app.run_test(size=(80, 24)) as pilot:
        table: TableScreen = await a_local_game(pilot)
        prompt, keyboard = prompt_line(app), focused(app)
        assert "Turn up" in prompt

        # Help lists the key among the table's.
        await pilot.press("question_mark")
        help_ = await on_screen(pilot, HelpScreen)
        text = str(help_.query_one(Markdown).source)
        table_keys = text.split("## Keys at the table")[1].split("\n## ")[0]
        assert "| o | Settings |" in table_keys, table_keys
        await pilot.press("escape")
        await on_screen(pilot, TableScreen)

        # o: Settings over the table; Esc without a change: the table as it was.
        await pilot.press("o")
        await on_screen(pilot, SettingsScreen)
        assert focused(app) == "Input#name"
        await pilot.press("escape")
        assert await on_screen(pilot, TableScreen) is table
        assert prompt_line(app) == prompt and focused(app) == keyboard
        keys = await footer(pilot)
        assert keys.has("Choose") and keys.has("Leave"), keys

        # A slower pace and French, saved: back at the same table, both in use.
        told = log_lines(table)
        await pilot.press("o")
        settings = await on_screen(pilot, SettingsScreen)
        settings.query_one("#pace", Select).value = "slow"
        settings.query_one("#language", Select).value = "fr"
        await pilot.press("ctrl+s")
        await until(
            pilot,
            lambda: app.screen is table and "Retournez" in prompt_line(app),
            "the table's prompt in French",
        )
        assert table.controller.queue.pace == PACES["slow"]
        assert log_lines(table)[: len(told)] == told  # the log keeps what it told
        assert (await footer(pilot)).has("Partir"), await footer(pilot)
        assert focused(app) == keyboard

        # The palette offers Settings at the table too (in the player's language).
        await pilot.press("ctrl+p")
        await until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
        await pilot.press(*"Régl")
        await until(pilot, lambda: "Réglages" in screen_text(app), "Settings in the palette")
        await pilot.press("enter")
        await on_screen(pilot, SettingsScreen)
        await pilot.press("escape")
        await on_screen(pilot, TableScreen)

        # A key remapped on the way (Settings, then its Keys screen): the table's prompt,
        # which names the key that turns a card up, names the new one at once.
        await pilot.press("o")
        await on_screen(pilot, SettingsScreen)
        await pilot.press("ctrl+b")
        await on_screen(pilot, KeysScreen)
        app.set_keys({"table.choose": "u"})  # what the Keys screen does with a key pressed
        await pilot.press("escape")
        await on_screen(pilot, SettingsScreen)
        await pilot.press("escape")
        await on_screen(pilot, TableScreen)
        assert "u pour la retourner" in prompt_line(app), prompt_line(app)  # it said ⏎
        app.set_keys({})

        # The game goes on with the keyboard: the round is played to its end.
        await play_the_round(pilot)


async def test_the_language_changed_mid_game_keeps_the_log_and_the_game_going(
    make_app: Callable[..., SkyjoApp],
) -> None:
    """At the default pace, others' moves are held on screen by timers: the language switched
    again and again meanwhile (as Settings at the table does) keeps the same table, every
    line of its log, and the game going (a rebuild of the table dropped the log, and a held
    move landing in it crashed the app)."""
    app = make_app(pace="normal")
    async with app.run_test(size=(80, 24)) as pilot:
        table: TableScreen = await a_local_game(pilot)
        player = KeyboardPlayer(pilot)
        lang, switches, told = "fr", 0, log_lines(table)
        deadline = time.monotonic() + 30
        while switches < 16 and time.monotonic() < deadline:
            mine = my_move(app)
            if mine is not None and app.screen is table:
                await player.play(mine)
            await app.set_language(lang).wait()
            switches += 1
            lang = "en" if lang == "fr" else "fr"
            now = log_lines(table)
            assert now[: len(told)] == told, (told, now)  # nothing the log told is lost
            told = now
            await pilot.pause(0.05)
        assert switches == 16 and app.screen is table and len(told) > 2


async def test_a_player_who_had_put_choose_on_o_keeps_it(
    make_app: Callable[..., SkyjoApp],
) -> None:
    """Chosen before o opened Settings at the table: o still turns a card up there, and Help
    does not say o opens Settings."""
    app = make_app(pace="off")
    async with app.run_test(size=(80, 24)) as pilot:
        table: TableScreen = await a_local_game(pilot)
        app.set_keys({"table.choose": "o"})
        await pilot.press("o")
        await until(pilot, lambda: "You turned up" in "\n".join(log_lines(table)), "a card up")
        assert app.screen is table
        await pilot.press("question_mark")
        help_ = await on_screen(pilot, HelpScreen)
        text = str(help_.query_one(Markdown).source)
        table_keys = text.split("## Keys at the table")[1].split("\n## ")[0]
        assert "| o | Settings |" not in table_keys and "| o | Choose |" in table_keys, table_keys
