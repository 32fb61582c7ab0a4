"""Skyjo in a real browser: headless Chromium on the browser door's page.

What each step asserts is what a person sees on the page: the terminal's
text (read from the bytes the page received, see browserkit), the page's own
notices, and that the page drew.  Keys go where the page puts the keyboard.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from aiohttp import web
from playwright.async_api import Browser, BrowserContext

from server.bots import BOT_LEVELS
from skyjo_tui.names import default_level

from ..ssh.sshkit import poll_until
from ..ssh.test_openssh import press_until_gone
from ..ssh.tmuxkit import TmuxPane, openssh_command, tmux_pane, write_private_key
from .browserkit import IN_BROWSER, TIMEOUT, VIEWPORT, TermPage
from .webdoor import choose_name, my_card, open_table, prompt_of, web_door

pytestmark = [*IN_BROWSER, pytest.mark.timeout(240)]

SERVER = str(Path(sys.executable).with_name("skyjo-server"))

#: The bot the room adds at its default level (the middle of the ladder).
BOT = f"{default_level(list(BOT_LEVELS)).capitalize()} bot 1"


async def test_a_newcomer_names_themself_plays_by_keys_and_by_mouse_and_a_reload_returns_to_the_seat(
    tmp_path: Path, context: BrowserContext
) -> None:
    async with web_door(tmp_path) as door, TermPage.open(context, door.url) as page:
        await page.shows("Choose your name")
        await page.assert_drawn()
        columns, rows = page.size
        assert columns >= 120 and rows >= 36, page.size  # the page's terminal fills the window
        # The name, typed at once, without a click: the page gives the terminal the keyboard
        # (before it did, xterm.js told the app "focus out" and the keys went nowhere).
        await choose_name(page, "alice")
        await open_table(page)
        await page.press("b")
        await page.shows(BOT)
        await page.press("s")
        board = await page.shows("Turn up a card of your choice")
        assert "Pile" in board and "Discard" in board and "░░" in board  # face-down cards
        await page.assert_drawn()

        # The first flips: one by keys (the card under the cursor), one by a click.
        await page.press("Enter")
        await page.shows("You turned up")
        await page.click_cell(*face_down_card(page, "alice"))
        await page.wait_until(
            lambda: page.text.count("You turned up") == 2, "the second card turned up"
        )

        # A turn by mouse: click the draw pile, then one of the cards.
        await page.screen_until(
            lambda screen: prompt_of(screen).startswith("Your turn:"), "your turn"
        )
        column, row = page.find("Pile ")
        await page.click_cell(column + 2, row + 3)
        await page.screen_until(
            lambda screen: prompt_of(screen).startswith("You drew"), "the drawn card"
        )
        await page.click_cell(*my_card(page, "alice", column=3, row=2))
        await page.screen_until(
            lambda screen: "You kept the" in screen and prompt_of(screen).startswith("Your turn:"),
            "the card kept, then your turn again",
        )
        # A turn by keys: take the discard, put it where the cursor is.
        await page.press("t")
        await page.shows("Choose the card the")
        await page.press("Enter")
        await page.shows("You took the")

        # A reload: the same browser (its cookie) is back at its seat, the game as it was.
        first = page.connection
        await page.page.reload(timeout=TIMEOUT * 1000)
        await page.wait_until(lambda: page.connection is not first, "a new connection")
        screen = await page.shows("You took the")
        assert "Choose your name" not in screen and "Lobby" not in screen
        assert "You kept the" in screen and "Pile" in screen, screen
        await page.assert_drawn()


def face_down_card(page: TermPage, name: str) -> tuple[int, int]:
    """The middle of one of ``name``'s face-down cards, as the page shows it."""
    for column in range(4):
        for row in range(3):
            x, y = my_card(page, name, column, row)
            if page.lines[y][x : x + 1] == "░":
                return x, y
    raise AssertionError(f"{name} has no face-down card:\n{page.text}")


