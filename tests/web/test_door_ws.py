"""The game's WebSocket, through a real server and aiohttp's real client: the app
answers keys, the cookie is the player, and the door's limits hold."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import re
from pathlib import Path

import aiohttp
import pytest

from server.termhost import HostLimits
from skyjo_tui.i18n import LANGUAGES, Translator

from ..ssh.sshkit import poll_until
from .doorclient import DoorClient, door_client, page_cookie
from .webdoor import web_door

NAME_PROMPT = "Choose your name"
LOBBY = "No public table yet"
LOOPBACK = (ipaddress.ip_network("127.0.0.1/32"),)


async def _sign_in(client: DoorClient, name: str) -> None:
    await client.shows(NAME_PROMPT)
    await client.type(name + "\r")
    await client.shows(LOBBY)


def _only_pongs(client: DoorClient) -> None:
    """textual.js opens windows and downloads on other text frames: never any."""
    for frame in client.text_frames:
        assert json.loads(frame)[0] == "pong", frame


async def test_keys_reach_the_app_and_only_pongs_come_back_as_text(tmp_path: Path) -> None:
    async with web_door(tmp_path) as door, door_client(door.url) as client:
        await client.send(["ping", "1234"])
        await client.send(["focus"])
        await _sign_in(client, "zoe")
        assert "zoe" in client.text
        assert json.dumps(["pong", "1234"]) in client.text_frames
        _only_pongs(client)


async def test_each_browser_gets_the_game_in_its_own_language(tmp_path: Path) -> None:
    """The language comes from the page's request (Accept-Language), as skyjo-server's
    app reads it, never from the server: one server, a browser of each language in turn."""
    browsers = {
        "de": "de-AT,de;q=0.9,en;q=0.5",
        "en": "en-US,en;q=0.9",
        "es": "es-MX,es;q=0.9",
        "fr": "fr-CA,fr;q=0.8,en;q=0.5",
        "it": "it,en;q=0.7",
        "nl": "nl-BE,nl;q=0.9,fr;q=0.8",
    }
    assert set(browsers) == set(LANGUAGES)
    async with web_door(tmp_path, app_options={"pace": "off", "lang": None}) as door:
        for lang, accepted in browsers.items():
            headers = {"Accept-Language": accepted}
            async with door_client(door.url, headers=headers) as client:
                await client.shows(Translator(lang)("name.title"))


async def test_the_same_cookie_brings_the_player_back_and_owns_the_name(tmp_path: Path) -> None:
    async with web_door(tmp_path) as door:
        secret, _ = await page_cookie(door.url)
        origin = {"Origin": door.url.rstrip("/")}
        async with door_client(door.url, cookies={"skyjo_id": secret}, headers=origin) as first:
            await _sign_in(first, "alice")
            await first.type("n")  # a new table, seated at it
            await first.shows("New table")
            await first.type("\x13")  # ctrl+s: create
            await first.shows("alice's table · code")
        # A reload, a closed tab: the same cookie is alice again, with no question,
        # back in her seat at her table.
        async with door_client(door.url, cookies={"skyjo_id": secret}, headers=origin) as back:
            screen = await back.shows("alice's table · code")
            assert NAME_PROMPT not in screen
            assert "alice ★" in screen
        # Another browser (another cookie) may not take alice's name.
        other, _ = await page_cookie(door.url)
        async with door_client(door.url, cookies={"skyjo_id": other}) as stranger:
            await stranger.shows(NAME_PROMPT)
            await stranger.type("alice\r")
            await stranger.shows("That name belongs to another player")


async def test_a_foreign_origin_is_refused_before_the_upgrade(tmp_path: Path) -> None:
    async with web_door(tmp_path, origins=("https://play.example.org:443",)) as door:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            async with door_client(door.url, headers={"Origin": "https://evil.example"}):
                pass
        assert refused.value.status == 403
        own = door.url.rstrip("/")
        for allowed in ({"Origin": own}, {"Origin": "https://play.example.org"}, {}):
            async with door_client(door.url, headers=allowed) as client:
                await client.shows(NAME_PROMPT)


async def test_the_cap_per_address_refuses_the_next_with_its_reason(tmp_path: Path) -> None:
    async with web_door(tmp_path, max_connections_per_address=2) as door:
        async with door_client(door.url) as one, door_client(door.url) as two:
            await one.shows(NAME_PROMPT)
            async with door_client(door.url) as third:
                assert await third.closed() == 1013
                assert third.ws.close_code == 1013
                assert "Too many connections from your address." in third.text
            # The admitted ones are unaffected.
            await _sign_in(two, "bea")
        # Freed seats admit again.
        async with door_client(door.url) as again:
            await again.shows(NAME_PROMPT)


async def test_the_cap_in_total_refuses_the_next(tmp_path: Path) -> None:
    async with web_door(tmp_path, max_connections=1) as door:
        async with door_client(door.url) as one:
            await one.shows(NAME_PROMPT)
            async with door_client(door.url) as second:
                assert await second.closed() == 1013
                assert "The server is full right now" in second.text
            await _sign_in(one, "cleo")


async def test_a_full_host_refuses_with_its_reason_not_a_failure(tmp_path: Path) -> None:
    """--max-screens counts every door: past it the page is told, not sent reconnecting."""
    async with web_door(tmp_path, limits=HostLimits(stop_timeout=3.0, max_sessions=1)) as door:
        async with door_client(door.url) as one:
            await one.shows(NAME_PROMPT)
            async with door_client(door.url) as second:
                assert await second.closed() == 1013
                assert "The server is full right now" in second.text
            await _sign_in(one, "hal")


async def test_forwarded_for_counts_only_from_a_trusted_proxy(tmp_path: Path) -> None:
    def via(address: str) -> dict[str, str]:
        return {"X-Forwarded-For": address}

    async with web_door(tmp_path, max_connections_per_address=1, trusted_proxies=LOOPBACK) as door:
        # Two players behind the proxy, each with their own address: both admitted.
        async with (
            door_client(door.url, headers=via("192.0.2.1")) as one,
            door_client(door.url, headers=via("198.51.100.2")) as two,
        ):
            await one.shows(NAME_PROMPT)
            await two.shows(NAME_PROMPT)
            async with door_client(door.url, headers=via("192.0.2.1")) as same:
                assert await same.closed() == 1013
    async with web_door(tmp_path, max_connections_per_address=1) as door:
        # Untrusted: the header is the client's own claim and changes nothing.
        async with door_client(door.url, headers=via("192.0.2.1")) as one:
            await one.shows(NAME_PROMPT)
            async with door_client(door.url, headers=via("198.51.100.2")) as two:
                assert await two.closed() == 1013


async def test_an_oversized_message_closes_only_its_connection(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with web_door(tmp_path, max_message=64 * 1024) as door:
        async with door_client(door.url) as big, door_client(door.url) as other:
            await big.shows(NAME_PROMPT)
            await other.shows(NAME_PROMPT)
            await big.type("x" * (70 * 1024))
            assert await big.closed() == 1009
            await _sign_in(other, "dora")
    # The log says the limit that holds (aiohttp's words said one byte more).
    (said,) = [r.getMessage() for r in caplog.records if "(1009)" in r.getMessage()]
    assert said.endswith("closed: a message over 65536 bytes (1009)"), said


async def test_garbage_is_ignored_then_the_connection_is_closed(tmp_path: Path) -> None:
    async with web_door(tmp_path, max_bad_messages=5) as door, door_client(door.url) as client:
        await client.shows(NAME_PROMPT)
        for garbage in ("not json", "[]", '["open_url", "x"]', '{"stdin": 1}'):
            await client.ws.send_str(garbage)
        await client.type("eve")  # still playing after 4 bad messages
        await client.shows("eve")
        await client.ws.send_bytes(b"\x00")
        assert await client.closed() == 1008


async def test_stopping_the_server_sends_pages_away_with_1001(tmp_path: Path) -> None:
    async with web_door(tmp_path) as door:
        client_cm = door_client(door.url)
        client = await client_cm.__aenter__()
        try:
            await client.shows(NAME_PROMPT)
            stopping = asyncio.create_task(door.server.stop())
            assert await client.closed() == 1001
            await stopping
        finally:
            await client_cm.__aexit__(None, None, None)


async def test_quitting_the_game_ends_the_session_with_1000(tmp_path: Path) -> None:
    async with web_door(tmp_path) as door, door_client(door.url) as client:
        await client.shows(NAME_PROMPT)
        await client.type("\x11")  # ctrl+q
        assert await client.closed() == 1000


async def test_a_flood_of_input_is_held_back_and_others_play_on(tmp_path: Path) -> None:
    """Over the host's input budget the door stops reading: aiohttp's queue fills, TCP
    pushes back on the flooder, and the server never takes in more than it can."""
    limits = HostLimits(stop_timeout=3.0, input_rate=1000, input_burst=1000)
    async with web_door(tmp_path, limits=limits) as door:
        async with door_client(door.url) as flooder, door_client(door.url) as other:
            await flooder.shows(NAME_PROMPT)
            chunk = "x" * (60 * 1024)

            async def flood() -> None:
                # 24 MB: hours at 1000 characters a second, and more than the
                # kernel's socket buffers on loopback hold.
                for _ in range(400):
                    await flooder.type(chunk)

            flooding = asyncio.create_task(flood())
            try:
                await _sign_in(other, "fay")
                # Still sending: the server is not reading it as fast as it comes.
                assert not flooding.done()
            finally:
                flooding.cancel()
                await asyncio.gather(flooding, return_exceptions=True)


async def test_a_browser_that_vanished_is_noticed_by_the_heartbeat(tmp_path: Path) -> None:
    async with web_door(tmp_path, heartbeat=1.0) as door:
        async with door_client(door.url, autoping=False) as silent:
            # It never answers a ping: the door drops it (bounded by TIMEOUT),
            # and its app stops (the seat is kept, as for any lost connection).
            await silent.closed()
            assert silent.ws.close_code == 1006


async def test_browsers_dropped_by_the_heartbeat_are_counted_in_one_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Three browsers that never answer a ping: each drop is said at INFO, and the WARNING
    line counts them, once (a stranger's many non-readers once wrote a WARNING each)."""
    caplog.set_level(logging.INFO)
    async with web_door(tmp_path, heartbeat=1.0) as door:
        async with contextlib.AsyncExitStack() as stack:
            silent = [
                await stack.enter_async_context(door_client(door.url, autoping=False))
                for _ in range(3)
            ]
            assert [await each.closed() for each in silent] == [1006] * 3
    said = [r for r in caplog.records if "dropped: no answer to a ping in" in r.getMessage()]
    assert [r.levelno for r in said] == [logging.INFO] * 3, [r.getMessage() for r in said]
    warned = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warned) == 1 and "dropped: no answer to a ping (they" in warned[0], warned
    assert door.web.non_readers.count == 3


