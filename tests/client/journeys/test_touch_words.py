"""Journey: the app in the page on a touch screen (``SKYJO_TOUCH``) says what to tap: the
table's prompt, and why a tap did nothing, name no key.
"""

from __future__ import annotations

from collections.abc import Callable

from skyjo_tui.app import SkyjoApp
from skyjo_tui.widgets.piles import PilesWidget

from .seen import a_local_game, prompt_line, until

TOUCH_SCREEN = {"SKYJO_IN_PAGE": "1", "SKYJO_TOUCH": "1"}


async def test_a_tap_on_the_pile_before_the_first_flips_says_what_to_tap(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app(environ=TOUCH_SCREEN)
    async with app.run_test(size=(60, 45)) as pilot:
        table = await a_local_game(pilot)
        assert prompt_line(app) == "Turn up a card of your choice: tap it"
        piles = table.query_one(PilesWidget)
        await pilot.click(piles, offset=(2, 2))  # the draw pile
        await until(
            pilot,
            lambda: prompt_line(app) == "First turn up a card: tap one of yours.",
            "why the pile did nothing, in taps",
        )


async def test_a_keyboard_is_told_the_keys(make_app: Callable[..., SkyjoApp]) -> None:
    app = make_app()
    async with app.run_test(size=(60, 45)) as pilot:
        table = await a_local_game(pilot)
        assert "arrows to move" in prompt_line(app)
        await pilot.click(table.query_one(PilesWidget), offset=(2, 2))
        await until(pilot, lambda: "move to it, then" in prompt_line(app), "why, in keys")
