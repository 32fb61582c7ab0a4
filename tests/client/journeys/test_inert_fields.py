"""Journey: a field filled from outside shows a terminal's controls inert.

``skyjo --connect H:P --name $'\\e]0;pwned\\a\\e[31mRed'``: the server refuses the name, and
the name screen gives it back in its field to be put right. That field wrote the escapes
to the terminal as they were: its title became "pwned", "Red" was red, and the dialog's
border was broken. Now every field shows each such character as U+FFFD and a line break or
tab as a space, as the chat shows a line: whatever filled it (``--name``, the settings
file, a refusal), nothing it shows acts on the terminal; nor does an address given on
the command line, shown as the server's name.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.app import App
from textual.widgets import Input

from server.printable import forbidden
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.preferences import FILE_NAME
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.name import NameScreen
from skyjo_tui.screens.settings import SettingsScreen

from ...support_server import StartServer
from .seen import drawn_words, on_screen, screen_text, until

HOSTILE = "\x1b]0;pwned\x07\x1b[31mRed"
SHOWN = "\ufffd]0;pwned\ufffd\ufffd[31mRed"
UNPRINTABLE = (
    "That name holds a character that cannot be shown (a control or invisible one): choose another."
)


def terminal_controls(app: App[Any]) -> list[str]:
    """Every character that would act on the terminal in what the app draws now (the
    compositor's lines, as a driver writes them out), as ``U+XXXX`` at its row."""
    found = []
    for row, strip in enumerate(app.screen._compositor.render_strips()):  # noqa: SLF001
        for segment in strip:
            if segment.control:
                continue  # the driver's own cursor moves, not text
            found += [f"row {row}: U+{ord(c):04X}" for c in segment.text if forbidden(c)]
    return found


def rows_whole(app: App[Any]) -> bool:
    """Every row drawn is as wide as the terminal (no character drawn as nothing)."""
    strips = app.screen._compositor.render_strips()  # noqa: SLF001
    return all(strip.cell_length == app.size.width for strip in strips)


def test_the_check_sees_a_control() -> None:
    assert all(forbidden(c) for c in "\x1b\x07") and not any(forbidden(c) for c in SHOWN)


async def test_a_refused_name_is_shown_inert_in_its_field(
    make_server: StartServer, make_app: Callable[..., SkyjoApp]
) -> None:
    server = await make_server()
    app = make_app(tcp_connector("127.0.0.1", server.port), name=HOSTILE)
    async with app.run_test(size=(80, 24)) as pilot:
        asked = await on_screen(pilot, NameScreen)
        await until(
            pilot,
            lambda: drawn_words(app, asked.query_one(".error")) == UNPRINTABLE,
            "why the name was refused",
        )
        field = asked.query_one("#answer", Input)
        assert field.value == SHOWN
        assert SHOWN in drawn_words(app, field)
        assert terminal_controls(app) == [] and rows_whole(app)
        await pilot.press("end", *["backspace"] * len(SHOWN), *"Red", "enter")
        await on_screen(pilot, LobbyScreen)
        assert app.session is not None and app.session.welcome is not None
        assert app.session.welcome.name == "Red"


async def test_a_name_from_the_settings_file_is_shown_inert(
    make_app: Callable[..., SkyjoApp], tmp_path: Path
) -> None:
    data = tmp_path / "client"
    data.mkdir()
    (data / FILE_NAME).write_text(json.dumps({"name": HOSTILE + "\tx\ny"}), "utf-8")
    app = make_app(data_dir=data)
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, HomeScreen)
        await pilot.press("o")
        settings = await on_screen(pilot, SettingsScreen)
        field = settings.query_one("#name", Input)
        await until(pilot, lambda: field.value == SHOWN + " x y", "the name shown inert")
        assert terminal_controls(app) == [] and rows_whole(app)


async def test_an_address_given_on_the_command_line_is_shown_inert(
    make_server: StartServer, make_app: Callable[..., SkyjoApp]
) -> None:
    """``skyjo --connect`` with a terminal's controls in the host: the lobby's title names
    the server as it was given, its controls inert."""
    server = await make_server()
    label = f"{HOSTILE}:{server.port}"
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Red", server_label=label)
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, LobbyScreen)
        await until(pilot, lambda: f"{SHOWN}:{server.port}" in screen_text(app), "the address")
        assert terminal_controls(app) == [] and rows_whole(app)