async def test_a_browser_player_and_an_ssh_player_at_one_table(
    tmp_path: Path, context: BrowserContext
) -> None:
    """alice in the browser opens a table; bob joins over OpenSSH (in tmux); each sees
    the other's move, the browser bob's answer."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    key_file = write_private_key(key.export_private_key(), tmp_path / "id_ed25519")
    async with (
        web_door(tmp_path / "server", ssh=True) as door,
        TermPage.open(context, door.url) as alice,
    ):
        async with tmux_pane(openssh_command(door.ssh_port, "bob", key_file)) as bob:
            await choose_name(alice, "alice")
            await open_table(alice)
            await bob.wait_for("Lobby · bob", TIMEOUT)
            # Listed: its row, the name then the seats column (the who-is-here line names
            # the table too, with no gap, and may come before the list).
            await bob.wait_for("alice's table  ", TIMEOUT)
            await bob.keys("Down")
            await ssh_press(bob, "Enter", "Press r when you are ready")
            await ssh_press(bob, "r", "person  ✓")
            await alice.shows("person  ✓")  # bob, ready, on alice's page
            await alice.press("s")

            await alice.shows("Turn up a card of your choice")
            await alice.press("Enter", "ArrowRight", "Enter")
            await bob.wait_for("Turn up a card of your choice", TIMEOUT)
            await bob.keys("Enter", "Right")
            await press_until_gone(bob, "Enter", "Turn up a card")
            await alice.gone("Turn up a card")

            if await whose_turn(alice, bob) == "bob":  # bob starts: his move first
                await take_the_discard_over_ssh(bob)
                await alice.shows("bob took the")
            # alice's move, by keys; bob sees it, and answers; alice's page shows his answer.
            await alice.screen_until(
                lambda screen: prompt_of(screen).startswith("Your turn:"), "her turn"
            )
            await alice.press("t")
            await alice.shows("Choose the card the")
            await alice.press("Enter")
            await alice.shows("You took the")
            moved = await bob.wait_for("alice took the", TIMEOUT)
            assert "alice" in moved and "Pile" in moved
            answers = alice.text.count("bob took the")
            await take_the_discard_over_ssh(bob)
            await alice.wait_until(
                lambda: alice.text.count("bob took the") > answers, "bob's answer"
            )
            await alice.screen_until(
                lambda screen: prompt_of(screen).startswith("Your turn:"), "her turn"
            )


async def whose_turn(page: TermPage, pane: TmuxPane) -> str:
    """ "alice" (the page) or "bob" (the pane): whose prompt says "Your turn:" first."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    while loop.time() < deadline:
        if prompt_of(page.text).startswith("Your turn:"):
            return "alice"
        if prompt_of(await pane.screen()).startswith("Your turn:"):
            return "bob"
        with contextlib.suppress(AssertionError):
            await page.wait_until(
                lambda: prompt_of(page.text).startswith("Your turn:"), "", timeout=0.2
            )
    raise AssertionError(f"nobody's turn:\n{page.text}\n\n{await pane.screen()}")


async def take_the_discard_over_ssh(pane: TmuxPane) -> None:
    """One whole turn in the terminal: take the discard, put it where the cursor is."""
    await pane.wait_until(
        lambda screen: prompt_of(screen).startswith("Your turn:"), "bob's turn", TIMEOUT
    )
    await ssh_press(pane, "t", "Choose the card the")
    await pane.keys("Enter")
    await pane.wait_gone("Choose the card the", TIMEOUT)


async def ssh_press(pane: TmuxPane, key: str, then: str) -> str:
    """Press ``key`` in the terminal; its screen once it shows ``then`` (bounded as the page's waits)."""
    await pane.keys(key)
    return await pane.wait_for(then, TIMEOUT)


OPEN_A_GAME = """(url) => new Promise((resolve) => {
    const ws = new WebSocket(url);
    let opened = false, frames = 0;
    ws.onopen = () => { opened = true; };
    ws.onmessage = () => { frames += 1; ws.close(); };
    ws.onclose = () => resolve({opened, frames});
})"""


@contextlib.asynccontextmanager
async def another_site() -> AsyncIterator[str]:
    """A page on another origin (another port of 127.0.0.1: the same site, so the
    browser sends the door's SameSite cookie with it): its URL."""

    async def index(request: web.Request) -> web.Response:
        return web.Response(
            text="<!DOCTYPE html><title>elsewhere</title>", content_type="text/html"
        )

    app = web.Application()
    app.router.add_get("/", index)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}/"
    finally:
        await runner.cleanup()


