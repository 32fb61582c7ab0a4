"""In a real browser (headless Chromium on the browser door's page): someone who sits down
at a finished table that a player left takes a seat for the rematch, never the game over
(the cards, the total, "You") of the one who left."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import BrowserContext

from ..ssh.sshkit import poll_until
from ..ssh.test_openssh_finished_table import dan_leaves_a_finished_game, people
from .browserkit import IN_BROWSER, TermPage
from .webdoor import choose_name, web_door

pytestmark = [*IN_BROWSER, pytest.mark.timeout(240)]


async def test_a_newcomer_at_a_finished_table_in_the_browser_sits_for_the_rematch(
    tmp_path: Path, context: BrowserContext
) -> None:
    """dan left bob's finished table ("2/3 finished"); erin, in the browser, presses Enter
    on it: its room says the game is over and how to ask for a rematch, with her in dan's
    old seat; bob still has dan's name on dan's result. The rematch deals her in."""
    async with (
        web_door(tmp_path) as door,
        people(door.server.port, "bob", "dan") as (bob, dan),
    ):
        await dan_leaves_a_finished_game(bob, dan)
        async with TermPage.open(context, door.url) as page:
            await choose_name(page, "erin")
            await page.shows("2/3")
            await page.press("Enter")
            await page.shows("The game is over")
            await page.press("m")  # the room's rematch key: the server hears it from the room
            await poll_until(lambda: bob.table["rematch"] == [1], "erin asks for a rematch")
            room = page.text  # every push of her arrival came before the rematch's answer
            assert "The game is over" in room and "Game over ·" not in room, room
            assert bob.table["seats"][1]["name"] == "erin"  # in the seat dan left
            assert [seat["name"] for seat in bob.table["game_seats"]] == [
                "bob",
                "dan",
                "Greedy bot 1",
            ]
            await bob.conn.request({"type": "rematch"})
            board = await page.shows("Turn up a card of your choice")
            assert "erin" in board and "dan" not in board, board
