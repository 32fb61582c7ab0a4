"""README's score sheet: ``python -m tests.client.sheet_shot DIR`` writes DIR/score-sheet.svg.

A four-player game between greedy bots (seed 3), fed to the table screen as the
server would send it, to its end; then ``g``: the score sheet at 80x24. Turn it
into docs/score-sheet.png with ``rsvg-convert DIR/score-sheet.svg -o docs/score-sheet.png``.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from skyjo_tui.app import build_app
from skyjo_tui.screens.game_over import GameOverScreen
from skyjo_tui.screens.table import TableScreen

from .conftest import ZERO_PACE
from .scenes import game_pushes, table_map


async def shoot(directory: Path, seed: int = 3) -> None:
    data = Path(tempfile.mkdtemp())
    app = build_app(None, lang="en", environ={}, pace="off", data_dir=data, local_pace=ZERO_PACE)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = TableScreen(table_map(4))
        await app.push_screen(screen)
        for push in game_pushes(4, seed, lambda game, moves: False):
            screen.feed_game(push)
        for _ in range(400):  # at most 20 s
            if isinstance(app.screen, GameOverScreen):
                break
            await pilot.pause(0.05)
        await pilot.press("g")
        await pilot.pause(0.5)
        app.save_screenshot("score-sheet.svg", path=str(directory))


if __name__ == "__main__":
    asyncio.run(shoot(Path(sys.argv[1] if len(sys.argv) > 1 else ".")))
