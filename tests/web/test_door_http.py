"""The browser door's HTTP side, through a real server and aiohttp's real client:
the page, its headers and cookie, the assets, the request deadline."""

from __future__ import annotations

import asyncio
import ipaddress
import json
import struct
from pathlib import Path

import aiohttp
import pytest

from server.web.door import terminal_assets_dir

from .doorclient import page_cookie
from .webdoor import web_door

LOOPBACK = (ipaddress.ip_network("127.0.0.1/32"),)


async def test_the_page_comes_with_a_strict_policy_and_a_private_cookie(tmp_path: Path) -> None:
    async with web_door(tmp_path) as door, aiohttp.ClientSession() as session:
        async with session.get(door.url) as reply:
            assert reply.status == 200
            assert reply.content_type == "text/html"
            page = await reply.text()
            policy = reply.headers["Content-Security-Policy"]
            cookie_line = reply.headers["Set-Cookie"]
            assert reply.headers["X-Content-Type-Options"] == "nosniff"
            assert reply.headers["Referrer-Policy"] == "no-referrer"
        for directive in (
            "default-src 'none'",
            "script-src 'self'",
            "connect-src 'self'",
            "frame-ancestors 'none'",
            "base-uri 'none'",
            "form-action 'none'",
        ):
            assert directive in policy
        assert "unsafe-eval" not in policy and "script-src 'self' 'unsafe-inline'" not in policy
        # The page loads only this server's files: no font or script from elsewhere.
        assert "http" not in page.replace("http-equiv", "")
        assert "textual-terminal" in page and "/static/js/textual.js" in page
        attributes = [part.strip().lower() for part in cookie_line.split(";")]
        assert attributes[0].startswith("skyjo_id=") and len(attributes[0]) == len("skyjo_id=") + 43
        assert (
            "httponly" in attributes and "samesite=strict" in attributes and "path=/" in attributes
        )
        assert "secure" not in attributes  # plain http: a Secure cookie would never come back
        # A browser that has its cookie keeps it: no new one.
        value = attributes[0].split("=", 1)[1]
        async with session.get(door.url, headers={"Cookie": f"skyjo_id={value}"}) as again:
            assert "Set-Cookie" not in again.headers


async def test_the_terminal_is_served_from_the_installed_textual_serve(tmp_path: Path) -> None:
    assets = terminal_assets_dir()
    async with web_door(tmp_path) as door, aiohttp.ClientSession() as session:
        for path, kind in (
            ("static/js/textual.js", "application/javascript"),
            ("static/css/xterm.css", "text/css"),
            ("static/fonts/RobotoMono-VariableFont_wght.ttf", "font/ttf"),
        ):
            async with session.get(door.url + path) as reply:
                assert reply.status == 200, path
                assert reply.content_type == kind
                assert await reply.read() == (assets / path.removeprefix("static/")).read_bytes()
                assert "Content-Security-Policy" in reply.headers
        for own in ("door.js", "door.css"):
            async with session.get(door.url + own) as reply:
                assert reply.status == 200, own
        # Only what the page uses: not textual-serve's whole directory.
        async with session.get(door.url + "static/images/background.png") as reply:
            assert reply.status == 404
        async with session.get(door.url + "healthz") as reply:
            assert reply.status == 200


async def test_a_cookie_is_secure_only_behind_a_trusted_https_proxy(tmp_path: Path) -> None:
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "play.example.org"}
    async with web_door(tmp_path) as door:
        _, line = await page_cookie(door.url, forwarded)
        assert "secure" not in line.lower()  # nobody said this peer is a proxy
    async with web_door(tmp_path, trusted_proxies=LOOPBACK) as door:
        _, line = await page_cookie(door.url, forwarded)
        assert "secure" in [part.strip().lower() for part in line.split(";")]


async def test_a_request_sent_too_slowly_is_dropped_at_the_deadline(tmp_path: Path) -> None:
    """Slow headers (slowloris) do not hold a connection past the handshake deadline."""
    async with web_door(tmp_path, handshake_timeout=0.5) as door:
        reader, writer = await asyncio.open_connection("127.0.0.1", door.web.port)
        try:
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            dropped = False
            for _ in range(200):  # 20 s of trickle at most (200 bytes: within every size cap)
                try:
                    writer.write(b"a")
                    await writer.drain()
                    if await asyncio.wait_for(reader.read(1024), 0.1) == b"":
                        dropped = True
                        break
                except TimeoutError:
                    continue
                except ConnectionError:
                    dropped = True
                    break
            assert dropped, "the connection was still open after 20 s of slow headers"
        finally:
            writer.close()


@pytest.mark.parametrize("header", ["https://play.example.org", "http://127.0.0.1:1/x", "null"])
def test_web_origin_options_are_checked_at_the_command_line(header: str) -> None:
    from server.cli import build_parser

    parser = build_parser()
    if header == "https://play.example.org":
        assert parser.parse_args(["--web-origin", header]).web_origin == [
            "https://play.example.org:443"
        ]
    else:
        with pytest.raises(SystemExit):
            parser.parse_args(["--web-origin", header])


async def test_add_to_home_screen_gets_a_full_screen_skyjo_with_its_icon(tmp_path: Path) -> None:
    """The page names its manifest, which the policy lets the browser load; the manifest
    opens the game full screen, with icons the door serves."""
    async with web_door(tmp_path) as door, aiohttp.ClientSession() as session:
        async with session.get(door.url) as reply:
            page = await reply.text()
            assert "manifest-src 'self'" in reply.headers["Content-Security-Policy"]
        assert '<link rel="manifest" href="/manifest.webmanifest"' in page
        async with session.get(door.url + "manifest.webmanifest") as reply:
            assert reply.status == 200 and reply.content_type == "application/manifest+json"
            manifest = json.loads(await reply.read())
        assert manifest["name"] == "Skyjo" and manifest["display"] == "fullscreen"
        assert manifest["start_url"] == "/"
        sizes = set()
        for icon in manifest["icons"]:
            async with session.get(door.url + icon["src"].lstrip("/")) as reply:
                assert reply.status == 200 and reply.content_type == icon["type"], icon
                body = await reply.read()
            if icon["type"] == "image/png":
                width, height = struct.unpack(">II", body[16:24])  # the PNG's IHDR
                assert f"{width}x{height}" == icon["sizes"]
                sizes.add(width)
        assert {192, 512} <= sizes  # what Android asks of an installable page


async def test_a_tables_link_serves_the_page_and_nothing_else_does(tmp_path: Path) -> None:
    async with web_door(tmp_path) as door, aiohttp.ClientSession() as session:
        async with session.get(door.url) as reply:
            page = await reply.read()
        async with session.get(door.url + "t/KXQPTW") as reply:
            assert reply.status == 200 and await reply.read() == page
        for wrong in ("t/KXQ", "t/KXQPTW1", "t/KX%3CPTW", "t/"):
            async with session.get(door.url + wrong) as reply:
                assert reply.status == 404, wrong
