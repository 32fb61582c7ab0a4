"""What a stranger on the Internet sends the browser door: each is refused with a
clear status or close code, the log gets no traceback and at most one WARNING
line a kind, and honest players still get in.  Real sockets, a real server."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from pathlib import Path

import aiohttp
import pytest

from .doorclient import TIMEOUT, door_client
from .test_door_flood import ports_of, real_server
from .webdoor import web_door

NAME_PROMPT = "Choose your name"

#: The start of a TLS 1.2 ClientHello, as a browser sends to an https:// URL.
TLS_HELLO = bytes.fromhex("16030100f4010000f00303") + bytes(range(32)) + b"\x00\x02\x13\x01\x01\x00"
BAD_REQUESTS = {
    "a control character in a header": b"GET / HTTP/1.1\r\nHost: a\r\nX-Bad: a\x01b\r\n\r\n",
    "a 9 KB header": b"GET / HTTP/1.1\r\nHost: a\r\nX-Big: " + b"x" * 9000 + b"\r\n\r\n",
    "a bad request line": b"GET /\x00 HTTP/1.1\r\nHost: a\r\n\r\n",
    "a TLS hello on the HTTP port": TLS_HELLO,
}


async def _send_raw(port: int, data: bytes) -> bytes:
    """``data`` on a new connection to the door; everything it answered before closing."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(data)
        await writer.drain()
        return await asyncio.wait_for(reader.read(), TIMEOUT)
    except ConnectionResetError:
        return b""  # closed at once: a plain close is an answer too
    finally:
        writer.close()


def _no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    loud = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not loud, "\n".join(f"{r.levelname} {r.name}: {r.getMessage()}" for r in loud)


async def test_malformed_requests_get_a_400_or_a_close_and_no_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with web_door(tmp_path) as door:
        for what, data in BAD_REQUESTS.items():
            answer = await _send_raw(door.web.port, data)
            status = answer.split(b"\r\n", 1)[0]
            assert status in (b"", b"HTTP/1.1 400 Bad Request", b"HTTP/1.0 400 Bad Request") or (
                status.startswith(b"HTTP/1.") and status.split()[1] in (b"400", b"431")
            ), (what, answer[:200])
        async with door_client(door.url) as honest:
            await honest.shows(NAME_PROMPT)
    _no_traceback(caplog)
    said = [r for r in caplog.records if "bad HTTP requests" in r.getMessage()]
    assert len(said) == 1 and said[0].levelno == logging.WARNING  # once, however many


async def test_json_nested_too_deep_closes_with_1007_and_no_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with web_door(tmp_path) as door:
        for _ in range(2):
            async with door_client(door.url) as stranger:
                await stranger.shows(NAME_PROMPT)
                await stranger.ws.send_str("[" * 30_000)
                assert await stranger.closed() == 1007
        async with door_client(door.url) as honest:
            await honest.shows(NAME_PROMPT)
    _no_traceback(caplog)
    said = [r for r in caplog.records if "nested too deep" in r.getMessage()]
    assert len(said) == 1 and said[0].levelno == logging.WARNING


async def _brief(url: str, lasting: float, abort: bool) -> None:
    """A WebSocket without a cookie, gone after ``lasting`` seconds (``abort``: without a
    close frame, as a tab killed or a network lost)."""
    async with door_client(url) as stranger:
        await asyncio.sleep(lasting)
        if abort:
            connection = stranger.ws._response.connection  # noqa: SLF001 - the socket
            assert connection is not None and connection.transport is not None
            connection.transport.abort()


def _warnings_after(log: Path, sessions: int) -> list[str]:
    """The server log's WARNING lines, once it says ``sessions`` sessions have closed."""
    deadline = time.monotonic() + TIMEOUT
    while len(re.findall(r"session \d+ closed", text := log.read_text())) < sessions:
        assert time.monotonic() < deadline, text[-3000:]
        time.sleep(0.05)
    assert "Traceback" not in text and " ERROR " not in text, text[-3000:]
    return [line for line in text.splitlines() if " WARNING " in line]


async def test_short_lived_cookieless_websockets_write_at_most_one_warning(
    tmp_path: Path,
) -> None:
    """30 WebSockets without a cookie, 10 at a time, each gone within 0.3 s of opening
    (every third without a close frame), against the real ``skyjo-server`` with its
    players' screens in a worker process: their apps end as they start, and the log
    never gets a WARNING each. It had one for many: "the app exited with workers still
    running (go_online)", the login's lobby connection coming in the same moment as its
    cancellation, which Python 3.11's ``wait_for`` dropped."""
    with real_server(tmp_path, workers=1) as (process, log):
        _tcp, web_port = ports_of(process, log)
        url = f"http://127.0.0.1:{web_port}/"
        for batch in range(3):
            await asyncio.gather(
                *(_brief(url, 0.03 * (i + 1), (batch * 10 + i) % 3 == 0) for i in range(10)),
                return_exceptions=True,
            )
        async with door_client(url) as honest:
            await honest.shows(NAME_PROMPT)
        warned = _warnings_after(log, 30)
    assert len(warned) <= 1, "\n".join(warned)


async def test_refused_origins_and_bad_messages_write_one_warning_a_kind(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Three pages of another site, and three connections closed (1008) for garbage: each
    said at INFO, and one counted WARNING a kind (they once wrote a WARNING each)."""
    caplog.set_level(logging.INFO)
    async with web_door(tmp_path, max_bad_messages=2) as door:
        for _ in range(3):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                async with door_client(door.url, headers={"Origin": "https://evil.example"}):
                    pass
            assert refused.value.status == 403
        for _ in range(3):
            async with door_client(door.url) as stranger:
                await stranger.shows(NAME_PROMPT)
                await stranger.ws.send_str("not json")
                await stranger.ws.send_bytes(b"\x00")
                assert await stranger.closed() == 1008
        async with door_client(door.url) as honest:
            await honest.shows(NAME_PROMPT)
    _no_traceback(caplog)
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warned) == 2, warned
    assert any("refused (403): foreign origin" in w for w in warned), warned
    assert any("(1008) for bad messages" in w for w in warned), warned
    said = [
        r
        for r in caplog.records
        if r.levelno == logging.INFO and "refused: foreign" in r.getMessage()
    ]
    assert len(said) == 3
