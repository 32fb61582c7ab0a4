"""Screens a player reaches from home: settings (French), help, and colour choices."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Button, Markdown, OptionList, Select

from skyjo_tui import preferences
from skyjo_tui.app import SkyjoApp
from skyjo_tui.i18n import LANGUAGES
from skyjo_tui.preferences import Preferences
from skyjo_tui.screens.game_over import GameOverScreen
from skyjo_tui.screens.help import HelpScreen
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.settings import SettingsScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.card_art import value_colours
from skyjo_tui.widgets.line_log import LineLog
from skyjo_tui.widgets.piles import PilesWidget
from skyjo_tui.widgets.results import ResultsTable
from skyjo_tui.widgets.score_chart import ScoreChart
from skyjo_tui.widgets.sheet_table import SheetTable
from skyjo_tui.widgets.tableau import TableauWidget

from .journeys.seen import drawn_words, screen_lines
from .players import wait_for
from .scenes import game_pushes, moves, table_map


def menu_text(app: SkyjoApp) -> str:
    menu = app.screen.query_one("#menu", OptionList)
    return " ".join(str(menu.get_option_at_index(i).prompt) for i in range(menu.option_count))


SETTING_NAMES = (
    "settings.name",
    "settings.language",
    "settings.pace",
    "settings.highlight",
    "settings.theme",
    "settings.turn_title",
    "settings.turn_bell",
)


async def test_settings_switch_to_french_and_are_kept(make_app: Callable[..., SkyjoApp]) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen))
        app.screen.query_one("#language", Select).value = "fr"
        await pilot.press("ctrl+s")
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, HomeScreen) and "Jouer contre des robots" in menu_text(app)
            ),
        )
    again = make_app(lang=None)  # no --lang: the saved choice wins over the locale
    async with again.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(again.screen, HomeScreen))
        assert "Jouer contre des robots" in menu_text(again)
        # Each setting's name is read whole at 80 columns in French, apart from its value.
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(again.screen, SettingsScreen))
        await pilot.pause()
        drawn = screen_lines(again)
        for key in SETTING_NAMES:
            label = again.tr(key)
            assert any(f" {label}  " in line for line in drawn), (label, drawn)


async def test_locale_picks_french(make_app: Callable[..., SkyjoApp]) -> None:
    app = make_app(lang=None, environ={"LANG": "fr_FR.UTF-8"})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        assert "Rejoindre un serveur" in menu_text(app)


async def test_help_has_the_rules_and_every_table_key(make_app: Callable[..., SkyjoApp]) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = app.screen.query_one(Markdown).source
        assert "doubled" in text and "dark blue" in text
        for description in ("Draw", "Take", "Discard", "Choose", "Cursor left"):
            assert f"| {description} |" in text
        # The lobby's Enter joins a table with a free seat, and watches one without.
        lobby = text.partition("## Keys in a server's lobby")[2]
        assert "| ⏎ | Join |" in lobby and "| w | Watch |" in lobby
        assert "| ⏎ | Watch a table with no seat free |" in lobby
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)


@pytest.mark.parametrize(
    ("lang", "first", "second"),
    [
        ("en", "»Alice: whose turn it is.", "12 pts: the points"),
        ("fr", "»Alice : c'est son tour.", "12 pts : les points"),
        ("de", "»Alice: Wer dran ist.", "12 Pkt: die Punkte"),
        ("es", "»Alice: a quién le toca.", "12 pts: los puntos"),
        ("it", "»Alice: di chi è il turno.", "12 pt: i punti"),
        ("nl", "»Alice: wie er aan de beurt is.", "12 pt: de punten"),
    ],
)
async def test_help_reads_the_table_legend_as_a_list(
    make_app: Callable[..., SkyjoApp], lang: str, first: str, second: str
) -> None:
    """Each item of "Reading the table" on its own line, as a bullet: no "\\n" drawn."""
    app = make_app(lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        for _ in range(40):  # page down to the legend (the rules come first)
            if any(first in line for line in screen_lines(app)):
                break
            await pilot.press("pagedown")
            await pilot.pause()
        lines = screen_lines(app)
        (at,) = [i for i, line in enumerate(lines) if first in line]
        assert lines[at].strip().startswith("•") and lines[at].rstrip().endswith(first)
        assert not any("\\n" in line for line in lines)
        assert any(line.strip().startswith(f"• {second}") for line in lines[at + 1 : at + 4])


async def deck_colours_drawn(app: SkyjoApp) -> set[str]:
    """Which of the deck's colours (on the home screen's title cards) are on screen."""
    deck = {value_colours(value)[0] for value in (-2, 0, 3, 7, 12)}
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        await pilot.pause()
        svg = app.export_screenshot().lower()
    return {colour for colour in deck if colour in svg}


async def test_no_color_from_the_players_environment(make_app: Callable[..., SkyjoApp]) -> None:
    assert len(await deck_colours_drawn(make_app())) == 5
    plain = make_app(environ={"NO_COLOR": "1"})
    assert await deck_colours_drawn(plain) == set() and plain.no_color


async def test_keys_remapped_in_the_settings_file_are_used_and_shown(
    make_app: Callable[..., SkyjoApp], tmp_path: Path
) -> None:
    preferences.save(tmp_path / "client", Preferences(keys={"table.draw": "p"}))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = TableScreen(table_map(2))
        await app.push_screen(screen)
        for push in game_pushes(
            2,
            5,
            lambda game, moves: game.current_player == 0 and game.round.phase.value == "choose",
        ):
            screen.feed_game(push)
        await wait_for(pilot, lambda: screen.choices.draw)
        assert "p draws a card" in str(screen.query_one("#prompt").render())
        await pilot.press("p")  # no server here: the draw is refused plainly
        await wait_for(pilot, lambda: any("not connected" in n.message for n in app._notifications))  # noqa: SLF001 - Textual's notifications (no public list)


async def test_the_table_without_colour_still_shows_every_value(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app(environ={"NO_COLOR": "1"})
    async with app.run_test(size=(80, 24)) as pilot:
        screen = TableScreen(table_map(4))
        await app.push_screen(screen)
        pushes = game_pushes(4, 7, moves(30))
        for push in pushes:
            screen.feed_game(push)
        await pilot.pause()
        svg = app.export_screenshot().lower()  # every line drawn through the monochrome filter
        view = screen.view
        assert view is not None and not {
            "#1f3f99",
            "#74c7ec",
            "#3fa34d",
            "#f2c94c",
            "#d0343a",
        } & set(re.findall(r"#[0-9a-f]{6}", svg))
        for widget in screen.query(TableauWidget).results(TableauWidget):
            cards = " ".join(widget.render_line(y).text for y in range(1, widget.size.height))
            shown = [value for value in view.tableaux[widget.seat].cards if value is not None]
            assert sorted(int(value) for value in re.findall(r"-?\d+", cards)) == sorted(shown)


async def table_with_bots(
    app: SkyjoApp, pilot: Pilot[Any], players: int, played: int
) -> TableScreen:
    """A table of ``players`` (bots named as the server names them), ``played`` moves in."""
    screen = TableScreen(table_map(players, server_bot_names=True))
    await app.push_screen(screen)
    for push in game_pushes(players, 7, moves(played)):
        screen.feed_game(push)
    await pilot.pause()
    return screen


async def test_french_bots_and_scores_in_words_at_80x24(make_app: Callable[..., SkyjoApp]) -> None:
    app = make_app(lang="fr")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await table_with_bots(app, pilot, 4, 12)
        headers = [
            w.render_line(0).text.strip(" »")
            for w in screen.query(".opponent").results(TableauWidget)
        ]
        # "Glouton 1   9 pts · Σ0": the bot's short name whole, the points in words.
        for number, header in enumerate(headers, 1):
            assert header.startswith(f"Glouton {number} ") and " pts · Σ" in header, headers
        assert any("Robot glouton 1 a retourné" in line for line in screen.query_one(LineLog).lines)
        # "Défausse" fills its label: the piles' last column stays blank, so that it never
        # touches our name beside them (drawn "»Alice" on our turn).
        piles = screen.query_one(PilesWidget).region
        (labels,) = [line for line in screen_lines(app) if "Défausse" in line]
        assert "Défausse" in labels[piles.x : piles.right - 1], labels
        assert labels[piles.right - 1] == " ", labels


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_piles_labels_never_touch_our_name_beside_them(
    make_app: Callable[..., SkyjoApp], lang: str
) -> None:
    """A discard label as wide as its field ("Descarte", "Afgelegd") moves the labels one
    cell left: the draw pile's count goes onto the pile when "Mazo 91" would not leave
    that cell, so the piles' last column stays blank before "»Alice"."""
    app = make_app(lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await table_with_bots(app, pilot, 4, 12)
        piles = screen.query_one(PilesWidget)
        discard = app.tr("piles.discard")
        (labels,) = [line for line in screen_lines(app) if discard in line]
        assert discard in labels[piles.region.x : piles.region.right - 1], labels
        assert labels[piles.region.right - 1] == " ", labels
        state = piles.state
        assert state is not None and str(state.pile_size) in drawn_words(app, piles), labels


async def test_the_log_never_begins_a_row_with_french_punctuation_set_apart(
    make_app: Callable[..., SkyjoApp],
) -> None:
    """French sets "!", "?", ";" and ":" apart with a space: at 80x24 the log is narrow, and
    a row may not begin with one (rich breaks at that space: "gagne la partie" / "!"), nor
    with a number cut from its word ("a retourné un" / "-2."), and a list of numbers still
    breaks between them."""
    app = make_app(lang="fr")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await table_with_bots(app, pilot, 2, 4)
        box = screen.query_one(LineLog).content_region

        def log_rows() -> list[str]:
            return [line[box.x : box.right] for line in screen_lines(app)[box.y : box.bottom]]

        rows = log_rows()
        assert any(" un " in row for row in rows), rows  # the moves' lines, in view
        assert not [row for row in rows if re.fullmatch(r"-?\d+\.?", row.strip())], rows
        # Each length of the sentence brings its "!" to the end of a row at some point.
        sentences = [f"{'ah ' * n}bien joué !" for n in range(box.width // 3 + 1)]
        for sentence in [*sentences, "On continue ? Oui ; et vite : allez !"]:
            screen.add_chat("table", "Bob", sentence)
            await pilot.pause()
            rows = log_rows()
            assert sentence.rpartition(" ")[0] in " ".join(" ".join(rows).split()), rows
            assert not [row for row in rows if row.lstrip()[:1] in ("!", "?", ";", ":")], rows
        # A list of numbers breaks between them, never inside one ("1" / "0" for a 10).
        numbers = "1, 10, 4, 1, 1, 3, 10, 10, 8, 3, 12, 11, 2, 10, 9, 11, 4, 12, 7, 10, 11"
        screen.add_chat("table", "Bob", f"Vous révélez {numbers}.")
        await pilot.pause()
        said = " ".join(log_rows()).rpartition("Vous révélez")[2]
        assert re.findall(r"-?\d+", said) == numbers.split(", "), log_rows()


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_one_point_is_one_pt_on_the_name_line(
    make_app: Callable[..., SkyjoApp], lang: str
) -> None:
    """The deal of seed 3 turns up a 1 first: "1 pt · total 0", not "1 pts" (French too)."""
    app = make_app(lang=lang)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = TableScreen(table_map(2))
        await app.push_screen(screen)
        for push in game_pushes(2, 3, moves(1)):
            screen.feed_game(push)
        await pilot.pause()
        headers = [w.render_line(0).text for w in screen.query(TableauWidget).results()]
        assert any(" 1 pt · total 0" in header for header in headers), headers
        assert not any(" 1 pts" in header for header in headers), headers


async def test_a_key_that_does_nothing_says_why_in_the_prompt(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = TableScreen(table_map(2))
        await app.push_screen(screen)
        pushes = game_pushes(
            2,
            5,
            lambda game, moves: game.current_player == 1 and game.round.phase.value == "choose",
        )
        for push in pushes:
            screen.feed_game(push)
        await pilot.pause()
        assert not screen.choices.any
        await pilot.press("d")
        assert "Not your turn yet: waiting for Bruno" in str(screen.query_one("#prompt").render())


async def test_eight_players_results_fit_80x24_with_their_buttons(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = TableScreen(table_map(8, server_bot_names=True))
        await app.push_screen(screen)
        for push in game_pushes(8, 1, lambda game, moves: False):  # to the end; the closer doubled
            screen.feed_game(push)
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
        over = app.screen
        await pilot.pause()
        results = over.query_one(ResultsTable)
        assert results.virtual_size.width <= results.size.width  # every column, the totals too
        for button in over.query(Button).results(Button):
            assert button.region.bottom <= 23, button  # above the footer, not cut off
        notes = str(over.query_one("#penalty").render())
        assert "doubled to 44" in notes.replace("\n", " ")
        await pilot.press("g")  # the score sheet of eight: round scores, the totals in a last line
        await pilot.pause()
        sheet = over.query_one(SheetTable)
        await wait_for(pilot, lambda: sheet.row_count >= 2 and sheet.size.width > 0)
        assert sheet.virtual_size.width <= sheet.size.width  # eight columns fit 80 columns
        names = " ".join(line.strip("│ ") for line in screen_lines(app))
        assert "o You · x Greedy 1" in names and "& Greedy 7" in names  # each mark's whole name
        chart = over.query_one(ScoreChart)
        assert chart.region.height >= 7 and chart.region.bottom <= 23  # the chart, above the footer
        for button in over.query(Button).results(Button):
            assert button.region.bottom <= 23, button
