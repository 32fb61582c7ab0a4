"""Journey: a yes/no question is answered with the initial of the language's "yes".

French says "Oui": its dialogs show and take ``o`` (``y`` still answers, unshown, for
fingers used to English); German and Dutch "Ja" take ``j``, Spanish "Sí" and Italian "Sì"
``s``; English keeps ``y``. Each says its "No" with ``n``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.confirm import ConfirmScreen
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.table import TableScreen

from .seen import footer, on_screen
from .test_your_turn import first_prompt


@pytest.mark.parametrize(
    ("lang", "first_words", "yes", "no", "other_yes"),
    [
        ("fr", "Retournez", ("o", "Oui"), ("n", "Non"), "y"),
        ("en", "Turn up", ("y", "Yes"), ("n", "No"), "o"),
        ("de", "Deck eine Karte", ("j", "Ja"), ("n", "Nein"), "y"),
        ("es", "Descubre", ("s", "Sí"), ("n", "No"), "y"),
        ("it", "Scopri", ("s", "Sì"), ("n", "No"), "y"),
        ("nl", "Draai een kaart", ("j", "Ja"), ("n", "Nee"), "y"),
    ],
)
async def test_leaving_asks_with_the_languages_yes_key(
    make_app: Callable[..., SkyjoApp],
    lang: str,
    first_words: str,
    yes: tuple[str, str],
    no: tuple[str, str],
    other_yes: str,
) -> None:
    app = make_app(lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await first_prompt(pilot, first_words)
        await pilot.press("q")
        await on_screen(pilot, ConfirmScreen)
        shown = (await footer(pilot)).shown
        assert yes in shown and no in shown, shown
        assert not any(key == other_yes for key, _ in shown), shown
        await pilot.press("n")  # no: still at the table
        await on_screen(pilot, TableScreen)
        await pilot.press("q")
        await on_screen(pilot, ConfirmScreen)
        await pilot.press(yes[0])  # as the footer says
        await on_screen(pilot, HomeScreen)


async def test_in_french_y_still_says_yes(make_app: Callable[..., SkyjoApp]) -> None:
    """A hidden alias: a player who reaches for English's key is not refused."""
    app = make_app(lang="fr")
    async with app.run_test(size=(80, 24)) as pilot:
        await first_prompt(pilot, "Retournez")
        await pilot.press("q")
        await on_screen(pilot, ConfirmScreen)
        await pilot.press("y")
        await on_screen(pilot, HomeScreen)
