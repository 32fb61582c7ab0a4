"""Errors in the player's words: never a traceback.

A refusal from the server is said in the client's own words, in the player's
language: ``error.code.<code>`` in the locale files, or ``error.code.<code>.<request>``
where what was asked says more (``not_found`` to a table code is a mistyped code), or
``error.code.<code>.reason.<reason>`` where the error says why (a ``bad_name`` too long).
Numbers in them (a turn timer's bounds, a chat line's length) are the server's, from
its welcome or from the error itself (a name's limit), never copied here. Only a code
this client does not know (a newer server's) is said in the server's own words:
another program's text, shown as printable, literal text.
"""

from __future__ import annotations

import socket
from collections.abc import Mapping
from typing import Any

from server.netclient import ConnectionLost
from server.printable import printable

from .i18n import Translator


def describe_error(
    exc: BaseException,
    tr: Translator,
    *,
    request: str | None = None,
    limits: Mapping[str, Any] | None = None,
) -> str:
    """What went wrong, said plainly; ``request`` is the type of the request refused, and
    ``limits`` the server's, from its welcome."""
    code = getattr(exc, "code", None)
    details = getattr(exc, "details", None) or {}
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
        words = refusal_words(str(code), tr, request, limits or {}, details)
        if words is not None:
            return words
    return message or tr("error.unknown")


def refusal_words(
    code: str,
    tr: Translator,
    request: str | None,
    limits: Mapping[str, Any],
    details: Mapping[str, Any] | None = None,
) -> str | None:
    """Our words for the server's ``code`` (refusing a ``request``), or None for a code we
    do not know. ``details`` are the error's other fields: its ``reason`` picks words
    saying more, and its numbers fill them in (before the welcome's). Words that need a
    number neither gave (an older server) give way to the code's words without the reason
    or the request, then to the server's."""
    details = details or {}
    numbers = {
        name: value
        for name, value in {**limits, **details}.items()
        if isinstance(name, str) and type(value) is int
    }
    reason = details.get("reason")
    keys = [f"error.code.{code}.reason.{reason}"] if isinstance(reason, str) and reason else []
    if request:
        keys.append(f"error.code.{code}.{request}")
    for key in [*keys, f"error.code.{code}"]:
        words = tr.filled(key, **numbers)
        if words is not None:
            return words
    return None
