"""Journey: the table's log reads back through older lines (PgUp, the mouse wheel) and
back down (PgDn, a click on the note that newer lines are below); while read back, new
lines do not move what is read."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual import events
from textual.pilot import Pilot

from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.line_log import MAX_LINES, LineLog

from ..test_replay import replaying
from .seen import a_local_game, drawn_in, footer, in_text_box, on_screen, play_the_round, until

NEWER = "newer lines below"
OLDEST = "Round 1 begins"


async def say(pilot: Pilot[Any], words: str) -> None:
    """One line in the table's chat (the chat line closes once it is sent)."""
    await pilot.press("c")
    await until(pilot, lambda: in_text_box(pilot.app), "the chat line")
    await pilot.press(*words, "enter")
    await until(pilot, lambda: not in_text_box(pilot.app), "the chat line closed")


async def test_the_log_reads_back_and_down(make_app: Callable[..., SkyjoApp]) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await a_local_game(pilot)
        log = app.screen.query_one("#log", LineLog)
        await play_the_round(pilot)  # every move of the round in the log: more than it shows
        await pilot.press("escape")  # from the round's summary back to the table
        await on_screen(pilot, TableScreen)
        await say(pilot, "newest")
        await until(pilot, lambda: ": newest" in drawn_in(app, log), "the newest line shown")
        assert OLDEST not in drawn_in(app, log) and NEWER not in drawn_in(app, log)
        assert "PgUp" not in " ".join((await footer(pilot)).descriptions)  # Help lists it

        await pilot.press("pageup")
        await until(pilot, lambda: NEWER in drawn_in(app, log), "the note: newer lines below")
        read_back = drawn_in(app, log)
        assert ": newest" not in read_back
        for _ in range(MAX_LINES):  # up to the oldest line, and no further
            if OLDEST in drawn_in(app, log):
                break
            await pilot.press("pageup")
            await pilot.pause()
        assert OLDEST in drawn_in(app, log)
        oldest = drawn_in(app, log)
        await pilot.press("pageup")
        await pilot.pause()
        assert drawn_in(app, log) == oldest

        # A line arriving while reading back leaves what is read where it is.
        before = len(log.lines)
        await say(pilot, "late")
        await until(pilot, lambda: len(log.lines) == before + 1, "the new line in the log")
        assert drawn_in(app, log) == oldest

        # The wheel reads one row at a time; a click on the note goes back to the newest.
        await pilot._post_mouse_events([events.MouseScrollDown], log, offset=(2, 1))  # noqa: SLF001
        await until(pilot, lambda: drawn_in(app, log) != oldest, "a row down by the wheel")
        await pilot.click(log, offset=(2, log.content_size.height - 1))
        await until(pilot, lambda: NEWER not in drawn_in(app, log), "back to the newest")
        assert ": late" in drawn_in(app, log)

        await pilot.press("pageup")
        await until(pilot, lambda: NEWER in drawn_in(app, log), "read back again")
        await pilot.press("pagedown")
        await until(pilot, lambda: NEWER not in drawn_in(app, log), "PgDn: the newest")
        assert ": late" in drawn_in(app, log)


async def test_the_replays_log_reads_back_too(
    make_app: Callable[..., SkyjoApp], tmp_path: Path
) -> None:
    """PgUp and PgDn in a replay, as at the table: back through the log and down again."""
    async with replaying(make_app, tmp_path) as pilot:
        app = pilot.app
        log = app.screen.query_one("#log", LineLog)
        for _ in range(60):  # far into the first round: more lines than the log shows
            await pilot.press("right")
        await until(pilot, lambda: len(log.lines) > log.content_size.height, "a long log")
        await pilot.press("pageup")
        await until(pilot, lambda: NEWER in drawn_in(app, log), "read back")
        await pilot.press("pagedown")
        await until(pilot, lambda: NEWER not in drawn_in(app, log), "PgDn: the newest")
