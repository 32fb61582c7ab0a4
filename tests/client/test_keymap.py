"""Which new key clashes: with another action of the same place, or with a key that works everywhere."""

from __future__ import annotations

import re

import pytest
from textual.app import App
from textual.binding import Binding

import skyjo_tui.navigator  # noqa: F401 - declares the places (``keymap.declare_places``)
from skyjo_tui import keymap
from skyjo_tui.i18n import LANGUAGES, Translator, load_catalog


def test_a_key_of_the_same_place_clashes() -> None:
    found = keymap.clash("table.chat", "d", {})
    assert found is not None and found.binding.id == "table.draw" and found.place == "table"


def test_a_key_of_another_place_is_free() -> None:
    assert keymap.clash("table.chat", "w", {}) is None  # the lobby's Watch


def test_the_lobby_list_keys_count() -> None:
    found = keymap.clash("lobby.create", "enter", {})
    assert found is not None and found.binding.id in ("lobby.watch_full", "list.choose")
    found = keymap.clash("lobby.watch_full", "enter", {})
    assert found is not None and found.binding.id == "list.choose"


def test_keys_that_work_everywhere_clash_in_every_place() -> None:
    found = keymap.clash("home.stats", "f1", {})
    assert found is not None and found.binding.id == "app.help" and found.place == "everywhere"
    found = keymap.clash("app.help", "d", {})
    assert found is not None and found.binding.id == "table.draw"


def test_the_players_keys_are_the_ones_checked() -> None:
    moved = keymap.remapped({}, "table.draw", "p")
    assert keymap.clash("table.chat", "d", moved) is None  # d is free once Draw is on p
    found = keymap.clash("table.chat", "p", moved)
    assert found is not None and found.binding.id == "table.draw"


def test_a_key_the_player_chose_before_a_new_version_declared_it_stays_theirs() -> None:
    """A player put Choose on o before the table's Settings key was o: o still chooses, and
    Settings is not said to be on o (Help, the Keys screen), until the player gives it a key."""
    chosen = {"table.choose": "o"}
    assert keymap.keys_now("table.choose", chosen) == ("o",)
    assert keymap.keys_now("table.settings", chosen) == ()
    assert keymap.keys_now("table.settings", {}) == ("o",)
    assert keymap.keys_now("lobby.settings", chosen) == ("o",)  # another place: untouched
    found = keymap.clash("table.settings", "o", chosen)
    assert found is not None and found.binding.id == "table.choose"
    assert keymap.keys_now("table.settings", {**chosen, "table.settings": "f2"}) == ("f2",)


def test_a_key_back_to_its_default_leaves_the_keymap() -> None:
    assert keymap.remapped({"table.draw": "p"}, "table.draw", "d") == {}


# Where each group of locale strings is read: the place whose keys its words may name.
_PLACE_OF_WORDS = {
    "home": "home",
    "lobby": "lobby",
    "room": "room",
    "prompt": "table",
    "refused": "table",
    "hint": "table",
    "status": "table",
    "summary": "summary",
    "over": "over",
    "replay": "replay",
    "review": "review",
}
# How a key is spelt out in words (what a literal mention of it would look like).
_SPELT = {"right": "→", "left": "←", "enter": "Enter Entrée ⏎", "escape": "Esc Échap"}
_SPELT |= {"space": "Space Espace", "question_mark": "?"}
# The languages' one-letter words ("a card", "il y a"), never read as a key (so a literal
# "a" for Autoplay would go unseen here).
_ONE_LETTER_WORDS = {
    "de": set(),
    "en": {"a"},
    "es": {"a", "e", "o", "u", "y"},
    "fr": {"a", "y"},
    "it": {"a", "e", "i", "o"},
    "nl": set(),
}


def _spellings(key: str) -> set[str]:
    return set(_SPELT.get(key, key if len(key) == 1 else "").split())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_hints_name_remappable_keys_only_by_placeholder(lang: str) -> None:
    """A hint that spelt out "r" would name the wrong key once Ready is remapped: each key of
    the place a string is read in comes from ``{<action>_key}``, and each such placeholder
    is a binding of that place (``SkyjoScreenMixin.key_labels``)."""
    places = {place.name: place.bindings for place in keymap.places()}
    for word, text in load_catalog(lang).items():
        place = _PLACE_OF_WORDS.get(word.split(".")[0])
        if place is None:
            continue
        bindings = places[place]
        ids = {b.id for b in bindings}
        for action in re.findall(r"{(\w+)_key}", text):
            assert f"{place}.{action}" in ids, (word, action)
        # Placeholders go, and a number's unit with them ("{seconds} s" is no key s).
        words = re.sub(r"{\w+}( s\b)?", " ", text)
        tokens = set(re.split(r"[\s,.:;()«»“”]+", words)) - _ONE_LETTER_WORDS[lang]
        for binding in bindings:
            for key in keymap.keys_of(binding, {}):
                assert not _spellings(key) & tokens, (word, binding.id, key)


def test_a_binding_has_its_keys_now_by_id() -> None:
    assert keymap.keys_now("room.ready", {}) == ("r",)
    assert keymap.keys_now("room.ready", {"room.ready": "y"}) == ("y",)
    assert keymap.keys_now("table.choose", {}) == ("enter", "space")
    assert keymap.keys_now("no.such", {}) == ()


#: Keys a player may remap an action to, beyond those the screens declare.
_OTHER_KEYS = ("tab", "shift+tab", "delete", "insert", "backspace", "f5", "ctrl+x", "alt+x")
#: How French names the keys Textual spells out in English words (and its shift, "maj").
_FRENCH = {"escape": "échap", "space": "espace", "pageup": "pgpréc", "pagedown": "pgsuiv"}
_FRENCH |= {"home": "début", "end": "fin", "insert": "inser", "delete": "suppr"}
_FRENCH |= {"shift+tab": "maj+tab", "ctrl+space": "^espace", "tab": "tab", "enter": "⏎"}
_FRENCH |= {"ctrl+q": "^q", "right": "→", "question_mark": "?", "f1": "f1", "K": "K"}


def _every_key() -> set[str]:
    declared = {
        key for place in keymap.places() for b in place.bindings for key in keymap.keys_of(b, {})
    }
    return declared | set(_OTHER_KEYS) | set(_FRENCH)


def test_english_names_keys_as_textual_does() -> None:
    textual = App[None]()
    english = Translator("en")
    for key in sorted(_every_key()):
        assert keymap.key_display(key, english) == textual.get_key_display(Binding(key, "")), key


def test_french_names_keys_as_a_french_keyboard_does() -> None:
    french = Translator("fr")
    assert {key: keymap.key_display(key, french) for key in _FRENCH} == _FRENCH


def test_french_words_name_no_key_in_english() -> None:
    """A key named in a sentence too ("Échap la laisse telle quelle", not "esc")."""
    english = {"esc", "escape", "space", "pgup", "pgdn", "enter", "home", "end", "delete", "shift"}
    for word, text in load_catalog("fr").items():
        tokens = set(re.split(r"[^\w]+", re.sub(r"{\w+}", " ", text).lower()))
        assert not tokens & english, (word, tokens & english)
