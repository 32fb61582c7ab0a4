"""README's coach: ``python -m tests.client.coach_shot DIR`` writes DIR/hint.svg and DIR/review.svg.

The hint: a local game (its deal seeded as in the journeys), our first turn, a card
drawn, then ``i``. The review: a recorded game (expert against greedy, seed 5, greedy's
seat named Alice), ``r`` in its replay, then ``n``. Turn them into PNGs with
``rsvg-convert DIR/hint.svg -o docs/hint.png`` (and the same for review).
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from server.bots.match import play_game
from server.engine import record_line
from server.lobby import play
from skyjo_tui.app import build_app
from skyjo_tui.screens.table import TableScreen

from .conftest import ZERO_PACE
from .players import KeyboardPlayer, my_move

SIZE = (80, 24)


class _Seeded:
    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def randbits(self, bits: int) -> int:
        return self._random.getrandbits(bits)


async def _until(pilot: Pilot[Any], condition: Callable[[], object], steps: int = 400) -> None:
    for _ in range(steps):  # at most 20 s
        if condition():
            return
        await pilot.pause(0.05)
    raise SystemExit("the app did not get there")


async def shoot_hint(directory: Path) -> None:
    play.secrets = _Seeded(2026)  # type: ignore[assignment]  # the journeys' deal
    data = Path(tempfile.mkdtemp())
    app = build_app(None, lang="en", environ={}, pace="off", data_dir=data, local_pace=ZERO_PACE)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.5)
        await pilot.press("n")
        await pilot.pause(0.5)
        await pilot.press("enter")
        player = KeyboardPlayer(pilot)
        await _until(pilot, lambda: my_move(app) is not None)
        table = app.screen
        assert isinstance(table, TableScreen)
        for _ in range(2):
            await _until(pilot, lambda: my_move(app) is not None and table.choices.flip)
            await player.play(table)
        await _until(pilot, lambda: my_move(app) is not None and table.choices.draw)
        await pilot.press("d")
        await _until(pilot, lambda: table.choices.discard_flip)
        await pilot.press("i")
        await _until(pilot, lambda: table.board.prompt_line.text.startswith("Hint"))
        await pilot.pause(0.3)
        app.save_screenshot("hint.svg", path=str(directory))


async def shoot_review(directory: Path) -> None:
    record = play_game(["expert", "greedy"], seed=5, record=True).record
    assert record is not None
    record["seats"][1] = {"name": "Alice", "bot": None}
    path = Path(tempfile.mkdtemp()) / "games.jsonl"
    path.write_text(record_line(record) + "\n", "utf-8")
    data = Path(tempfile.mkdtemp())
    app = build_app(None, lang="en", environ={}, pace="off", data_dir=data, replay=path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.5)
        await pilot.press("r")
        await _until(
            pilot,
            lambda: (
                "points given away" in str(app.screen.query("#review-summary").first().render())
            ),
        )
        await pilot.press("n")
        await pilot.pause(0.3)
        app.save_screenshot("review.svg", path=str(directory))


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    asyncio.run(shoot_hint(target))
    asyncio.run(shoot_review(target))