async def test_a_session_that_ends_while_its_input_is_held_back_frees_its_place(
    tmp_path: Path,
) -> None:
    """The app stops (here: idle) while the budget holds the door back: the
    connection still closes and its place under the caps is given back."""
    limits = HostLimits(stop_timeout=3.0, input_rate=10, input_burst=10, idle_timeout=1.0)
    async with web_door(tmp_path, limits=limits, max_connections_per_address=1) as door:
        async with door_client(door.url) as held:
            await held.type("x" * 400)  # 40 s of budget: the door pauses at once
            await held.type("y")
            assert await held.closed() == 1000  # idle, while held back
        # Its place is free: the next one is admitted (not refused with 1013), and
        # meets the same idle end.
        async with door_client(door.url) as next_one:
            assert await next_one.closed() == 1000
            assert "without a key press" in next_one.text


async def test_behind_a_trusted_tls_proxy_the_https_page_may_play(tmp_path: Path) -> None:
    """The proxy's Host and X-Forwarded-Proto make https://play.example.org the page's origin."""
    proxied = {
        "Host": "play.example.org",
        "X-Forwarded-Proto": "https",
        "Origin": "https://play.example.org",
    }
    async with web_door(tmp_path) as door:
        with pytest.raises(aiohttp.WSServerHandshakeError):  # the proxy is not trusted
            async with door_client(door.url, headers=proxied):
                pass
    async with web_door(tmp_path, trusted_proxies=LOOPBACK) as door:
        async with door_client(door.url, headers=proxied) as client:
            await client.shows(NAME_PROMPT)


