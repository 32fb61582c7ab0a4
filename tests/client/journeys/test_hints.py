"""Journeys with the coach: the hint key in a local game, and a server table without hints."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.color import Color
from textual.pilot import Pilot

from server.app import SkyjoServer
from server.engine import ActionKind
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.coaching import hint_marks, hint_text
from skyjo_tui.i18n import LANGUAGES
from skyjo_tui.layout import tableau_height
from skyjo_tui.screens.create_table import CreateTableScreen
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.room import RoomScreen
from skyjo_tui.screens.setup import SetupScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.theme import THEMES
from skyjo_tui.widgets.piles import PilesWidget
from skyjo_tui.widgets.prompt import PromptLine
from skyjo_tui.widgets.tableau import TableauWidget
from skyjo_tui.widgets.text import Select

from ..contrast import contrast
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


async def against_one_bot(pilot: Pilot[Any]) -> TableScreen:
    """A local game against one bot, at our first turn."""
    await on_screen(pilot, HomeScreen)
    await pilot.press("n")
    setup: SetupScreen = await on_screen(pilot, SetupScreen)
    setup.query_one("#bot-count", Select).value = 1
    await pilot.press("enter")
    table: TableScreen = await on_screen(pilot, TableScreen)
    await to_our_first_turn(pilot, table)
    return table


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
        hint = table.controller.current_hint()  # which move the words are about
        assert hint is not None
        piles = table.query_one(PilesWidget)
        if hint.move.kind is ActionKind.DRAW:
            assert words.startswith("Hint: Draw a card"), words
            assert "draw" in piles.hint
        else:
            assert table.view is not None
            assert words.startswith(f"Hint: Take the {table.view.discard_top} and put it on your")
            assert hint.move.pos is not None
            assert f"column {hint.move.pos // 3 + 1}" in words
            assert own_tableau(table).hint == {hint.move.pos}
            assert "discard" in piles.hint
        # Taking the discard begins a move: the prompt says what that step asks (and that
        # Esc cancels it), the hint's marks stay; cancelled, the hint is back.
        await pilot.press("t")
        await until(pilot, lambda: prompt_line(app).startswith("Choose the card"), "the step")
        assert "esc" in prompt_line(app).lower()
        if hint.move.kind is not ActionKind.DRAW:
            assert own_tableau(table).hint == {hint.move.pos}
        await pilot.press("escape")
        await until(pilot, lambda: prompt_line(app) == words, "the hint back")
        # The hint is for this moment: drawing makes it go; with the drawn card, ask again.
        await pilot.press("d")
        await until(pilot, lambda: table.choices.discard_flip, "the drawn card")
        assert not prompt_line(app).startswith("Hint")
        await pilot.press("i")
        await until(pilot, lambda: prompt_line(app).startswith("Hint: "), "the second hint")
        words = prompt_line(app)
        hint = table.controller.current_hint()
        assert hint is not None and hint.move.pos is not None and table.view is not None
        drawn, column = table.view.drawn_card, f"column {hint.move.pos // 3 + 1}"
        if hint.move.kind is ActionKind.SWAP_DRAWN:
            assert words.startswith(f"Hint: Keep the {drawn} and put it on your"), words
        else:
            assert words.startswith(f"Hint: Discard the {drawn} and turn up a card in"), words
        assert column in words
        assert own_tableau(table).hint == {hint.move.pos}  # the card is marked


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_a_hint_longer_than_the_prompt_line_is_read_whole_at_80x24(
    make_app: Callable[..., SkyjoApp], lang: str
) -> None:
    """Two players (the fewest rows to spare at 80x24), a drawn card: the hint's sentence
    is longer than a row; the prompt shows all of it, and every card stays in sight."""
    app = make_app(lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await against_one_bot(pilot)
        await pilot.press("d")
        await until(pilot, lambda: table.choices.discard_flip, "the drawn card")
        await pilot.press("i")
        await until(pilot, lambda: table.controller.current_hint() is not None, "the hint")
        hint, view = table.controller.current_hint(), table.view
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
    for line in screen_text(app).splitlines():
        # The row's label, after the dialog's frame (and the "▶" while the row is focused).
        words = line.partition("│")[2].replace("▶", "").split()
        if words[:1] == ["Hints"]:
            return words[1]
    raise AssertionError("no Hints row on screen:\n" + screen_text(app))


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


def cell_at(app: SkyjoApp, x: int, y: int) -> tuple[str, Color, Color]:
    """The glyph drawn at (x, y) of the screen, and its colours, as the terminal gets them
    (through the app's line filters: without colour, the monochrome one)."""
    background = Color.parse(app.current_theme.background or "#000000")
    strip = app.screen._compositor.render_strips()[y]  # noqa: SLF001
    for line_filter in app.get_line_filters():
        strip = strip.apply_filter(line_filter, background)
    left = 0
    for segment in strip:
        if left + segment.cell_length > x:
            style = segment.style
            assert style is not None and style.color is not None and style.bgcolor is not None
            fg, bg = Color.from_rich_color(style.color), Color.from_rich_color(style.bgcolor)
            return segment.text[x - left], fg, bg
        left += segment.cell_length
    raise AssertionError(f"nothing drawn at {x}, {y}")


def card_corner(app: SkyjoApp, tableau: TableauWidget, pos: int) -> tuple[str, Color, Color]:
    """The top left cell of the card at ``pos`` of ``tableau``: its frame."""
    card, region = tableau.card_size, tableau.content_region
    column, row = divmod(pos, 3)
    x = region.x + tableau._block()[0] + 1 + column * (card.width + card.gap)  # noqa: SLF001
    assert tableau.pos_at(x - region.x, 1 + row * card.height) == pos
    return cell_at(app, x, region.y + 1 + row * card.height)


def pile_corner(app: SkyjoApp, piles: PilesWidget, pile: str) -> tuple[str, Color, Color]:
    card, region = piles.card_size, piles.content_region
    x = 1 if pile == "draw" else card.width + 4
    assert piles.pile_at(x, 1) == pile
    return cell_at(app, region.x + x, region.y + 1)


@pytest.mark.parametrize("no_color", [False, True])
async def test_the_hints_mark_looks_unlike_the_last_moves(
    make_app: Callable[..., SkyjoApp], no_color: bool
) -> None:
    """The bot's move just changed some cards (a double pink frame) and the hint marks
    others: the two frames are drawn differently, in shape and (with colour) in colour,
    on every theme, and without colour by their shape alone."""
    app = make_app(environ={"NO_COLOR": "1"} if no_color else {})
    async with app.run_test(size=(100, 30)) as pilot:
        table = await against_one_bot(pilot)
        # Play one turn (draw, then keep or discard it): then the bot has moved since.
        player = KeyboardPlayer(pilot)
        await player.play(table)
        await until(pilot, lambda: my_move(app) is not None, "the drawn card")
        await player.play(table)
        await until(
            pilot,
            lambda: my_move(app) is not None and table.choices.draw and not table.acting,
            "our second turn",
            timeout=30,
        )
        bot = next(w for w in table.query(TableauWidget) if w.seat != own_tableau(table).seat)
        await pilot.press("i")
        await until(pilot, lambda: table.controller.current_hint() is not None, "the hint")
        await pilot.pause()
        hint, view = table.controller.current_hint(), table.view
        assert hint is not None and view is not None
        cards, pile_marks = hint_marks(hint.move, view)  # what the hint marks
        assert cards or pile_marks
        piles, own = table.query_one(PilesWidget), own_tableau(table)
        removed = view.tableaux[bot.seat].removed_columns  # the bot's move may clear one
        changed = [pos for pos in bot.highlight if pos // 3 not in removed]
        changed_piles = piles.highlight - pile_marks
        assert changed or changed_piles, "the bot's move is marked, apart from the hint"
        plain = next(
            pos for pos in range(12) if pos // 3 not in removed and pos not in bot.highlight
        )
        for theme in THEMES:
            app.theme = theme
            await pilot.pause()
            last_move = [card_corner(app, bot, pos) for pos in changed]
            last_move += [pile_corner(app, piles, pile) for pile in changed_piles]
            marked = [pile_corner(app, piles, pile) for pile in pile_marks]
            marked += [card_corner(app, own, pos) for pos in cards]
            frames = {corner[0] for corner in last_move} | {card_corner(app, bot, plain)[0]}
            assert frames <= set("╔┌"), frames  # the last move's double frame, a plain one
            for mark in marked:
                # Its frame is neither the last move's nor a plain card's: by its shape
                # alone, and by its colour too where there is colour.
                assert mark[0] not in frames, (theme, mark, last_move)
                assert contrast(mark[1], mark[2]) >= 3, (theme, mark)  # a frame one sees
                if not no_color:
                    assert all(mark[1] != moved[1] for moved in last_move), (theme, mark)
