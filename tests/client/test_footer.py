"""The footer: the screen's keys on the bottom line, pressed by a click as by the keyboard."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.settings import SettingsScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.footer import DrawnKey, KeyFooter

from .journeys.seen import footer, footer_keys, on_screen, screen_lines, until
from .scenes import game_pushes, moves, table_map


def spot(app: App[Any], description: str) -> DrawnKey:
    (drawn,) = [
        s for s in app.screen.query_one(KeyFooter).drawn or () if s.key.description == description
    ]
    return drawn


async def test_a_click_on_a_key_of_the_footer_presses_it(make_app: Callable[..., SkyjoApp]) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, HomeScreen)
        settings = spot(app, "Settings")
        assert screen_lines(app)[-1][settings.start : settings.end].strip() == "o Settings"
        await pilot.click(KeyFooter, offset=(settings.start + 1, 0))
        await on_screen(pilot, SettingsScreen)


async def test_a_narrow_footer_gives_up_the_palette_key_then_keys_before_help_and_quit(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, HomeScreen)
        wide = await footer(pilot)
        assert wide.descriptions[-1] == "Commands" and not wide.cut
        assert screen_lines(app)[-1].rstrip().endswith("^p Commands")
        await pilot.resize_terminal(64, 24)  # room for the home screen's keys, not Ctrl+P's
        await until(pilot, lambda: "Commands" not in footer_keys(app).descriptions, "at 64")
        assert (await footer(pilot)).shown == wide.shown[:-1]
        await pilot.resize_terminal(60, 24)
        await until(pilot, lambda: not footer_keys(app).has("Settings"), "keys left out at 60")
        narrow = await footer(pilot)
        # The first keys that fit, "…" for those left out (Help lists them), Help and Quit:
        # none cut at the edge (Quit was).
        assert not narrow.cut and narrow.shown[-2:] == wide.shown[-3:-1]  # Help, Quit
        assert narrow.shown[:-2] == wide.shown[: len(narrow.shown) - 2]
        assert "Stats  …  ? Help  q Quit" in screen_lines(app)[-1]


async def test_the_home_keys_fit_80_columns_in_french(make_app: Callable[..., SkyjoApp]) -> None:
    """French words are longer: the palette's key gives way to Quit (it hid it)."""
    app = make_app(lang="fr")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, HomeScreen)  # which fails on any key cut
        keys = await footer(pilot)
        assert keys.descriptions[-1] == "Quitter" and "Commandes" not in keys.descriptions


class KeysApp(App[None]):
    """Two keys, one of them unavailable now (shown dimmed), and a group of two."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("a", "add", "Add"),
        Binding("b", "remove", "Remove"),
        Binding("left", "move(-1)", "Back", group=Binding.Group("Move")),
        Binding("right", "move(1)", "On", group=Binding.Group("Move")),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.added = 0
        self.moved = 0

    def compose(self) -> ComposeResult:
        yield Static("keys")
        yield KeyFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "remove" else True  # None: shown, not available

    def action_add(self) -> None:
        self.added += 1

    def action_remove(self) -> None:
        raise AssertionError("an unavailable key was pressed")

    def action_move(self, by: int) -> None:
        self.moved += by


async def test_a_key_not_available_is_dimmed_and_its_click_only_rings_the_bell() -> None:
    app = KeysApp()
    bells: list[bool] = []
    app.bell = lambda: bells.append(True)  # type: ignore[method-assign]
    async with app.run_test(size=(60, 5)) as pilot:
        await until(pilot, lambda: app.query_one(KeyFooter).drawn, "the footer drawn")
        assert screen_lines(app)[-1].rstrip() == " a Add  b Remove  ← → Move"
        line = app.screen._compositor.render_strips()[-1]  # noqa: SLF001
        styles = {segment.text.strip(): segment.style for segment in line if segment.text.strip()}
        # Dimmed: Textual draws a dim key in a colour faded towards its background.
        assert styles["b"] is not None and styles["a"] is not None
        assert styles["b"].color != styles["a"].color and styles["b"].bold
        add, remove = spot(app, "Add"), spot(app, "Remove")
        await pilot.click(KeyFooter, offset=(add.start, 0))
        await pilot.click(KeyFooter, offset=(remove.start + 1, 0))
        right = next(s for s in app.query_one(KeyFooter).drawn or () if s.key.display == "→")
        assert right.key.tooltip == "On"  # a group's key says what it does when pointed at
        await pilot.click(KeyFooter, offset=(right.start, 0))
        await pilot.pause()
        assert (app.added, app.moved, bells) == (1, 1, [True])


class GroupsApp(App[None]):
    """Two groups of two keys: one named "this/that" (Draw/take), one by one word (Move)."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("d", "play('draw')", "Draw", group=Binding.Group("Draw/take")),
        Binding("t", "play('take')", "Take", group=Binding.Group("Draw/take")),
        Binding("left", "play('back')", "Back", group=Binding.Group("Move")),
        Binding("right", "play('on')", "On", group=Binding.Group("Move")),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.played: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static("groups")
        yield KeyFooter()

    def action_play(self, what: str) -> None:
        self.played.append(what)


class TouchGroupsApp(GroupsApp):
    """The same keys, on a touch screen: the footer draws their words alone (a phone has
    no "d" or "esc" to press)."""

    touch = True


@pytest.mark.parametrize(
    ("app_class", "drawn"),
    [(GroupsApp, " d t Draw/take  ← → Move"), (TouchGroupsApp, " Draw/take  Move")],
    ids=["keyboard", "touch-screen"],
)
async def test_a_tap_on_a_group_s_words_presses_the_key_they_name(
    app_class: type[GroupsApp], drawn: str
) -> None:
    """A finger hits "Draw" more surely than "d": each stretch of a group's name presses
    one of its keys ("Draw" d, "take" t; a one-word name in halves, in the keys' order)."""
    app = app_class()
    async with app.run_test(size=(60, 5)) as pilot:
        await until(pilot, lambda: app.query_one(KeyFooter).drawn, "the footer drawn")
        line = screen_lines(app)[-1]
        assert line.rstrip() == drawn
        for word in ("Draw", "take", "Mo", "ve"):
            await pilot.click(KeyFooter, offset=(line.index(word) + len(word) // 2, 0))
            await pilot.pause()
        assert app.played == ["draw", "take", "back", "on"]


async def test_on_a_phone_the_tables_keys_all_fit_as_words(
    make_app: Callable[..., SkyjoApp],
) -> None:
    """60 columns, a phone upright, a card drawn: the table's keys as words leave none out
    (with the keys drawn, "…" stood for Hint)."""
    app = make_app(environ={"SKYJO_IN_PAGE": "1", "SKYJO_TOUCH": "1"})
    async with app.run_test(size=(60, 49)) as pilot:
        screen = TableScreen(table_map(2, server_bot_names=True))
        await app.push_screen(screen)
        for push in game_pushes(2, 1, moves(6)):
            screen.feed_game(push)
        await until(pilot, lambda: footer_keys(app).has("Discard"), "a drawn card's keys")
        keys = await footer(pilot)
        assert not keys.cut and "…" not in screen_lines(app)[-1]
        assert {"Choose", "Discard", "Hint", "Help", "Leave"} <= set(keys.descriptions)
        assert "q Leave" not in screen_lines(app)[-1]
