"""Journey: a name longer than the server takes. A real server on 127.0.0.1 and the app
under Pilot, connecting with ``--name`` far over the limit.

Before, the name screen read "That name cannot be used on this server: choose another
(printable characters, no two spaces in a row)": not why (its length), nor the limit. And
the field, which takes at most 20 characters, held the 57 given: Textual's field refuses
any edit leaving it over its limit, Backspace included, so typing and Backspace did nothing
(as if the keyboard had left the field) until Tab went all the way round to it, selecting
it all. Now the refusal says the name is too long and the server's own limit (a server
taking 12 says 12), the keyboard stays in the field, Backspace cuts the name down, the
field takes nothing past the limit, and the name cut down gets in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input

from server.protocol import DEFAULT_NAME_MAX_LENGTH
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.name import NameScreen

from ...support_server import StartServer
from ..conftest import TEST_LIMITS
from ..hostile import Mischief
from .seen import drawn_words, focused, in_text_box, on_screen, screen_text, until
from .test_refusals_in_our_words import NAME_TAKEN

LONG = "Bartholomew-Maximilian-the-Extraordinarily-Long-Named-One"
#: What the person reads, by language, for a server taking ``limit`` characters.
TOO_LONG = {
    "en": "That name is too long: this server takes at most {limit} characters.",
    "fr": "Ce nom est trop long : ce serveur accepte au plus {limit} caractères.",
}
PLACEHOLDER = {"en": "1 to {limit} characters", "fr": "de 1 à {limit} caractères"}


def in_the_field(app: App[Any]) -> bool:
    """The keyboard is in the name field (typing goes there)."""
    return in_text_box(app) and focused(app).endswith("#answer")


def the_field(pilot: Pilot[Any]) -> Input:
    return pilot.app.screen.query_one("#answer", Input)


async def saying(pilot: Pilot[Any], words: str, before: Screen[Any] | None = None) -> NameScreen:
    """The name screen (another than ``before``), its error line ``words``."""
    app = pilot.app
    await until(
        pilot,
        lambda: (
            isinstance(app.screen, NameScreen)
            and app.screen is not before
            and drawn_words(app, app.screen.query_one(".error")) == words
        ),
        f"the name screen saying {words!r}",
    )
    asked = await on_screen(pilot, NameScreen)
    assert in_the_field(app), focused(app)
    return asked


@pytest.mark.parametrize(
    ("lang", "limit"),
    [("en", DEFAULT_NAME_MAX_LENGTH), ("fr", DEFAULT_NAME_MAX_LENGTH), ("en", 12)],
)
async def test_a_name_too_long_is_said_so_with_the_limit_and_cut_down_in_the_field(
    make_server: StartServer, make_app: Callable[..., SkyjoApp], lang: str, limit: int
) -> None:
    server = await make_server(limits=replace(TEST_LIMITS, name_max_length=limit))
    app = make_app(tcp_connector("127.0.0.1", server.port), name=LONG, lang=lang)
    why = TOO_LONG[lang].format(limit=limit)
    async with app.run_test(size=(80, 24)) as pilot:
        first = await saying(pilot, why)
        assert the_field(pilot).value == LONG  # as given, to be edited
        await pilot.press("enter")  # the same name again: the same refusal, the field as it was
        await saying(pilot, why, before=first)
        field = the_field(pilot)
        assert field.value == LONG
        await pilot.press("end", "backspace")  # no selection: one character goes
        assert field.value == LONG[:-1] and in_the_field(app)
        await pilot.press("z")  # still over the limit: nothing added
        assert field.value == LONG[:-1]
        await pilot.press(*["backspace"] * (len(LONG) - 1 - limit))
        assert field.value == LONG[:limit]
        assert f"▊ {LONG[:limit]} ▎" in drawn_words(app, field)  # it fits, whole
        await pilot.press("z")  # at the limit: the field takes no more
        assert field.value == LONG[:limit]
        await pilot.press("backspace", "z")
        chosen = LONG[: limit - 1] + "z"
        assert field.value == chosen and in_the_field(app)
        await pilot.press("enter")
        await on_screen(pilot, LobbyScreen)
        assert app.session is not None and app.session.welcome is not None
        assert app.session.welcome.name == chosen


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_server_asking_for_a_name_gets_a_field_as_long_as_it_takes(
    make_server: StartServer, make_app: Callable[..., SkyjoApp], lang: str
) -> None:
    """No name given: the server's welcome asks for one and says its limit (12 here): the
    field says it and takes no more; a name someone has keeps that limit on the next try."""
    server = await make_server(limits=replace(TEST_LIMITS, name_max_length=12))
    hana = await Mischief.arrive(server.port, "Hana")
    try:
        app = make_app(tcp_connector("127.0.0.1", server.port), lang=lang)
        async with app.run_test(size=(80, 24)) as pilot:
            first = await on_screen(pilot, NameScreen)
            await until(pilot, lambda: in_the_field(app), "the keyboard in the name field")
            await pilot.press("ctrl+u")  # whatever the field was given: empty, its placeholder
            placeholder = PLACEHOLDER[lang].format(limit=12)
            await until(pilot, lambda: placeholder in screen_text(app), "the limit said")
            await pilot.press(*"Hana", "enter")
            await saying(pilot, NAME_TAKEN[lang], before=first)
            await pilot.press("ctrl+u", *LONG)
            assert the_field(pilot).value == LONG[:12]
            await pilot.press("enter")
            await on_screen(pilot, LobbyScreen)
            assert app.session is not None and app.session.welcome is not None
            assert app.session.welcome.name == LONG[:12]
    finally:
        await hana.leave()
