"""Journey: a key remapped in Settings → Keys keeps its place in the footer, and its group.

Textual applies a keymap by moving the remapped binding to the end of its screen's keys:
Draw on p read ``… ? Help  q Leave  p Draw``, with Take alone, and Help and the way out
no longer last. Each place is read before and after the remap (``SkyjoApp.set_keys``, as
the Keys screen calls it): the same line, the one key changed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from server.app import SkyjoServer
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.create_table import CreateTableScreen
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.room import RoomScreen

from ..players import KeyboardPlayer, my_move
from ..test_replay import replaying
from .seen import a_local_game, footer, on_screen, screen_lines, screen_text, until


async def footer_line(pilot: Pilot[Any]) -> str:
    """The footer's row as the person reads it, once its keys are laid out."""
    await footer(pilot)
    return " ".join(screen_lines(pilot.app)[-1].split())


async def remapped_line(pilot: Pilot[Any], binding_id: str, key: str) -> str:
    """The footer's row with ``binding_id`` on ``key`` (the app's keymap, as the Keys screen
    sets it)."""
    app = pilot.app
    assert isinstance(app, SkyjoApp)
    before = await footer_line(pilot)
    app.set_keys({**app.keymap, binding_id: key})
    await until(pilot, lambda: screen_lines(app)[-1].split() != before.split(), "a new footer")
    return await footer_line(pilot)


async def test_draw_remapped_stays_with_take_before_help_and_leave(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await a_local_game(pilot)
        player = KeyboardPlayer(pilot)
        while not table.choices.draw:  # the first two cards turned up: a turn's keys
            await until(pilot, lambda: my_move(app) is not None, "our move")
            if not table.choices.draw:
                await player.play(table)
        await until(pilot, lambda: "d draws a card" in screen_text(app), "the turn's prompt")
        before = await footer_line(pilot)
        assert before == "⏎ Choose d t Draw/take c Chat s Scores i Hint ? Help q Leave"
        after = await remapped_line(pilot, "table.draw", "p")
        assert after == "⏎ Choose p t Draw/take c Chat s Scores i Hint ? Help q Leave"


async def test_the_replays_keys_keep_their_place_and_groups(
    make_app: Callable[..., SkyjoApp], tmp_path: Path
) -> None:
    async with replaying(make_app, tmp_path) as pilot:
        before = await footer_line(pilot)
        assert " np " in before, before  # next and previous round: one group
        after = await remapped_line(pilot, "replay.next_round", "m")
        assert after == before.replace(" np ", " mp "), (before, after)


async def test_the_lobbys_and_the_rooms_keys_keep_their_place(
    make_app: Callable[..., SkyjoApp], make_server: Callable[..., Any]
) -> None:
    server: SkyjoServer = await make_server()
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, LobbyScreen)
        before = await footer_line(pilot)
        assert " n New table " in before, before
        after = await remapped_line(pilot, "lobby.create", "y")
        assert after == before.replace(" n New table ", " y New table "), (before, after)

        await pilot.press("y")
        await on_screen(pilot, CreateTableScreen)
        await pilot.press("ctrl+s")
        await on_screen(pilot, RoomScreen)
        before = await footer_line(pilot)
        assert " b x Bots " in before, before  # add and remove a bot: one group
        after = await remapped_line(pilot, "room.add_bot", "a")
        assert after == before.replace(" b x Bots ", " a x Bots "), (before, after)
