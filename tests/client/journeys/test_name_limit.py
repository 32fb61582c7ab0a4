"""Journey: a name typed in Settings and in Join takes as many characters as a server takes
by default, and no more. The limit has one owner (``server.protocol.DEFAULT_NAME_MAX_LENGTH``):
the fields, the login name a local game goes by, the server's default and the protocol's
documentation all follow it (the fields had their own 20 written in).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input

from server.config import Limits
from server.protocol import DEFAULT_NAME_MAX_LENGTH
from skyjo_tui.app import SkyjoApp
from skyjo_tui.i18n import Translator
from skyjo_tui.local_game import default_name
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.join import JoinScreen
from skyjo_tui.screens.settings import SettingsScreen

from .seen import drawn_words, focused, footer, on_screen

#: Longer than any limit a test may set: the fields cut it.
TYPED = "Bartholomew-Maximilian-the-Extraordinarily-Long-Named-One"
LIMIT = DEFAULT_NAME_MAX_LENGTH
PROTOCOL_DOC = Path(__file__).parents[3] / "docs" / "protocol.md"


async def type_a_long_name(pilot: Pilot[Any]) -> Input:
    """Type far more than the limit into the focused name field; it keeps the first ``LIMIT``
    characters, drawn whole."""
    app = pilot.app
    field = app.screen.query_one("#name", Input)
    assert app.focused is field, focused(app)
    assert field.max_length == LIMIT
    await pilot.press("ctrl+u", *TYPED[: LIMIT - 1])
    assert field.value == TYPED[: LIMIT - 1]  # one short of the limit: taken
    await pilot.press(TYPED[LIMIT - 1])
    assert field.value == TYPED[:LIMIT]  # exactly the limit: taken
    await pilot.press(*TYPED[LIMIT:])
    assert field.value == TYPED[:LIMIT]  # past it: nothing more
    assert TYPED[:LIMIT] in drawn_words(app, field)
    return field


@pytest.mark.parametrize(
    ("key", "screen", "tabs"), [("o", SettingsScreen, 0), ("j", JoinScreen, 1)]
)
async def test_a_name_field_takes_as_many_characters_as_a_server_takes(
    make_app: Callable[..., SkyjoApp], key: str, screen: type[Screen[Any]], tabs: int
) -> None:
    """Settings opens with the keyboard in its name field; Join in the address, then Tab."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, HomeScreen)
        await pilot.press(key)
        await on_screen(pilot, screen)
        await pilot.press(*["tab"] * tabs)
        await type_a_long_name(pilot)
        assert (await footer(pilot)).has("Back")
        if screen is SettingsScreen:  # saved, and there whole when Settings opens again
            await pilot.press("ctrl+s")
            await on_screen(pilot, HomeScreen)
            assert app.prefs.name == TYPED[:LIMIT]
            await pilot.press("o")
            await on_screen(pilot, SettingsScreen)
            assert app.screen.query_one("#name", Input).value == TYPED[:LIMIT]


def test_every_default_name_limit_is_the_protocols() -> None:
    assert Limits().name_max_length == LIMIT  # what a server takes unless set otherwise
    tr = Translator("en")
    at_limit, over = "a" * LIMIT, "b" * (LIMIT + 1)
    assert default_name({"USER": at_limit}, tr) == "A" + at_limit[1:]
    assert default_name({"USER": over}, tr) == "Player"  # a server would refuse it
    assert f"`limits.name_max_length` characters ({LIMIT} unless" in PROTOCOL_DOC.read_text()
