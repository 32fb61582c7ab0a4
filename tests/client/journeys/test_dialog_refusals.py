"""Journeys: dialogs whose request the server refuses (a code mistyped, a turn timer
out of bounds). The refusal is said in the dialog, in the client's words (with the
server's bounds), beside what was typed, which is kept to be put right there; an
earlier refusal does not stay on show beside it.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.widgets import Input

from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.create_table import CreateTableScreen
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.name import PromptScreen
from skyjo_tui.screens.room import RoomScreen
from skyjo_tui.widgets.text import Label

from ...support_server import StartServer
from ..hostile import Mischief
from .seen import drawn_words, on_screen, screen_text, until


async def test_a_mistyped_code_is_said_in_its_dialog_and_put_right_there(
    make_server: StartServer, make_app: Callable[..., SkyjoApp]
) -> None:
    server = await make_server()
    host = await Mischief.arrive(server.port, "Hana")
    try:
        created = await host.conn.request(
            {"type": "create_table", "name": "Friends", "seats": 2, "private": True}
        )
        code = str(created["table"]["code"])
        wrong = "ZZZZZZ" if code != "ZZZZZZ" else "YYYYYY"
        app = make_app(tcp_connector("127.0.0.1", server.port), name="Walter")
        async with app.run_test(size=(80, 24)) as pilot:
            await on_screen(pilot, LobbyScreen)
            await pilot.press("k")
            prompt = await on_screen(pilot, PromptScreen)
            await pilot.press(*wrong.lower(), "enter")
            first = prompt
            await until(
                pilot,
                lambda: (
                    app.screen is not first
                    and drawn_words(app, app.screen.query_one(".error")).startswith(
                        "There is no such table: check the code"  # test_refusals_in_our_words
                    )
                ),
                "the code's dialog again, saying why",
            )
            prompt = await on_screen(pilot, PromptScreen)
            answer = prompt.query_one("#answer", Input)
            assert answer.value == wrong.lower()  # as typed
            await pilot.press("ctrl+u", *code.lower(), "enter")
            await on_screen(pilot, RoomScreen)
            assert "Friends" in screen_text(app)
    finally:
        await host.conn.close()


async def test_a_new_table_refused_says_why_in_its_dialog_and_only_the_latest_reason(
    make_server: StartServer, make_app: Callable[..., SkyjoApp]
) -> None:
    server = await make_server()
    limits = server.config.limits  # the server's bounds, said in our words
    out_of_bounds = (
        f"The turn timer is {limits.turn_timer_min} to {limits.turn_timer_max} seconds here: "
        "change it, or leave it empty for none."
    )
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Walter")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, LobbyScreen)
        await pilot.press("n")
        dialog = await on_screen(pilot, CreateTableScreen)
        error = dialog.query_one("#create-error", Label)
        await pilot.press("ctrl+u", "ctrl+s")  # no name
        await until(pilot, lambda: "Give the table a name." in screen_text(app), "why")
        await pilot.press(*"Tea")
        dialog.query_one("#timer", Input).value = str(limits.turn_timer_min - 1)
        await pilot.press("ctrl+s")
        # In the dialog, not a toast.
        await until(pilot, lambda: drawn_words(app, error) == out_of_bounds, "the server's why")
        assert "Give the table a name." not in screen_text(app)
        assert app.screen is dialog and dialog.query_one("#table-name", Input).value == "Tea"