async def test_the_admin_sees_each_browser_and_ssh_player_s_own_address(
    tmp_path: Path, context: BrowserContext
) -> None:
    """``skyjo-server admin players`` says by which door and from which address each
    player came: a browser's and an SSH guest's (both were listed "in-process")."""
    async with (
        web_door(tmp_path / "server", ssh=True, admin=True) as door,
        TermPage.open(context, door.url) as alice,
        tmux_pane(openssh_command(door.ssh_port, "skyjo", None)) as bob,
    ):
        await choose_name(alice, "alice")
        await bob.wait_for("Choose your name", TIMEOUT)
        await bob.keys("bob", "Enter")
        await bob.wait_for("Lobby · bob", TIMEOUT)
        command = [SERVER, "admin", "--data-dir", str(door.server.config.data_path), "players"]
        admin = await asyncio.create_subprocess_exec(
            *command, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
        )
        out, err = await asyncio.wait_for(admin.communicate(), TIMEOUT)
        assert admin.returncode == 0, err.decode()
        rows = {line.split()[0]: line.split() for line in out.decode().splitlines()[1:]}
        # NAME WHERE DOOR IDENTITY ADDRESS: alice's identity is her page's cookie.
        assert rows["alice"][1:3] == ["lobby", "web"], out.decode()
        assert rows["alice"][-1] == "127.0.0.1", out.decode()
        assert rows["bob"] == ["bob", "lobby", "ssh", "-", "-", "127.0.0.1"], out.decode()


@pytest.mark.parametrize("allowed", [False, True], ids=["foreign", "allowed-by-the-operator"])
async def test_a_page_of_another_origin_cannot_open_a_game(
    tmp_path: Path, context: BrowserContext, allowed: bool
) -> None:
    async with another_site() as elsewhere:
        origins = (elsewhere.rstrip("/"),) if allowed else ()
        async with (
            web_door(tmp_path, origins=origins) as door,
            TermPage.open(context, door.url) as page,
        ):
            await page.shows("Choose your name")  # the player's own page: it has the cookie
            other = await context.new_page()
            await other.goto(elsewhere, timeout=TIMEOUT * 1000)
            game = door.url.replace("http://", "ws://") + "ws"
            result = await asyncio.wait_for(other.evaluate(OPEN_A_GAME, game), TIMEOUT)
            if allowed:  # the same script does open a game when the operator allows that origin
                assert result["opened"] and result["frames"] >= 1, result
            else:
                assert result == {"opened": False, "frames": 0}
                assert door.web.connections.total == 1  # the player's page only


@pytest.mark.parametrize(
    ("cap", "refusal"),
    [
        ("max_connections", "The server is full"),
        ("max_connections_per_address", "Too many connections from your address"),
    ],
)
async def test_the_caps_hold(tmp_path: Path, browser: Browser, cap: str, refusal: str) -> None:
    """One player at a cap of 1: the next reads why, and gets in once the first leaves."""
    caps: dict[str, Any] = {cap: 1}
    async with web_door(tmp_path, **caps) as door, contextlib.AsyncExitStack() as stack:
        pages = []
        for _ in range(2):
            context = await browser.new_context(viewport=VIEWPORT)  # two people

            async def close(context: BrowserContext = context) -> None:
                await asyncio.wait_for(context.close(), TIMEOUT)

            stack.push_async_callback(close)
            pages.append(await stack.enter_async_context(TermPage.open(context, door.url)))
            if len(pages) == 1:
                await pages[0].shows("Choose your name")
        first, second = pages
        await second.shows(refusal)  # in its terminal
        notice = second.page.locator("#door-refused-reason")
        await notice.wait_for(state="visible", timeout=TIMEOUT * 1000)
        assert refusal in await notice.inner_text()
        assert door.web.connections.total == 1
        assert "Choose your name" in first.text  # the player inside is undisturbed

        await first.page.close()  # the first leaves: a place is free
        await poll_until(
            lambda: door.web.connections.total == 0, "the first page's connection released"
        )
        await second.page.click("#door-try-again", timeout=TIMEOUT * 1000)
        await second.shows("Choose your name")


async def test_a_second_tab_takes_the_game_and_the_first_says_where_it_went(
    tmp_path: Path, context: BrowserContext
) -> None:
    """Two tabs of one browser (one cookie): the newer plays, the older says why it stopped
    and does not reconnect by itself (which would take the game back, and again)."""
    async with web_door(tmp_path) as door, TermPage.open(context, door.url) as first:
        await choose_name(first, "alice")
        async with TermPage.open(context, door.url) as second:
            await second.shows("Lobby · alice")
            notice = first.page.locator("#door-refused-reason")
            await notice.wait_for(state="visible", timeout=TIMEOUT * 1000)
            assert "opened in another tab or window" in await notice.inner_text()
            await open_table(second)  # the second one plays on
            assert len(first.connections) == 1  # the first stayed closed
