"""What a person sees of the app at one moment: the screen's text, the footer's keys,
the focused widget, the prompt line. Journey tests assert on these, step by step.

Everything is read from what Textual drew (the compositor's lines, the footer's
key widgets and where they landed), not from the screens' internals, so a key
the footer cuts off at 80 columns counts as not shown.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, overload

from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input

from skyjo_tui.widgets.footer import KeyFooter
from skyjo_tui.widgets.prompt import PromptLine

if TYPE_CHECKING:
    from ..test_network import Opponent

S = TypeVar("S", bound=Screen[Any])

STEP = 0.02
TIMEOUT = 20.0


def screen_lines(app: App[Any]) -> list[str]:
    """The terminal's rows as the person reads them (notifications included)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]  # noqa: SLF001


def screen_text(app: App[Any]) -> str:
    return "\n".join(screen_lines(app))


def drawn_in(app: App[Any], widget: Widget) -> str:
    """The words drawn in ``widget``'s box (its border left out), its wrapped lines joined."""
    box = widget.region
    lines = screen_lines(app)[box.y : box.bottom]
    return " ".join(" ".join(line[box.x : box.right].strip("│ ") for line in lines).split())


def column_text(app: App[Any], table: Widget, labels: Sequence[str], label: str) -> str:
    """The words drawn under ``label`` in ``table`` (its header ``labels`` in order), each cell's
    lines joined by a space: what a person reads in that column, wrapped or not. A column the
    screen cuts off reads as what is left of it on screen (nothing when its header is gone)."""
    region = table.region
    lines = [line[region.x : region.right] for line in screen_lines(app)[region.y : region.bottom]]
    header = lines[0]
    starts = [header.find(name) for name in labels]
    assert all(start >= 0 for start in starts), f"a header cut: {header!r}"
    index = labels.index(label)
    end = starts[index + 1] if index + 1 < len(labels) else None
    cells = [line[starts[index] : end] for line in lines[1:]]
    return " ".join(" ".join(cells).split())


@dataclass(frozen=True)
class FooterKeys:
    """The footer's keys: those drawn whole on screen, and those it had to cut."""

    shown: tuple[tuple[str, str], ...]  # (key as drawn, description)
    cut: tuple[tuple[str, str], ...]
    settled: bool = True  # False while some key is not laid out yet (just recomposed)

    @property
    def descriptions(self) -> list[str]:
        return [description for _, description in self.shown]

    def has(self, description: str) -> bool:
        return description in self.descriptions


def footer_keys(app: App[Any]) -> FooterKeys:
    width = app.size.width
    shown: list[tuple[str, str]] = []
    cut: list[tuple[str, str]] = []
    settled = True
    for footer in app.screen.query(KeyFooter):
        drawn = footer.drawn
        if drawn is None or not footer.size.width:
            settled = False  # its keys changed and are not painted yet: neither shown nor cut
            continue
        for spot in drawn:
            # A key of a group ("→ ← Move") has no description of its own: its tooltip is it.
            entry = (spot.key.display, spot.key.description or spot.key.tooltip)
            whole = spot.whole and spot.end <= min(width, footer.size.width)
            (shown if whole else cut).append(entry)
    return FooterKeys(tuple(shown), tuple(cut), settled)


async def footer(pilot: Pilot[Any]) -> FooterKeys:
    """The footer's keys once it is laid out (it rebuilds itself when the keys change)."""
    # Settled and not empty: while it rebuilds, the old keys are gone before the new ones mount.
    await until(
        pilot,
        lambda: footer_keys(pilot.app).settled and footer_keys(pilot.app).shown,
        "the footer laid out",
    )
    return footer_keys(pilot.app)


def focused(app: App[Any]) -> str:
    """The focused widget as ``Type#id`` ("nothing" when keys go to the screen)."""
    widget = app.focused
    if widget is None:
        return "nothing"
    assert widget.is_attached, f"the focus is on a removed widget: {widget!r}"
    return f"{type(widget).__name__}#{widget.id}" if widget.id else type(widget).__name__


def in_text_box(app: App[Any]) -> bool:
    return isinstance(app.focused, Input)


def prompt_line(app: App[Any]) -> str:
    """The table's prompt line (or its note), "" where there is none."""
    found = app.screen.query(PromptLine)
    return str(found.first().text) if found else ""


def drawn_words(app: App[Any], widget: Widget) -> str:
    """The words drawn where ``widget`` is on screen, its rows joined by a space: what a
    person reads there, wrapped or cut."""
    region = widget.region
    rows = screen_lines(app)[region.y : region.bottom]
    return " ".join(" ".join(row[region.x : region.right] for row in rows).split())


def prompt_shown(app: App[Any]) -> str:
    """The words drawn in the table's prompt line ("" where there is none): wrapped or cut,
    as read. ``prompt_line`` is what it says."""
    found = app.screen.query(PromptLine)
    return drawn_words(app, found.first()) if found else ""


def notes(app: App[Any]) -> list[str]:
    """The notifications on screen now (Pilot's headless screen does not draw toasts)."""
    return [str(note.message) for note in app._notifications]  # noqa: SLF001


def screen_name(app: App[Any]) -> str:
    return type(app.screen).__name__


async def until(
    pilot: Pilot[Any], condition: Callable[[], Any], what: str, timeout: float = TIMEOUT
) -> None:
    """Let the app run until ``condition()`` holds; fail, saying what was on screen, after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if condition():
                return
        except AssertionError:
            raise
        except Exception:  # noqa: BLE001 - a screen still being built: look again
            pass
        if time.monotonic() > deadline:
            raise AssertionError(
                f"timed out waiting for {what}; notes {notes(pilot.app)}; "
                f"on screen ({screen_name(pilot.app)}):\n" + screen_text(pilot.app)
            )
        await pilot.pause(STEP)


@overload
async def on_screen(pilot: Pilot[Any], screen_type: type[S], timeout: float = TIMEOUT) -> S: ...
@overload
async def on_screen(
    pilot: Pilot[Any], screen_type: tuple[type[Screen[Any]], ...], timeout: float = TIMEOUT
) -> Screen[Any]: ...
async def on_screen(
    pilot: Pilot[Any],
    screen_type: type[Screen[Any]] | tuple[type[Screen[Any]], ...],
    timeout: float = TIMEOUT,
) -> Screen[Any]:
    """Wait until ``screen_type`` is the current screen and its footer is drawn; return it."""
    app = pilot.app
    await until(
        pilot,
        lambda: (
            isinstance(app.screen, screen_type)
            and footer_keys(app).shown
            and footer_keys(app).settled
        ),
        f"the {screen_type} with its footer",
        timeout,
    )
    cut = footer_keys(app).cut
    assert not cut, f"the footer of {screen_name(app)} cuts {cut} at {app.size.width} columns"
    return app.screen


async def play_the_round(pilot: Pilot[Any]) -> Any:
    """Play every move asked of us with the keyboard until the round's summary (or the
    game's end) opens; return that screen."""
    from skyjo_tui.screens.game_over import GameOverScreen
    from skyjo_tui.screens.round_summary import RoundSummaryScreen

    from ..players import KeyboardPlayer, my_move

    app, player, ends = pilot.app, KeyboardPlayer(pilot), (RoundSummaryScreen, GameOverScreen)
    deadline = time.monotonic() + 60
    while not isinstance(app.screen, ends) and time.monotonic() < deadline:
        mine = my_move(app)
        if mine is not None:
            await player.play(mine)
        await pilot.pause(STEP)
    return await on_screen(pilot, ends)


async def a_local_game(pilot: Pilot[Any], end_score: int | None = None) -> Any:
    """From the home screen, a new local game (Enter on its set-up; the game ends at
    ``end_score`` when given); the table, once it asks for the first cards to turn up."""
    from skyjo_tui.screens.home import HomeScreen
    from skyjo_tui.screens.setup import SetupScreen
    from skyjo_tui.screens.table import TableScreen

    await on_screen(pilot, HomeScreen)
    await pilot.press("n")
    setup = await on_screen(pilot, SetupScreen)
    if end_score is not None:
        setup.query_one("#variant-end-score", Input).value = str(end_score)
    await pilot.press("enter")
    table = await on_screen(pilot, TableScreen)
    await until(pilot, lambda: "Turn up" in prompt_line(pilot.app), "the first prompt")
    return table


async def into_the_hosts_room(pilot: Pilot[Any]) -> Any:
    """From the lobby, join the one table listed (a host's, not started): its room."""
    from skyjo_tui.screens.lobby import LobbyScreen
    from skyjo_tui.screens.room import RoomScreen

    app = pilot.app
    await on_screen(pilot, LobbyScreen)
    await until(pilot, lambda: "waiting" in screen_text(app), "the host's table listed")
    await pilot.press("enter")  # join it
    return await on_screen(pilot, RoomScreen)


async def a_hosted_game(pilot: Pilot[Any], host: Opponent) -> Any:
    """From the lobby, join the one table listed (``host``'s, not started), say ready; the
    host starts it; the table, once it asks for the first cards to turn up."""
    from skyjo_tui.screens.table import TableScreen

    app = pilot.app
    await into_the_hosts_room(pilot)
    await pilot.press("r")
    await until(
        pilot,
        lambda: any(s and s["ready"] and not s["host"] for s in host.table.get("seats", [])),
        "ready, as the host sees it",
    )
    await host.conn.request({"type": "start_game"})
    table = await on_screen(pilot, TableScreen)
    await until(pilot, lambda: "Turn up" in prompt_line(app), "the first prompt")
    return table
