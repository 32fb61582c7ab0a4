"""Journey: the app in the page on a touch screen (``SKYJO_TOUCH``) says what to tap: the
table's prompt, why a tap did nothing, the replay and its review, the too-small screen and
Help name no key.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.widgets import Markdown

from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.help import HelpScreen
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.replay import ReplayScreen
from skyjo_tui.screens.too_small import TooSmallScreen
from skyjo_tui.widgets.piles import PilesWidget

from .seen import a_local_game, on_screen, prompt_line, screen_lines, screen_text, until
from .test_review import a_record_with_alice, the_review_from_the_replay

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


async def test_the_replay_and_its_review_say_what_to_tap(
    make_app: Callable[..., SkyjoApp], tmp_path: Path
) -> None:
    """A finished game seen again on a phone: the replay's line names the footer's Move and
    Round, the review's lines its Next player and Next costly move, and none names a key."""
    path, _ = a_record_with_alice(tmp_path)
    app = make_app(replay=path, environ=TOUCH_SCREEN)
    async with app.run_test(size=(120, 30)) as pilot:
        await on_screen(pilot, ReplayScreen)
        replay = "Replay: tap Move to step through the moves, Round to jump by round."
        await until(pilot, lambda: prompt_line(app) == replay, "the replay's line in taps")
        await the_review_from_the_replay(pilot)
        text = screen_text(app)
        assert "Players (tap Next player for the next):" in text, text
        assert "Tap a move, then again, to see it in the replay, or tap Next costly" in text
        assert "Enter" not in text, text


async def test_the_too_small_screen_offers_a_finger_its_way_out(
    make_app: Callable[..., SkyjoApp],
) -> None:
    """A phone held so the game does not fit: no window to make larger, no q to press."""
    app = make_app(environ=TOUCH_SCREEN)
    async with app.run_test(size=(40, 12)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TooSmallScreen), "the too-small screen")
        text = " ".join(" ".join(screen_lines(app)).replace("│", " ").split())  # words, unwrapped
        assert "The game does not fit: 40×12 characters." in text, text
        assert "Turn the phone" in text, text
        assert "Make the window larger" not in text and "(q)" not in text, text
        assert "Quit" in text, text


async def test_help_on_a_phone_says_what_to_tap_before_the_keys(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app(environ=TOUCH_SCREEN)
    async with app.run_test(size=(80, 40)) as pilot:
        await on_screen(pilot, HomeScreen)
        await pilot.press("question_mark")
        help_screen = await on_screen(pilot, HelpScreen)
        text = help_screen.query_one(Markdown).source
        taps = text.index("On a touch screen: tap the draw pile to draw")
        assert taps < text.index("Keys at the table"), text
