"""Journey: the hints of the lobby, the room and the table name the keys as the player
remapped them (Settings → Keys, from the lobby), and those keys do what the hints say.

Alice hosts: the lobby's "no table yet" names her keys for a new table and a code, the
room her keys to add a bot and to start. Alice joins Bob's table: the room names her ready
key; after the game, the table names her scores key, and the footer her leave key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.pilot import Pilot
from textual.widgets import DataTable

from server.app import SkyjoServer
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.confirm import ConfirmScreen
from skyjo_tui.screens.create_table import CreateTableScreen
from skyjo_tui.screens.game_over import GameOverScreen
from skyjo_tui.screens.keys import KeysScreen
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.room import RoomScreen
from skyjo_tui.screens.settings import SettingsScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.prompt import PromptLine

from ..players import KeyboardPlayer, play_to_game_over
from ..test_network import hosting
from .seen import footer, into_the_hosts_room, on_screen, prompt_line, screen_text, until
from .test_remap_keys import row_of


def hint_of(app: App[Any], selector: str) -> str:
    """The words of one hint line, as a sentence (the screen wraps it at 80 columns)."""
    found = app.screen.query(selector)
    return str(found.first().render()) if found else ""


def said_on_screen(app: App[Any], words: str) -> Callable[[], bool]:
    return lambda: words in screen_text(app)


async def remap_from_the_lobby(pilot: Pilot[Any], keys: dict[str, str]) -> None:
    """Settings → Keys from the lobby: each binding id in ``keys`` on its new key; back."""
    app = pilot.app
    await pilot.press("o")
    await on_screen(pilot, SettingsScreen)
    await pilot.press("ctrl+b")
    await on_screen(pilot, KeysScreen)
    for binding_id, key in keys.items():
        moves = row_of(binding_id) - app.screen.query_one("#key-list", DataTable).cursor_row
        await pilot.press(*["down" if moves > 0 else "up"] * abs(moves), "enter", key)
        await until(pilot, said_on_screen(app, f"is now {key}."), "the change said")
    await pilot.press("escape", "escape")
    await on_screen(pilot, LobbyScreen)


async def test_the_lobby_and_the_hosts_room_name_the_remapped_keys(
    make_app: Callable[..., SkyjoApp], make_server: Callable
) -> None:
    server: SkyjoServer = await make_server()
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, LobbyScreen)
        hint = "No public table yet: press {} to create one, or {} to join one by its code."
        await until(
            pilot, lambda: hint_of(app, "#no-tables") == hint.format("n", "k"), "the lobby's hint"
        )
        await remap_from_the_lobby(
            pilot,
            {"lobby.create": "t", "lobby.code": "y", "room.add_bot": "a", "room.start": "g"},
        )
        await until(
            pilot, lambda: hint_of(app, "#no-tables") == hint.format("t", "y"), "the new keys named"
        )

        await pilot.press("t")
        await on_screen(pilot, CreateTableScreen)
        await pilot.press("ctrl+s")
        room: RoomScreen = await on_screen(pilot, RoomScreen)
        said = "You are the host: add bots with a, start with g when everyone is ready."
        await until(pilot, lambda: hint_of(app, "#room-state") == said, "the host's hint")
        keys = await footer(pilot)
        assert ("a", "Add bot") in keys.shown and ("g", "Start") in keys.shown, keys

        await pilot.press("a")  # as the hint says: a bot in an empty seat
        await until(
            pilot, lambda: any(s and s["kind"] == "bot" for s in room.table["seats"]), "a bot"
        )
        await pilot.press("g")  # and the game starts
        await on_screen(pilot, TableScreen)
        await until(pilot, lambda: "Turn up" in prompt_line(app), "the first prompt")


async def test_a_guests_room_and_table_name_the_remapped_keys(
    make_app: Callable[..., SkyjoApp], make_server: Callable
) -> None:
    server: SkyjoServer = await make_server()
    async with hosting(server.port, "Bob") as bob:
        app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice")
        async with app.run_test(size=(80, 24)) as pilot:
            await on_screen(pilot, LobbyScreen)
            await remap_from_the_lobby(
                pilot, {"room.ready": "y", "table.summary": "g", "table.leave": "z"}
            )
            await into_the_hosts_room(pilot)
            said = "Press y when you are ready; the host starts the game."
            await until(pilot, lambda: hint_of(app, "#room-state") == said, "the guest's hint")
            await pilot.press("y")  # as the hint says
            await until(
                pilot,
                lambda: any(s and s["ready"] and not s["host"] for s in bob.table["seats"]),
                "ready, as Bob sees it",
            )
            await bob.conn.request({"type": "start_game"})
            await on_screen(pilot, TableScreen)
            await play_to_game_over(pilot, app, KeyboardPlayer(pilot))
            await pilot.press("escape")  # from the game over, the table
            await on_screen(pilot, TableScreen)

            # No move now: the table says why (a note over the prompt), naming the scores key:
            # the game's results, not a round's.
            await pilot.press("d")
            said = "The game is over: g shows the results."
            await until(
                pilot,
                lambda: said in prompt_line(app) and app.screen.query_one(PromptLine).text == said,
                "the refusal",
            )
            assert app.screen.query_one(PromptLine).has_class("note")
            keys = await footer(pilot)
            assert ("g", "Scores") in keys.shown and ("z", "Leave") in keys.shown, keys
            await pilot.press("g")
            await on_screen(pilot, GameOverScreen)
            await pilot.press("escape")
            await on_screen(pilot, TableScreen)
            await pilot.press("z")
            await on_screen(pilot, ConfirmScreen)
