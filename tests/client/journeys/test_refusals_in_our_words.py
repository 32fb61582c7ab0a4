"""Journeys: what the server refuses is said in the client's words, in the player's
language. A real server on 127.0.0.1 and the app under Pilot: a table code mistyped, a
full table joined by its code, a name someone online has. Before, an English player
read the server's own lower-case words ("no such table", "every seat at this table is
taken", "'Hana' is playing now").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen

from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.name import NameScreen, PromptScreen

from ...support_server import StartServer
from ..hostile import Mischief
from .seen import drawn_words, on_screen, until

#: What the person reads, by language.
NO_SUCH_TABLE = {
    "en": "There is no such table: check the code (or the table has just closed).",
    "fr": "Cette table n'existe pas : vérifiez le code (ou la table vient de fermer).",
}
TABLE_FULL = {
    "en": "That table is full: watch it, or choose another.",
    "fr": "Cette table est complète : regardez-la, ou choisissez-en une autre.",
}
NAME_TAKEN = {
    "en": "Someone online, or keeping a seat at a table, has that name: choose another. "
    "Your own seat? Give your return code too.",
    "fr": "Quelqu'un en ligne, ou qui garde une place à une table, a ce nom : choisissez-en "
    "un autre. Votre propre place ? Donnez aussi votre code de retour.",
}


async def the_dialog_again_saying(pilot: Pilot[Any], before: Screen[Any], words: str) -> None:
    """The code's dialog, opened again in place of ``before``, its error line ``words``."""
    app = pilot.app

    def again() -> bool:
        return (
            app.screen is not before and drawn_words(app, app.screen.query_one(".error")) == words
        )

    await until(pilot, again, f"the code's dialog again, saying {words!r}")


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_mistyped_code_and_a_full_table_are_said_in_our_words(
    make_server: StartServer, make_app: Callable[..., SkyjoApp], lang: str
) -> None:
    server = await make_server()
    host = await Mischief.arrive(server.port, "Hana")
    try:
        created = await host.conn.request({"type": "create_table", "name": "Full", "seats": 2})
        await host.conn.request({"type": "add_bot", "level": "random"})  # every seat taken
        code = str(created["table"]["code"])
        wrong = "ZZZZZZ" if code != "ZZZZZZ" else "YYYYYY"
        app = make_app(tcp_connector("127.0.0.1", server.port), name="Walter", lang=lang)
        # Wider than 80 columns: the French lobby's footer cuts its last key there.
        async with app.run_test(size=(100, 30)) as pilot:
            await on_screen(pilot, LobbyScreen)
            await pilot.press("k")
            first = await on_screen(pilot, PromptScreen)
            await pilot.press(*wrong.lower(), "enter")
            await the_dialog_again_saying(pilot, first, NO_SUCH_TABLE[lang])
            second = app.screen
            await pilot.press("ctrl+a", "ctrl+k", *code.lower(), "enter")  # the full table's
            await the_dialog_again_saying(pilot, second, TABLE_FULL[lang])
            await pilot.press("escape")  # (Enter on it in the list watches it: test_lobby_list)
            await on_screen(pilot, LobbyScreen)
    finally:
        await host.conn.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_name_someone_online_has_is_said_in_our_words(
    make_server: StartServer, make_app: Callable[..., SkyjoApp], lang: str
) -> None:
    server = await make_server()
    first = await Mischief.arrive(server.port, "Hana")
    try:
        app = make_app(tcp_connector("127.0.0.1", server.port), name="Hana", lang=lang)
        async with app.run_test(size=(80, 24)) as pilot:
            asked: NameScreen = await on_screen(pilot, NameScreen)
            why = asked.query_one(".error")
            await until(pilot, lambda: drawn_words(app, why) == NAME_TAKEN[lang], "why not")
    finally:
        await first.conn.close()
