"""Journey: a player whose name is made of wide characters (emoji, CJK: two cells each).

The name line over their cards gives way first, and their scores stay whole:
shortening counts cells, as the terminal draws them, not characters.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from server.app import SkyjoServer
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.results import ResultsTable
from skyjo_tui.widgets.tableau import TableauWidget

from ..test_network import hosting
from .seen import a_hosted_game, a_local_game, play_the_round, screen_text, until


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


LONG_NAME = "Bartholomew Ironside"  # 20 characters, the longest a name may be


async def test_a_long_name_at_the_round_end_leaves_the_totals_whole(
    make_app: Callable[..., SkyjoApp], make_server: Callable
) -> None:
    """Alice plays Bartholomew Ironside's table to its first round's end, at 80 columns:
    the results show every column, the totals too, without scrolling sideways."""
    server: SkyjoServer = await make_server()
    async with hosting(server.port, LONG_NAME) as host:
        app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice")
        async with app.run_test(size=(80, 24)) as pilot:
            await a_hosted_game(pilot, host)
            end = await play_the_round(pilot)
            results = end.query_one(ResultsTable)
            await until(pilot, lambda: results.size.width > 0, "the results laid out")
            assert results.virtual_size.width <= results.size.width, screen_text(app)
            assert "Total" in screen_text(app)
