"""Journeys with the coach: the hint key in a local game, and a server table without hints."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from server.app import SkyjoServer
from server.engine import ActionKind
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.coaching import hint_text
from skyjo_tui.layout import tableau_height
from skyjo_tui.screens.create_table import CreateTableScreen
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.room import RoomScreen
from skyjo_tui.screens.setup import SetupScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.piles import PilesWidget
from skyjo_tui.widgets.prompt import PromptLine
from skyjo_tui.widgets.tableau import TableauWidget
from skyjo_tui.widgets.text import Select

from ..players import KeyboardPlayer, my_move
from .seen import footer, on_screen, prompt_line, prompt_shown, screen_text, until


def own_tableau(table: TableScreen) -> TableauWidget:
    assert table.view is not None
    seat = table.view.seat
    return next(w for w in table.query(TableauWidget) if w.seat == seat)


async def to_our_first_turn(pilot: Pilot[Any], table: TableScreen) -> None:
    """Turn up our two cards with the keyboard, then wait until it is our turn to draw."""
    app, player = pilot.app, KeyboardPlayer(pilot)
    for _ in range(2):
        await until(pilot, lambda: table.choices.flip and not table.acting, "a flip to make")
        mine = my_move(app)
        assert mine is not None
        await player.play(mine)
    await until(
        pilot, lambda: my_move(app) is not None and table.choices.draw, "our turn", timeout=30
    )


async def test_the_hint_key_says_the_best_move_and_marks_its_card(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await on_screen(pilot, HomeScreen)
        await pilot.press("n")
        await on_screen(pilot, SetupScreen)
        await pilot.press("enter")
        table: TableScreen = await on_screen(pilot, TableScreen)
        await until(pilot, lambda: my_move(app) is not None and table.choices.flip, "the flips")
        assert (await footer(pilot)).has("Hint")
        await pilot.press("i")
        await until(
            pilot,
            lambda: prompt_line(app).startswith("Hint: Turn up a card in column"),
            "a flip hint",
        )

        # Flip two cards as the hint says, then ask on our first turn.
        await to_our_first_turn(pilot, table)
        assert (await footer(pilot)).has("Hint")
        await pilot.press("i")
        await until(pilot, lambda: prompt_line(app).startswith("Hint: "), "the hint")
        words = prompt_line(app)
        assert "better than" in words or "about as good as" in words, words
        hint = table._current_hint()  # noqa: SLF001 - which move the words are about
        assert hint is not None
        piles = table.query_one(PilesWidget)
        if hint.move.kind is ActionKind.DRAW:
            assert words.startswith("Hint: Draw a card"), words
            assert "draw" in piles.highlight
        else:
            assert table.view is not None
            assert words.startswith(f"Hint: Take the {table.view.discard_top} and put it on your")
            assert hint.move.pos is not None
            assert f"column {hint.move.pos // 3 + 1}" in words
            assert own_tableau(table).highlight == {hint.move.pos}
            assert "discard" in piles.highlight
        # Taking the discard begins a move: the prompt says what that step asks (and that
        # Esc cancels it), the hint's marks stay; cancelled, the hint is back.
        await pilot.press("t")
        await until(pilot, lambda: prompt_line(app).startswith("Choose the card"), "the step")
        assert "esc" in prompt_line(app).lower()
        if hint.move.kind is not ActionKind.DRAW:
            assert own_tableau(table).highlight == {hint.move.pos}
        await pilot.press("escape")
        await until(pilot, lambda: prompt_line(app) == words, "the hint back")
        # The hint is for this moment: drawing makes it go; with the drawn card, ask again.
        await pilot.press("d")
        await until(pilot, lambda: table.choices.discard_flip, "the drawn card")
        assert not prompt_line(app).startswith("Hint")
        await pilot.press("i")
        await until(pilot, lambda: prompt_line(app).startswith("Hint: "), "the second hint")
        words = prompt_line(app)
        hint = table._current_hint()  # noqa: SLF001
        assert hint is not None and hint.move.pos is not None and table.view is not None
        drawn, column = table.view.drawn_card, f"column {hint.move.pos // 3 + 1}"
        if hint.move.kind is ActionKind.SWAP_DRAWN:
            assert words.startswith(f"Hint: Keep the {drawn} and put it on your"), words
        else:
            assert words.startswith(f"Hint: Discard the {drawn} and turn up a card in"), words
        assert column in words
        assert own_tableau(table).highlight == {hint.move.pos}  # the card is marked


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_hint_longer_than_the_prompt_line_is_read_whole_at_80x24(
    make_app: Callable[..., SkyjoApp], lang: str
) -> None:
    """Two players (the fewest rows to spare at 80x24), a drawn card: the hint's sentence
    is longer than a row; the prompt shows all of it, and every card stays in sight."""
    app = make_app(lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, HomeScreen)
        await pilot.press("n")
        setup: SetupScreen = await on_screen(pilot, SetupScreen)
        setup.query_one("#bot-count", Select).value = 1
        await pilot.press("enter")
        table: TableScreen = await on_screen(pilot, TableScreen)
        await to_our_first_turn(pilot, table)
        await pilot.press("d")
        await until(pilot, lambda: table.choices.discard_flip, "the drawn card")
        await pilot.press("i")
        await until(pilot, lambda: table._current_hint() is not None, "the hint")  # noqa: SLF001
        hint, view = table._current_hint(), table.view  # noqa: SLF001
        assert hint is not None and view is not None
        sentence = hint_text(hint, view, table.tr)
        assert len(sentence) > app.size.width, (
            f"a hint that fits one row proves nothing: {sentence}"
        )
        await until(
            pilot, lambda: prompt_shown(app).split() == sentence.split(), "the whole hint drawn"
        )
        prompt = table.query_one(PromptLine).region
        for tableau in table.query(TableauWidget):
            shown = tableau.region
            assert shown.height >= tableau_height(tableau.card_size), f"seat {tableau.seat} cut"
            assert shown.bottom <= prompt.y, f"seat {tableau.seat} under the prompt"
        keys = await footer(pilot)
        assert keys.shown and not keys.cut


def hints_choice(app: SkyjoApp) -> str:
    """The word the New table form shows after "Hints"."""
    line = next(line for line in screen_text(app).splitlines() if "│ Hints " in line)
    return line.split("Hints")[1].split()[0]


async def test_a_table_without_hints_says_so_and_offers_no_key(
    make_app: Callable[..., SkyjoApp], make_server: Callable
) -> None:
    server: SkyjoServer = await make_server()
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice")
    async with app.run_test(size=(100, 30)) as pilot:
        await on_screen(pilot, LobbyScreen)
        await pilot.press("n")
        await on_screen(pilot, CreateTableScreen)
        # The choices read as the form's others do ("public (listed)", "none"): lower case.
        assert hints_choice(app) == "on"
        # Name, seats, visibility, then hints: open it and choose "off".
        await pilot.press("tab", "tab", "tab", "enter", "down", "enter")
        await until(pilot, lambda: hints_choice(app) == "off", "hints off in the form")
        await pilot.press("ctrl+s")
        room: RoomScreen = await on_screen(pilot, RoomScreen)
        assert room.table["hints"] is False
        await until(pilot, lambda: "no hints" in screen_text(app), "the room's rules")
        await pilot.press("b")
        await until(pilot, lambda: sum(s is not None for s in room.table["seats"]) == 2, "a bot")
        await pilot.press("s")
        table: TableScreen = await on_screen(pilot, TableScreen)
        await until(pilot, lambda: my_move(app) is not None and table.choices.flip, "the flips")
        assert not (await footer(pilot)).has("Hint")
        await pilot.press("i")
        await until(pilot, lambda: "Hints are off at this table" in prompt_line(app), "why not")
