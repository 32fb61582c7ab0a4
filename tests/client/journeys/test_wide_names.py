"""Journey: a player whose name is made of wide characters (emoji, CJK: two cells each).

The name line over their cards gives way first, and their scores stay whole:
shortening counts cells, as the terminal draws them, not characters.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.tableau import TableauWidget

from .seen import a_local_game


def drawn_name_line(app: SkyjoApp, table: TableScreen) -> str:
    """The first line of our own tableau, as the terminal shows it."""
    assert table.view is not None
    own = next(w for w in table.query(TableauWidget) if w.seat == table.view.seat)
    region = own.region
    strips = app.screen._compositor.render_strips()  # noqa: SLF001
    return strips[region.y].crop(region.x, region.right).text


async def test_a_name_of_wide_characters_leaves_the_scores_whole(
    make_app: Callable[..., SkyjoApp], tmp_path: Path
) -> None:
    for index, name in enumerate(("🎉" * 10, "雪山" * 5 + "abcdefghij")):
        app = make_app(environ={"USER": name}, data_dir=tmp_path / f"player-{index}")
        async with app.run_test(size=(80, 24)) as pilot:
            table = await a_local_game(pilot)
            line = drawn_name_line(app, table)
            assert line.rstrip().endswith(("· Σ0", "· total 0")), line
            assert "…" in line, line  # the name gave way, not the total
