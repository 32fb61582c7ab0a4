"""What a terminal may be given as text: no character it could interpret.

Control and escape characters, bidirectional overrides and other invisible format
characters in a name or a chat line would act on the terminal of whoever is shown
them (its title, its colours, its clipboard). The server refuses them in what people
type (``server.lobby.text``); the client shows every word that reaches it from
elsewhere (a server, a records file) through ``printable``, whoever wrote it.
Pure, and light to import.
"""

from __future__ import annotations

import unicodedata
from typing import Final, TypeVar

T = TypeVar("T")

#: Unicode categories never shown: control, format (zero-width, bidi overrides),
#: surrogate, private use, unassigned, line and paragraph separators.
FORBIDDEN_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: What stands in for a character that may not be shown.
REPLACEMENT: Final = "\N{REPLACEMENT CHARACTER}"


def forbidden(char: str) -> bool:
    return unicodedata.category(char) in FORBIDDEN_CATEGORIES or not char.isprintable()


def bad_character(text: str) -> str | None:
    """The first character of ``text`` that may not be shown, as ``U+XXXX``; None if none."""
    for char in text:
        if forbidden(char):
            return f"U+{ord(char):04X}"
    return None


def printable(value: T) -> T:
    """``value`` with every character that may not be shown replaced by U+FFFD, in every
    string it holds (the values of a message, its lists), as received data is shaped.
    Line breaks stay: Textual draws them as such (a server's message may have some)."""
    if isinstance(value, str):
        if value.isprintable():
            return value  # the usual case, at C speed: nothing forbidden in it
        shown = (REPLACEMENT if c != "\n" and forbidden(c) else c for c in value)
        return "".join(shown)  # type: ignore[return-value]
    if isinstance(value, dict):
        return {key: printable(item) for key, item in value.items()}  # type: ignore[return-value]
    if isinstance(value, list):
        return [printable(item) for item in value]  # type: ignore[return-value]
    if isinstance(value, tuple):
        return tuple(printable(item) for item in value)  # type: ignore[return-value]
    return value


def one_line(text: str) -> str:
    """``text`` as a one-line field may show it: each line break or tab a space, each other
    character that may not be shown U+FFFD. One character for one, so that a field's
    cursor and selection keep their places."""
    if text.isprintable():
        return text
    return "".join(" " if c.isspace() else REPLACEMENT if forbidden(c) else c for c in text)
