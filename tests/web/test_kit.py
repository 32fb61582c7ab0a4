"""The browser kit itself, on a tiny page of its own: textual.js (as textual-serve
ships it) on a WebSocket that draws known text, so that reading the screen and
clicking on a cell are checked against what the page really sends back."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import textual_serve
from aiohttp import WSMsgType, web
from playwright.async_api import BrowserContext

from .browserkit import TermPage, colour_count

STATIC = Path(textual_serve.__file__).parent / "static"
PAGE = """<!DOCTYPE html><html><head>
<link rel="stylesheet" href="/static/css/xterm.css"><script src="/static/js/textual.js"></script>
<style>body { margin: 0; background: #000 } .textual-terminal { width: 100vw; height: 100vh }</style>
</head><body><div class="textual-terminal" data-session-websocket-url="ws://{host}/ws"
data-font-size="16"></div></body></html>"""


@contextlib.asynccontextmanager
async def echo_page() -> AsyncIterator[tuple[str, list[str]]]:
    """A page whose terminal shows a word to click and everything typed."""
    typed: list[str] = []

    async def index(request: web.Request) -> web.Response:
        return web.Response(text=PAGE.replace("{host}", request.host), content_type="text/html")

    async def socket(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        # Mouse reports on (SGR), then the word to click on row 4, column 11.
        await ws.send_bytes(b"\x1b[?1000h\x1b[?1006h\x1b[2J\x1b[4;11HCLICK \xe2\x98\x85 ME")
        async for message in ws:
            if message.type != WSMsgType.TEXT:
                continue
            kind, *rest = json.loads(message.data)
            if kind == "stdin":
                typed.append(rest[0])
                await ws.send_bytes(b"\x1b[6;1H\x1b[2Kgot " + repr(rest[0]).encode())
        return ws

    app = web.Application()
    app.router.add_get("/", index)
    app.router.add_get("/ws", socket)
    app.router.add_static("/static", STATIC)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        port = runner.addresses[0][1]
        yield f"http://127.0.0.1:{port}/", typed
    finally:
        await runner.cleanup()


@pytest.mark.browser
@pytest.mark.asyncio(loop_scope="module")
async def test_the_screen_is_read_and_a_click_lands_on_its_cell(context: BrowserContext) -> None:
    async with echo_page() as (url, typed), TermPage.open(context, url) as page:
        await page.shows("CLICK ★ ME")
        await page.assert_drawn()
        columns, rows = page.size
        assert columns > 80 and rows > 24, page.size  # the page's own size, from its resize frame
        assert page.find("ME") == (10 + len("CLICK ★ "), 3)  # the star is one cell here
        await page.click_text("ME", offset=1)
        # xterm's reports, press then release: the E, column 20, row 4 (from 1).
        await page.wait_until(
            lambda: typed[-2:] == ["\x1b[<0;20;4M", "\x1b[<0;20;4m"], "the click's report"
        )
        await page.type("hi")
        await page.wait_until(lambda: "".join(typed).endswith("hi"), "the typed keys")


def test_a_one_colour_picture_is_told_from_a_drawing() -> None:
    blank = _png(4, 3, [[(9, 9, 9)] * 4] * 3)
    drawn = _png(
        4, 3, [[(9, 9, 9)] * 4, [(9, 9, 9), (200, 10, 10), (9, 9, 9), (9, 9, 9)], [(9, 9, 9)] * 4]
    )
    assert colour_count(blank) == 1
    assert colour_count(drawn) == 2


def _png(width: int, height: int, rows: list[list[tuple[int, int, int]]]) -> bytes:
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    # Filter "Sub" on every row, as encoders use: a decoder that skips it sees other colours.
    raw = b""
    for row in rows:
        flat = [value for pixel in row for value in pixel]
        raw += b"\x01" + bytes(
            (flat[i] - (flat[i - 3] if i >= 3 else 0)) & 0xFF for i in range(len(flat))
        )
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )
