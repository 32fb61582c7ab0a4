"""``skyjo --replay FILE``: a recorded game, forward, back, and by round."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from server.engine import Game, Seat, Settings, game_record, record_line
from skyjo_tui.app import SkyjoApp
from skyjo_tui.cli import parser
from skyjo_tui.screens.replay import ReplayScreen
from skyjo_tui.widgets.board import TableBoard
from skyjo_tui.widgets.tableau import TableauWidget

from .journeys.seen import footer, on_screen, prompt_line, until
from .players import wait_for
from .scenes import finished_game


def write_record(path: Path, *, tamper: bool = False) -> dict:
    game = finished_game(3, seed=21, settings=Settings(end_score=60))
    record = game_record(game, [Seat("Ann"), Seat("Bot 2", "greedy"), Seat("Bot 3", "greedy")])
    if tamper:
        record["rounds"][0]["moves"][5]["events"][0]["value"] = 99
    path.write_text(record_line(record) + "\n", encoding="utf-8")
    return record


@contextlib.asynccontextmanager
async def replaying(make_app: Callable[..., SkyjoApp], folder: Path) -> AsyncIterator[Pilot[Any]]:
    """``skyjo --replay FILE`` of ``write_record``'s game at 80x24, on its first move."""
    write_record(folder / "games.jsonl")
    app = make_app(replay=folder / "games.jsonl")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, ReplayScreen)
        yield pilot


def status(app: SkyjoApp) -> str:
    return str(app.screen.query_one(TableBoard).query_one("#status").render())


async def test_step_forward_back_and_jump_to_a_round(
    tmp_path: Path, make_app: Callable[..., SkyjoApp]
) -> None:
    record = write_record(tmp_path / "games.jsonl")
    rounds = len(record["rounds"])
    assert rounds >= 2
    app = make_app(replay=tmp_path / "games.jsonl")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.index == 0
        recording = screen.recording
        assert recording is not None
        assert "Round 1" in status(app)
        await pilot.press("right", "l", "space")
        assert screen.index == 3
        await pilot.press("left")
        assert screen.index == 2
        await pilot.press("n")  # next round
        assert (
            recording.frames[screen.index].round == 2 and recording.frames[screen.index].move == 0
        )
        assert "Round 2" in status(app)
        await pilot.press("1")  # straight to round 1
        assert screen.index == 0
        await pilot.press("g")
        await pilot.press(*str(rounds), "enter")
        await wait_for(pilot, lambda: recording.frames[screen.index].round == rounds)
        await pilot.press("end")
        last = recording.frames[screen.index]
        assert last.view.phase == "game_over" and list(last.view.winners) == record["winners"]


async def test_a_tampered_record_is_refused_with_the_reason(
    tmp_path: Path, make_app: Callable[..., SkyjoApp]
) -> None:
    write_record(tmp_path / "bad.jsonl", tamper=True)
    app = make_app(replay=tmp_path / "bad.jsonl")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        text = str(app.screen.query_one("#replay-error").render())
        assert "cannot be replayed" in text and "round 1, move 6" in text


def test_the_command_line_offers_every_way_in() -> None:
    args = parser().parse_args(["--connect", "example.org:7000", "--name", "Zoé", "--lang", "fr"])
    assert (args.connect, args.name, args.lang) == ("example.org:7000", "Zoé", "fr")
    assert parser().parse_args(["--replay", "games.jsonl"]).replay == Path("games.jsonl")
    usage = parser().format_help()
    for option in ("--connect", "--replay", "--name", "--lang", "--data-dir"):
        assert option in usage


def tableau_text(app: SkyjoApp) -> str:
    """The cards of every seat as drawn (not the log, the piles or the status)."""
    return "\n".join(
        line.text
        for widget in app.screen.query(TableauWidget)
        for line in widget.render_lines(widget.region.reset_offset)
    )


def game_in_progress_record(path: Path) -> None:
    """The record of a game stopped in its first round (as a file could hold one)."""
    game = Game(2, Settings(), seed=5)
    for _ in range(8):
        seat = (
            game.current_player
            if game.current_player is not None
            else game.round.pending_flippers()[0]
        )
        game.apply(game.legal_actions(seat)[0])
    record = game_record(game, [Seat("Ann"), Seat("Bob")])
    path.write_text(record_line(record) + "\n", encoding="utf-8")


async def test_a_finished_game_shows_every_card_with_v_shown_in_the_footer(
    tmp_path: Path, make_app: Callable[..., SkyjoApp]
) -> None:
    record = write_record(tmp_path / "games.jsonl")
    dealt = record["rounds"][0]["deal"]["tableaux"][
        0
    ]  # Ann's twelve cards, all face down at the deal
    app = make_app(replay=tmp_path / "games.jsonl")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, ReplayScreen)
        assert (await footer(pilot)).has("Every card")
        assert "░" in tableau_text(app)  # the deal: every card face down
        await pilot.press("v")
        await until(pilot, lambda: "Every card face up" in prompt_line(app), "the cards revealed")
        shown = tableau_text(app)
        assert "░" not in shown and all(str(value) in shown for value in dealt), shown
        await pilot.press("right", "right")  # it stays on from move to move
        assert "░" not in tableau_text(app)
        await pilot.press("v")
        await until(pilot, lambda: "░" in tableau_text(app), "the face-down cards hidden again")
        assert "Every card face up" not in prompt_line(app)


async def test_a_game_in_progress_never_shows_its_face_down_cards(
    tmp_path: Path, make_app: Callable[..., SkyjoApp]
) -> None:
    game_in_progress_record(tmp_path / "live.jsonl")
    app = make_app(replay=tmp_path / "live.jsonl")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, ReplayScreen)
        assert not (await footer(pilot)).has("Every card")
        await pilot.press("v")
        await pilot.pause()
        assert "Every card face up" not in prompt_line(app) and "░" in tableau_text(app)
