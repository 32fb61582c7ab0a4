"""Each language the client speaks: its catalog says everything English says, with the same
placeholders; it is chosen from ``LANG`` (a terminal, SSH) and from the browser's
``Accept-Language`` (the web door); it counts, writes decimals and names a card its own way;
Settings names it in its own words; and the home screen, the table, Help and every form read
in it, whole, at 80x24.

The footers of every screen in every language: test_footers_fit.py.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import pytest
from textual.widgets import Select

from server.app import SkyjoServer
from server.web.policy import preferred_language, terminal_environment
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.i18n import LANGUAGES, Translator, detect_language, load_catalog
from skyjo_tui.screens.create_table import CreateTableScreen
from skyjo_tui.screens.help import HelpScreen
from skyjo_tui.screens.home import HomeScreen
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.settings import SettingsScreen
from skyjo_tui.screens.setup import SetupScreen
from skyjo_tui.screens.table import TableScreen
from skyjo_tui.widgets.form import FieldLabel

from .journeys.seen import (
    drawn_words,
    on_screen,
    prompt_line,
    prompt_shown,
    screen_lines,
    screen_text,
    until,
)

#: What a player of each language reads first: on the home screen, at the table (the first
#: cards to turn up), in Help (the rules' second heading); and the language's name in Settings.
SAID = {
    "de": ("Gegen Bots spielen", "Deck eine Karte deiner Wahl auf", "Rundenbeginn", "Deutsch"),
    "en": ("Play against bots", "Turn up a card of your choice", "Start of a round", "English"),
    "es": ("Jugar contra bots", "Descubre la carta que quieras", "Inicio de la ronda", "Español"),
    "fr": ("Jouer contre des robots", "Retournez une carte", "Début de manche", "Français"),
    "it": (
        "Gioca contro i bot",
        "Scopri una carta a tua scelta",
        "Inizio della manche",
        "Italiano",
    ),
    "nl": (
        "Spelen tegen bots",
        "Draai een kaart naar keuze om",
        "Begin van een ronde",
        "Nederlands",
    ),
}
#: The locale variables a player of each language has, on Linux and a Mac, in another region.
LOCALES = {
    "de": ("de_DE.UTF-8", "de_AT.UTF-8", "de_CH"),
    "en": ("en_GB.UTF-8", "en_US", "en_AU.UTF-8"),
    "es": ("es_ES.UTF-8", "es_MX.UTF-8", "es_AR"),
    "fr": ("fr_FR.UTF-8", "fr_BE.UTF-8", "fr_CA"),
    "it": ("it_IT.UTF-8", "it_CH.UTF-8", "it_IT"),
    "nl": ("nl_NL.UTF-8", "nl_BE.UTF-8", "nl_NL"),
}
#: What such a player's browser sends.
ACCEPTED = {
    "de": "de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7",
    "en": "en-GB,en;q=0.9",
    "es": "es-419,es;q=0.9,en;q=0.8",
    "fr": "fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5",
    "it": "it-IT,it;q=0.9,en-US;q=0.8,en;q=0.7",
    "nl": "nl-BE,nl;q=0.9,fr;q=0.8,en;q=0.7",
}


def _placeholders(text: str) -> set[str]:
    return set(re.findall(r"{(\w+)}", text))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_catalog_says_what_english_says_with_its_placeholders(lang: str) -> None:
    english, words = load_catalog("en"), load_catalog(lang)
    assert sorted(set(english) - set(words)) == [], "not said"
    assert sorted(set(words) - set(english)) == [], "said, but by no screen"
    changed = {
        key: (english[key], words[key])
        for key in english
        if _placeholders(english[key]) != _placeholders(words[key])
    }
    assert not changed  # a placeholder lost is a value unsaid; a new one, words unfilled
    assert all(text.strip() for text in words.values())


#: How each language counts games, none, one and two; and writes a mean of 27.5 points.
COUNTED = {
    "de": ("0 Partien", "1 Partie", "2 Partien", "27,5"),
    "en": ("0 games", "1 game", "2 games", "27.5"),
    "es": ("0 partidas", "1 partida", "2 partidas", "27,5"),
    "fr": ("0 partie", "1 partie", "2 parties", "27,5"),
    "it": ("0 partite", "1 partita", "2 partite", "27,5"),
    "nl": ("0 spellen", "1 spel", "2 spellen", "27,5"),
}
#: A card drawn, as the log says it: "You drew an 8" and each language's own.
A_CARD = {
    "de": ("eine 5", "eine 8", "eine 11"),
    "en": ("a 5", "an 8", "an 11"),
    "es": ("un 5", "un 8", "un 11"),
    "fr": ("un 5", "un 8", "un 11"),
    "it": ("un 5", "un 8", "un 11"),
    "nl": ("een 5", "een 8", "een 11"),
}


def test_every_language_is_tested_here() -> None:
    assert set(SAID) == set(LOCALES) == set(ACCEPTED) == set(LANGUAGES)
    assert set(COUNTED) == set(A_CARD) == set(LANGUAGES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_counts_and_writes_decimals_its_own_way(lang: str) -> None:
    """French alone says "0 partie"; every language here but English writes "27,5"; a card's
    article is the language's ("eine 8": die Acht), English's by the number as spoken."""
    tr = Translator(lang)
    *counts, mean = COUNTED[lang]
    assert [tr.plural("stats.count.games", n) for n in (0, 1, 2)] == counts
    assert tr.decimal(27.5) == mean
    assert tuple(tr.a(value) for value in (5, 8, 11)) == A_CARD[lang]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_is_chosen_from_the_locale(lang: str) -> None:
    for locale in LOCALES[lang]:
        assert detect_language(None, {"LANG": locale}) == lang, locale
        assert detect_language(None, {"LC_ALL": locale, "LANG": "en_US.UTF-8"}) == lang
    # GNU's LANGUAGE lists preferences: the first one the client speaks wins.
    assert detect_language(None, {"LANGUAGE": f"pt_BR:{lang}", "LANG": "C.UTF-8"}) == lang
    assert detect_language(lang.upper(), {"LANG": "pt_BR.UTF-8"}) == lang  # --lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_is_chosen_from_the_browsers_accept_language(lang: str) -> None:
    assert preferred_language(ACCEPTED[lang]) == lang
    assert preferred_language(f"pt-BR, {lang};q=0.5, en;q=0.4") == lang
    # The terminal the web door gives the browser's player says it as LANG, which the app reads.
    environ = terminal_environment(ACCEPTED[lang])
    assert detect_language(None, environ) == lang


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_home_the_table_and_help_read_in_the_language_at_80x24(
    make_app: Callable[..., SkyjoApp], lang: str
) -> None:
    home_words, first_prompt, help_title, _ = SAID[lang]
    tr = Translator(lang)
    app = make_app(lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, HomeScreen)  # its footer whole
        shown = screen_text(app)
        assert home_words in shown, shown
        menu = ("local", "join", "stats", "settings", "help", "quit")
        for words in (tr("home.tagline"), *(tr(f"home.{item}") for item in menu)):
            assert words in shown, (words, shown)  # each whole, on one row
        await pilot.press("n")
        await on_screen(pilot, SetupScreen)
        await pilot.press("enter")
        await on_screen(pilot, TableScreen)
        await until(pilot, lambda: first_prompt in prompt_line(app), "the first prompt")
        await until(pilot, lambda: prompt_shown(app) == " ".join(prompt_line(app).split()), "")
        shown = screen_text(app)
        assert tr("piles.discard") in shown and tr("status.initial_flips") in shown, shown
        await pilot.press("question_mark")
        await on_screen(pilot, HelpScreen)
        await until(pilot, lambda: help_title in screen_text(app), "the rules")
        assert all(len(line.rstrip()) <= 80 for line in screen_lines(app))


def labels_cut(app: SkyjoApp) -> list[tuple[str, str]]:
    """The form's labels shown but not drawn whole in their place: (what it says, what
    is seen)."""
    shown = [label for label in app.screen.query(FieldLabel) if label.region.area]
    # The focused field's label is marked "▶ ": what is left is the label as read.
    said = [(label.words.plain, drawn_words(app, label).removeprefix("▶ ")) for label in shown]
    assert said, "no form on screen"
    return [(words, seen) for words, seen in said if seen != " ".join(words.split())]


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_every_forms_labels_are_read_whole_at_80_columns(
    make_app: Callable[..., SkyjoApp], make_server: Callable[..., Awaitable[SkyjoServer]], lang: str
) -> None:
    """A label one cell too long for its column loses its last words: "Tiempo por turno"
    said nothing of "(segundos)". So does the chat's placeholder ("Messaggio (Invio per")."""
    app = make_app(lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, HomeScreen)
        for key, form in (("n", SetupScreen), ("o", SettingsScreen)):
            await pilot.press(key)
            await on_screen(pilot, form)
            assert not labels_cut(app), screen_text(app)
            await pilot.press("escape")
            await on_screen(pilot, HomeScreen)
    server = await make_server()
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice", lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, LobbyScreen)
        chat = app.tr("chat.placeholder")  # in the chat's box, beside the tables
        assert chat in screen_text(app), screen_text(app)
        await pilot.press("n")
        await on_screen(pilot, CreateTableScreen)
        assert not labels_cut(app), screen_text(app)


async def test_settings_name_each_language_in_its_own_words(
    make_app: Callable[..., SkyjoApp],
) -> None:
    """A player who does not read the language the app opened in still finds their own."""
    app = make_app(lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await on_screen(pilot, HomeScreen)
        await pilot.press("o")
        settings = await on_screen(pilot, SettingsScreen)
        choices = settings.query_one("#language", Select)._options  # noqa: SLF001
        assert [(str(name), lang) for name, lang in choices] == [
            (SAID[lang][-1], lang) for lang in LANGUAGES
        ]
