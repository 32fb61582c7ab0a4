"""Journey: keys named in the player's language, wherever a key is named.

In French, the footers and Help named keys as Textual spells them, in English: "esc",
"space", "pgup", "pgdn", "home", "end". They read as a French keyboard names them now
("échap", "espace", "pgpréc", "pgsuiv", "début", "fin"); symbols stay symbols ("⏎", "→",
"^q"). Walked at a table: the chat's keys in its footer, the prompt that says which key
cancels a move, then Help's tables and its footer; German, Spanish, Italian and Dutch as
their keyboards name them ("Leertaste", "Bild↑", "Pos1"; "espacio", "repág"; "spazio";
"spatie"). English reads as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.containers import VerticalScroll
from textual.pilot import Pilot

from skyjo_tui.app import SkyjoApp
from skyjo_tui.i18n import LANGUAGES
from skyjo_tui.screens.help import HelpScreen
from skyjo_tui.screens.table import TableScreen

from .seen import focused, footer, on_screen, prompt_line, screen_lines, until
from .test_hints import against_one_bot

#: The names a player reads, by language, for the keys Textual spells out in words.
NAMES = {
    "de": {"escape": "Esc", "space": "Leertaste", "pageup": "Bild↑", "pagedown": "Bild↓"},
    "en": {"escape": "esc", "space": "space", "pageup": "pgup", "pagedown": "pgdn"},
    "es": {"escape": "esc", "space": "espacio", "pageup": "repág", "pagedown": "avpág"},
    "fr": {"escape": "échap", "space": "espace", "pageup": "pgpréc", "pagedown": "pgsuiv"},
    "it": {"escape": "esc", "space": "spazio", "pageup": "pag↑", "pagedown": "pag↓"},
    "nl": {"escape": "esc", "space": "spatie", "pageup": "pgup", "pagedown": "pgdn"},
}
NAMES["de"] |= {"home": "Pos1", "end": "Ende"}
NAMES["en"] |= {"home": "home", "end": "end"}
NAMES["es"] |= {"home": "inicio", "end": "fin"}
NAMES["fr"] |= {"home": "début", "end": "fin"}
NAMES["it"] |= {"home": "inizio", "end": "fine"}
NAMES["nl"] |= {"home": "home", "end": "end"}
#: Textual's English names: none of them is left in another language, but those its own
#: keyboards print in English too (a Dutch keyboard is an American one but for "spatie").
ENGLISH = set(NAMES["en"].values()) | {"del", "insert", "shift"}
AS_IN_ENGLISH = {"de": set(), "es": {"esc"}, "fr": set(), "it": {"esc"}}
AS_IN_ENGLISH["nl"] = ENGLISH - {"space"}


async def help_rows(pilot: Pilot[Any]) -> set[tuple[str, str]]:
    """Every row of Help's key tables (keys, what they do), read page by page as a person
    scrolls down to its end."""
    app = pilot.app
    scroll = app.screen.query_one("#help", VerticalScroll)
    rows: set[tuple[str, str]] = set()
    for _ in range(100):  # far more pages than Help has
        for line in screen_lines(app):
            cells = [cell.strip() for cell in line.split("│")]
            if len(cells) == 4 and all(cells[1:3]):
                rows.add((cells[1], cells[2]))
        if scroll.scroll_y >= scroll.max_scroll_y:
            return rows
        await pilot.press("pagedown")
        await pilot.pause()
    raise AssertionError("Help never scrolled to its end")


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_keys_are_named_in_the_players_language(
    make_app: Callable[..., SkyjoApp], lang: str
) -> None:
    app, names = make_app(lang=lang), NAMES[lang]
    tr = app.tr
    async with app.run_test(size=(80, 24)) as pilot:
        table: TableScreen = await against_one_bot(pilot)  # at our first turn

        # The chat line: the footer says which key closes it.
        await pilot.press("c")
        await until(pilot, lambda: focused(app) == "ChatInput#chat-input", "the chat line")
        assert (names["escape"], tr("keys.close_chat")) in (await footer(pilot)).shown
        await pilot.press("escape")
        await until(pilot, lambda: focused(app) == "nothing", "the keys back at the table")
        keys = await footer(pilot)
        assert keys.descriptions[-2:] == [tr("keys.help"), tr("keys.leave")], keys

        # Taking the discard: the prompt names the key that puts it back, and that key does.
        turn = prompt_line(app)
        await pilot.press("t")
        await until(pilot, lambda: f"({names['escape']} " in prompt_line(app), "the step")
        await pilot.press("escape")
        await until(pilot, lambda: prompt_line(app) == turn, "the turn's prompt back")
        assert table.choices.draw

        # Help: its tables and its footer.
        await pilot.press("question_mark")
        await on_screen(pilot, HelpScreen)
        assert (names["escape"], tr("keys.close")) in (await footer(pilot)).shown
        rows = await help_rows(pilot)
        expected = {
            (f"⏎, {names['space']}", tr("keys.choose")),
            (names["escape"], tr("keys.cancel")),
            (names["pageup"], tr("keys.log_back")),
            (names["pagedown"], tr("keys.log_newer")),
            (names["home"], tr("keys.first")),
            (names["end"], tr("keys.last")),
            (f"q, {names['escape']}", tr("keys.close")),
            ("^q", tr("keys.quit")),
        }
        assert expected <= rows, expected - rows
        if lang != "en":
            named = {name for keys, _ in rows for name in keys.split(", ")}
            assert not named & (ENGLISH - AS_IN_ENGLISH[lang]), named
