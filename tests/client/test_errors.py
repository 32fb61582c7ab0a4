"""The server's refusals in the client's words: every code a server sends, in English
and in French, as a sentence; the numbers in them from the server's welcome; a code this
client does not know (a newer server's) in the server's words, printable and literal.

The limits come from a real server's welcome on 127.0.0.1, the one owner of them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from server.app import SkyjoServer
from server.netclient import ServerConnection, ServerError
from server.printable import REPLACEMENT
from server.protocol import ErrorCode, NameReason
from skyjo_tui.errors import describe_error
from skyjo_tui.i18n import LANGUAGES, Translator

#: What a server says in its message: lower case, English, for another program.
SERVER_WORDS = "every seat at this table is taken"


@pytest.fixture
async def limits(server: SkyjoServer) -> AsyncIterator[dict[str, Any]]:
    """The limits a real server's welcome gives."""
    conn = await ServerConnection.open("127.0.0.1", server.port)
    try:
        yield (await conn.hello(name="Walter")).limits
    finally:
        await conn.close()


async def test_every_code_is_said_in_our_words_as_a_sentence_in_each_language(
    limits: dict[str, Any],
) -> None:
    said: dict[str, dict[ErrorCode, str]] = {}
    for lang in LANGUAGES:
        tr = Translator(lang)
        said[lang] = {
            code: describe_error(ServerError(code.value, SERVER_WORDS), tr, limits=limits)
            for code in ErrorCode
        }
        for code, words in said[lang].items():
            assert words != SERVER_WORDS, f"{lang} {code.value}: the server's words"
            assert words[0].isupper() and words.endswith((".", "?")), f"{lang}: {words}"
            assert "{" not in words, f"{lang} {code.value}: a number not filled in: {words}"
    for code in ErrorCode:  # French words, not English ones copied
        assert said["fr"][code] != said["en"][code], code.value


async def test_the_request_refused_says_more_and_the_numbers_are_the_servers(
    limits: dict[str, Any],
) -> None:
    tr = Translator("en")
    missing = ServerError(ErrorCode.NOT_FOUND.value, "no such table")
    assert describe_error(missing, tr, request="join_table", limits=limits).startswith(
        "There is no such table: check the code"
    )
    assert describe_error(missing, tr, request="game_record", limits=limits) == (
        "This server does not keep that game."
    )
    timer = ServerError(ErrorCode.BAD_TIMER.value, "a turn timer is 5 to 600 seconds")
    bounds = f"{limits['turn_timer_min']} to {limits['turn_timer_max']} seconds"
    assert bounds in describe_error(timer, tr, request="create_table", limits=limits)
    other = {**limits, "turn_timer_min": 3, "turn_timer_max": 90}
    assert "3 to 90 seconds" in describe_error(timer, tr, limits=other)
    # An older server's welcome without them: its own words rather than a sentence with a hole.
    assert describe_error(timer, tr, limits={}) == "a turn timer is 5 to 600 seconds"
    strange = {**limits, "chat_max_length": "[b]500[/b]"}  # not a number: not put in our words
    too_long = ServerError(ErrorCode.CHAT_TOO_LONG.value, "at most 500 characters")
    assert describe_error(too_long, tr, limits=strange) == "at most 500 characters"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_code_this_client_does_not_know_is_said_in_the_servers_words_as_they_are(
    lang: str,
) -> None:
    newer = ServerError("table_on_fire", "[b]the table[/b] is on fire\x1b]0;owned\x07")
    words = describe_error(newer, Translator(lang), request="join_table")
    assert words == f"[b]the table[/b] is on fire{REPLACEMENT}]0;owned{REPLACEMENT}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_bad_name_says_which_rule_it_broke_with_the_limit_the_refusal_gives(lang: str) -> None:
    """A hello refused gets no welcome: the limit of a name too long comes with the error."""
    tr = Translator(lang)
    generic = describe_error(ServerError(ErrorCode.BAD_NAME.value, "a name has at most 12"), tr)
    said = {
        reason: describe_error(
            ServerError(
                ErrorCode.BAD_NAME.value,
                SERVER_WORDS,
                {"reason": reason.value, "name_max_length": 12},
            ),
            tr,
        )
        for reason in NameReason
    }
    assert len(set(said.values()) | {generic}) == len(NameReason) + 1  # each says its own
    too_long = {
        "de": "höchstens 12 Zeichen",
        "en": "at most 12 characters",
        "es": "como mucho 12 caracteres",
        "fr": "au plus 12 caractères",
        "it": "al massimo 12 caratteri",
        "nl": "hoogstens 12 tekens",
    }[lang]
    assert too_long in said[NameReason.TOO_LONG]
    # Its limit, not the welcome's; without one, the words of any bad name.
    error = ServerError(ErrorCode.BAD_NAME.value, SERVER_WORDS, {"reason": "too_long"})
    assert "30" in describe_error(error, tr, limits={"name_max_length": 30})
    assert describe_error(error, tr) == generic
    newer = ServerError(ErrorCode.BAD_NAME.value, SERVER_WORDS, {"reason": "rude"})
    assert describe_error(newer, tr) == generic
