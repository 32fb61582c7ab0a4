"""Checks on text people type: names and chat lines.

Both end up on other people's terminals, so nothing that a terminal could
interpret (control and escape characters, bidirectional overrides, other
invisible format characters: ``server.printable``) gets through.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from ..printable import bad_character
from ..protocol import NameReason


class TextError(ValueError):
    """The text is refused; the message says why, for the person who typed it, and
    ``reason`` says it for a program."""

    def __init__(self, message: str, reason: NameReason) -> None:
        super().__init__(message)
        self.reason = reason

    def __reduce__(self) -> tuple[Any, ...]:
        # Its arguments, not its ``args`` (the message alone): a pickled copy is made again.
        return type(self), (str(self), self.reason), self.__dict__


class TextTooLong(TextError):
    def __init__(self, message: str, max_length: int) -> None:
        super().__init__(message, NameReason.TOO_LONG)
        self.max_length = max_length

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (str(self), self.max_length), self.__dict__


def _clean(raw: str, max_length: int, what: str) -> str:
    text = unicodedata.normalize("NFC", raw).strip()
    if not text:
        raise TextError(f"{what} needs at least one visible character", NameReason.EMPTY)
    if len(text) > max_length:
        raise TextTooLong(f"{what} has at most {max_length} characters", max_length)
    bad = bad_character(text)
    if bad is not None:
        raise TextError(
            f"{what} may hold only printable characters (not {bad})", NameReason.UNPRINTABLE
        )
    return text


def clean_name(raw: str, max_length: int, what: str = "a name") -> str:
    """The name as it will be shown, or ``TextError`` saying what is wrong."""
    name = _clean(raw, max_length, what)
    if "  " in name:
        raise TextError(f"{what} may not hold two spaces in a row", NameReason.SPACES)
    return name


def name_key(name: str) -> str:
    """Names are unique ignoring case (and Unicode case variants)."""
    return unicodedata.normalize("NFC", name).casefold()


def clean_chat(raw: str, max_length: int) -> str:
    return _clean(raw, max_length, "a chat message")
