"""The client's words in six languages, from ``locales/*.json``.

Every string a player reads goes through a ``Translator``; the language comes
from ``--lang`` or the locale variables of the environment the app was given
(for SSH: the player's, not the server's), and never from process-wide state
we would have to write.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final


@dataclass(frozen=True)
class Language:
    """What the code must know of a language beyond its catalog's words."""

    name: str
    """The language in its own words, as its speakers look for it in a list ("Deutsch")."""
    locale: str
    """A ``LANG`` that asks for it (the browser door gives its terminal one)."""
    under_two_is_singular: bool = False
    """Whether 0 and anything under 2 take the singular, as in French ("0 point", "1,5
    point"); elsewhere only 1 does."""
    decimal_comma: bool = True
    """Whether a decimal is written with a comma ("27,5"), as every language here but English."""


#: Every language the client speaks, by code, in the order of their own names.
LANGUAGE_INFO: Final[Mapping[str, Language]] = {
    "de": Language("Deutsch", "de_DE.UTF-8"),
    "en": Language("English", "en_US.UTF-8", decimal_comma=False),
    "es": Language("Español", "es_ES.UTF-8"),
    "fr": Language("Français", "fr_FR.UTF-8", under_two_is_singular=True),
    "it": Language("Italiano", "it_IT.UTF-8"),
    "nl": Language("Nederlands", "nl_NL.UTF-8"),
}
LANGUAGES: Final[tuple[str, ...]] = tuple(LANGUAGE_INFO)
DEFAULT_LANGUAGE: Final = "en"
#: Locale variables in the order gettext consults them.
_LOCALE_VARIABLES: Final = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@cache
def load_catalog(lang: str) -> Mapping[str, str]:
    """The strings of one language (read once per process, shared by every app)."""
    text = resources.files("skyjo_tui").joinpath("locales", f"{lang}.json").read_text("utf-8")
    return json.loads(text, object_pairs_hook=_each_once)


def _each_once(pairs: list[tuple[str, str]]) -> dict[str, str]:
    """A catalog's words, refused when one is given twice (JSON would keep the last,
    silently: the other meaning's words on screen)."""
    words: dict[str, str] = {}
    for key, value in pairs:
        if key in words:
            raise ValueError(f"the word {key!r} is given twice")
        words[key] = value
    return words


def detect_language(explicit: str | None, environ: Mapping[str, str]) -> str:
    """``explicit`` when supported, else the first supported locale variable, else English."""
    if explicit:
        lang = explicit.strip().lower()[:2]
        if lang not in LANGUAGES:
            raise ValueError(
                f"unsupported language {explicit!r}; choose one of {', '.join(LANGUAGES)}"
            )
        return lang
    for variable in _LOCALE_VARIABLES:
        parts = [part.strip() for part in environ.get(variable, "").split(":")]
        for part in parts:  # LANGUAGE lists preferences ("pt_BR:de"): the first we speak
            lang = part.lower()[:2]
            if lang in LANGUAGES:
                return lang
        if any(parts):  # a set variable in other languages decides: English
            return DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


class Translator:
    """Looks strings up by key; a missing key falls back to English, then to the key."""

    def __init__(self, lang: str = DEFAULT_LANGUAGE) -> None:
        self.lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
        self._language = LANGUAGE_INFO[self.lang]
        self._catalog = load_catalog(self.lang)
        self._fallback = load_catalog(DEFAULT_LANGUAGE)

    def __call__(self, key: str, /, **values: Any) -> str:
        """``key``'s words; unfilled when a placeholder has no value; the key when no
        language has it."""
        words = self.filled(key, **values)
        return words if words is not None else self._template(key) or key

    def filled(self, key: str, /, **values: Any) -> str | None:
        """``key``'s words with every placeholder given a value; None when no language has
        ``key``, or one of its placeholders has no value in ``values``."""
        template = self._template(key)
        if template is None:
            return None
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):
            return None

    def _template(self, key: str) -> str | None:
        return self._catalog.get(key) or self._fallback.get(key)

    def plural(self, key: str, count: float, /, *, shown: str | None = None, **values: Any) -> str:
        """``key.one`` or ``key.other`` for ``count``, written ``shown`` where given (a
        decimal: "1.5"). Most languages here say one of 1 only; French of anything under 2
        ("0 point", "1,5 point")."""
        one = abs(count) < 2 if self._language.under_two_is_singular else count == 1
        words = count if shown is None else shown
        return self(f"{key}.{'one' if one else 'other'}", count=words, **values)

    def about(self, key: str, yours: bool, /, **values: Any) -> str:
        """``key``'s sentence about a player; ``key.you`` when that player is you ("You drew a 5")."""
        you_key = f"{key}.you"
        if yours and (you_key in self._catalog or you_key in self._fallback):
            return self(you_key, **values)
        return self(key, **values)

    def decimal(self, value: float) -> str:
        """``value`` with one decimal, written as the language writes it ("27.5", "27,5")."""
        text = f"{value:.1f}"
        return text.replace(".", ",") if self._language.decimal_comma else text

    def a(self, value: int) -> str:
        """A card with its article: "a 5", "an 8"; "un 8", "eine 8", "een 8" (each catalog's
        ``word.a``, and ``word.an`` before a number English says with a vowel)."""
        spoken_with_vowel = value in (8, 11)  # "eight", "eleven"
        return f"{self('word.an' if spoken_with_vowel else 'word.a')} {value}"

    def join_names(self, names: list[str]) -> str:
        """ "Alice", "Alice and Bob", "Alice, Bob and Carol"."""
        if len(names) <= 1:
            return "".join(names)
        return f"{', '.join(names[:-1])} {self('word.and')} {names[-1]}"