async def test_a_second_tab_of_the_same_player_closes_the_first_and_says_why(
    tmp_path: Path,
) -> None:
    async with web_door(tmp_path) as door:
        secret, _ = await page_cookie(door.url)
        cookie = {"skyjo_id": secret}
        async with door_client(door.url, cookies=cookie) as first:
            await _sign_in(first, "alice")
            async with door_client(door.url, cookies=cookie) as second:
                # The first page hears why, and is closed: one page plays a seat.
                assert await first.closed() == 1008
                assert "opened in another tab or window" in first.text
                screen = await second.shows("Lobby · alice")
                assert NAME_PROMPT not in screen
                await second.type("n")  # the second one plays on
                await second.shows("New table")
            # A guest (no cookie) is nobody's second tab.
            async with door_client(door.url) as guest, door_client(door.url) as another:
                await guest.shows(NAME_PROMPT)
                await another.shows(NAME_PROMPT)
                assert not guest.ws.closed


async def test_a_cookieless_guest_replaced_by_another_tab_is_offered_quit_not_a_loop(
    tmp_path: Path,
) -> None:
    """A tab without a cookie (no key to know it by) sits as Dora; another tab takes her
    seat with her name and return code. The first says so and offers Quit: never a
    Reconnect that answers "the server no longer knows this player" and offers itself
    again (the new login replaced her token)."""
    async with web_door(tmp_path) as door:
        async with door_client(door.url) as first:
            await _sign_in(first, "Dora")
            await first.type("n")
            await first.shows("New table")
            await first.type("\x13")  # ctrl+s: open it
            code = re.compile(r"return code:?\s+([2-9A-Z]{4}-[2-9A-Z]{4})")

            def room_code() -> re.Match[str] | None:  # the room's words may wrap
                return code.search(" ".join(first.text.split()))

            await poll_until(lambda: room_code() is not None, "the return code")
            found = room_code()
            assert found is not None
            async with door_client(door.url) as second:
                await second.shows(NAME_PROMPT)
                await second.type("\x15Dora\t" + found.group(1) + "\r")  # ctrl+u: a new name
                await second.shows("You are the host")
                told = await first.shows("You connected again from")
                assert "Reconnect" not in told, told
                await first.type("q")
                assert await first.closed() == 1000
