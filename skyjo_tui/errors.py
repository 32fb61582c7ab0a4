"""Errors in the player's words: never a traceback."""

from __future__ import annotations

import socket

from server.netclient import ConnectionLost
from server.printable import printable

from .i18n import Translator

#: Error codes whose server message speaks of the protocol, not of the game.
OUR_WORDS = frozenset({"bad_token"})


def describe_error(exc: BaseException, tr: Translator) -> str:
    """What went wrong, said plainly (the server's words, or ours in the player's language)."""
    code = getattr(exc, "code", None)
    message = printable(getattr(exc, "message", "") or str(exc))  # the server's words, maybe
    if isinstance(exc, TimeoutError):
        return tr("error.timeout")
    if isinstance(exc, ConnectionRefusedError):
        return tr("error.refused")
    if isinstance(exc, socket.gaierror):
        return tr("error.unknown_host")
    if isinstance(exc, (ConnectionLost, OSError)) and not code:
        return tr("error.connection", reason=getattr(exc, "strerror", None) or message)
    if code:
        key = f"error.code.{code}"
        # The server's messages are readable English; other languages get ours when
        # we have one, and so does English where the server's words are technical.
        if (tr.lang != "en" or code in OUR_WORDS) and tr(key) != key:
            return tr(key)
    return message or tr("error.unknown")
