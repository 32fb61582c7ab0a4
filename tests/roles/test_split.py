"""One lobby process, two door-host processes (``skyjo-server --role lobby`` and
``--role doors``), SSH players on both at one table: a door host killed, its player
back through the other at the same seat; the lobby killed and restarted, every player
back with no move lost; a browser's cookie the same player on either door host; a key
banned at the lobby refused by a door host's SSH; a wrong secret and a stranger
claiming an identity refused."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import urllib.request
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from server.protocol import HEADER, HEADER_SIZE, decode_body, encode_frame

from ..server.processes import client
from ..ssh.sshkit import Term, closing, connect, open_terminal
from ..web.doorclient import door_client, page_cookie
from .processes import WAIT, DoorHost, Lobby


@pytest.fixture
def lobby(tmp_path: Path, secret: Path) -> Iterator[Lobby]:
    process = Lobby(tmp_path / "lobby", secret, tmp_path / "lobby.log")
    try:
        yield process
    finally:
        process.kill()


def door_host(
    tmp_path: Path, name: str, lobby: Lobby, secret: Path, *extra: str, web: bool = False
) -> DoorHost:
    data = tmp_path / name
    data.mkdir()
    first = tmp_path / "door-a" / "ssh_host_ed25519_key"
    if first.exists():  # one host key for every door host: copied, as docs/scaling.md says
        shutil.copy(first, data / first.name)
    return DoorHost(name, lobby.port, secret, data, tmp_path / f"{name}.log", extra, web=web)


@pytest.fixture
def doors(tmp_path: Path, lobby: Lobby, secret: Path) -> Iterator[tuple[DoorHost, DoorHost]]:
    started: list[DoorHost] = []
    try:
        started.append(door_host(tmp_path, "door-a", lobby, secret, web=True))
        started.append(door_host(tmp_path, "door-b", lobby, secret, web=True))
        for door in started:
            door.wait_for("linked to the lobby")
        yield started[0], started[1]
    finally:
        for door in started:
            door.kill()


class Player:
    """An SSH player with a key of their own (their identity)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.key = asyncssh.generate_private_key("ssh-ed25519")

    @property
    def identity(self) -> str:
        return "ssh-key:" + self.key.get_fingerprint("sha256")

    @contextlib.asynccontextmanager
    async def through(self, door: DoorHost) -> AsyncIterator[Term]:
        """Playing through ``door`` (the user name is the name to play as)."""
        conn = await connect(door.ssh_port, self.name, client_keys=[self.key])
        async with closing(conn), open_terminal(conn, term_size=(100, 32)) as term:
            yield term


async def press(term: Term, keys: bytes, then: str) -> str:
    term.press(keys)
    await term.shows(then)
    return term.screen.text


def online(lobby: Lobby) -> dict[str, dict[str, Any]]:
    """``skyjo-server admin players``, by name."""
    players = lobby.admin("players")["players"]
    assert isinstance(players, list)
    return {p["name"]: p for p in players}


async def tableaux(lobby: Lobby, table_id: str) -> list[Any]:
    """Every card on the table as a watcher over TCP sees it (face down: None)."""
    watcher = await client(lobby.port, name="Watcher")
    try:
        await watcher.request("spectate", table_id=table_id)
        game = await watcher.push("game")
        await watcher.request("leave_table")
        return [t["cards"] for t in game["view"]["tableaux"]]
    finally:
        await watcher.close()


async def test_players_on_two_door_hosts_play_on_and_come_back_through_either(
    lobby: Lobby, doors: tuple[DoorHost, DoorHost]
) -> None:
    door_a, door_b = doors
    assert door_a.host_key == door_b.host_key  # the copied key: known_hosts holds for both
    ann, bob = Player("Ann"), Player("Bob")
    async with contextlib.AsyncExitStack() as stack:
        ann_a = await stack.enter_async_context(ann.through(door_a))
        await ann_a.shows("Lobby")
        await press(ann_a, b"n", "New table")
        await press(ann_a, b"\x13", "You are the host")
        bob_b = await stack.enter_async_context(bob.through(door_b))
        await bob_b.shows("Ann")  # her table, in the lobby's list
        await press(bob_b, b"\r", "Ready")
        bob_b.press(b"r")
        await ann_a.shows("✓")  # Bob is ready, as Ann sees it
        await press(ann_a, b"s", "Turn up a card")
        await bob_b.shows("Turn up a card")

        seen = online(lobby)
        assert {
            n: (p["door"], p["door_host"], p["identity"], p["address"]) for n, p in seen.items()
        } == {
            "Ann": ("ssh", "door-a", ann.identity, "127.0.0.1"),
            "Bob": ("ssh", "door-b", bob.identity, "127.0.0.1"),
        }
        # The admin's words reach a door host's player's screen.
        lobby.admin("announce", "Maintenance at noon")
        await bob_b.wait_for("Maintenance at noon")
        table_id = seen["Ann"]["where"].removeprefix("at ")
        assert seen["Bob"]["where"] == f"at {table_id}"
        ann_a.press(b"\r")  # Ann turns up a card: a move the lobby must keep
        await _until_face_up(lobby, table_id, 1)

        door_a.kill()  # kill -9: Ann's screen goes with it
        with contextlib.suppress(AssertionError, asyncssh.Error):  # read to its end
            await ann_a.wait_until(lambda text: False, "the end", timeout=WAIT)

        ann_b = await stack.enter_async_context(ann.through(door_b))
        await ann_b.shows("Turn up a card")  # back at her seat, in the game
        assert online(lobby)["Ann"]["door_host"] == "door-b"
        assert online(lobby)["Ann"]["where"] == f"at {table_id}"
        before = await tableaux(lobby, table_id)

        mark = ann_b.mark()
        lobby.restart()  # kill -9 and start again on its data directory
        await ann_b.wait_for("reconnecting", since=mark)  # her screen stayed, and said so
        await _until_online(lobby, {"Ann", "Bob"})
        assert await tableaux(lobby, table_id) == before  # no move lost
        ann_b.press(b"\x1b[C\r")  # the next card: the game goes on, through the door host
        await _until_face_up(lobby, table_id, 2)


async def _until_face_up(lobby: Lobby, table_id: str, count: int) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while (
        sum(card is not None for cards in await tableaux(lobby, table_id) for card in cards) < count
    ):
        assert loop.time() < deadline, "the move never reached the lobby"
        await asyncio.sleep(0.2)


async def _until_online(lobby: Lobby, names: set[str]) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not names <= set(online(lobby)):
        assert loop.time() < deadline, f"{names} never came back: {online(lobby)}"
        await asyncio.sleep(0.2)


def scrape(port: int) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=WAIT) as answer:
        text: str = answer.read().decode()
        return text


async def _frame(reader: asyncio.StreamReader) -> dict[str, Any]:
    (length,) = HEADER.unpack(await asyncio.wait_for(reader.readexactly(HEADER_SIZE), WAIT))
    message: dict[str, Any] = decode_body(await asyncio.wait_for(reader.readexactly(length), WAIT))
    return message


async def test_a_wrong_secret_and_a_stranger_claiming_an_identity_are_refused_and_logged(
    tmp_path: Path, lobby: Lobby
) -> None:
    # A plain TCP client that asks for a nonce and claims someone's key without the secret.
    reader, writer = await asyncio.open_connection("127.0.0.1", lobby.port)
    try:
        writer.write(encode_frame({"type": "door_challenge", "id": 1}))
        assert (await _frame(reader))["type"] == "ok"
        claim = {
            "type": "door_claim",
            "id": 2,
            "version": 1,
            "proof": "00" * 32,
            "host": "door-x",
            "door": "ssh",
            "identity": "ssh-key:SHA256:someone-else",
            "address": "203.0.113.9",
        }
        writer.write(encode_frame(claim))
        bye = await _frame(reader)
        assert (bye["type"], bye["code"]) == ("bye", "door_refused")
        assert "wrong door secret" in bye["message"]
        assert await asyncio.wait_for(reader.read(), WAIT) == b""  # and closed
    finally:
        writer.close()

    # A door host with another secret: it says why, and plays nobody.
    wrong = tmp_path / "wrong-secret"
    wrong.write_text("another secret, long enough\n")
    data = tmp_path / "door-w"
    data.mkdir()
    door = DoorHost("door-w", lobby.port, wrong, data, tmp_path / "door-w.log")
    try:
        said = r"the lobby at 127\.0\.0\.1:\d+ says: this lobby refused the door host: wrong"
        door.wait_for(said)
    finally:
        door.kill()
    log = lobby.log.read_text()
    # One counted line for the stranger and the door host's tries, no traceback.
    assert log.count("door claims refused") == 1, log
    assert "Traceback" not in log
    assert "ssh-key:SHA256:someone-else" not in str(online(lobby))


async def test_a_key_banned_at_the_lobby_is_refused_by_the_door_hosts_ssh(
    tmp_path: Path, lobby: Lobby, secret: Path
) -> None:
    door = door_host(tmp_path, "door-a", lobby, secret, "--metrics-port", "0")
    try:
        door.wait_for("linked to the lobby")
        # Its own metrics: its screens and its link, no lobby's.
        metrics_port = int(door.wait_for(r"metrics on http://127\.0\.0\.1:(\d+)/").group(1))
        metrics = await asyncio.to_thread(scrape, metrics_port)
        assert "skyjo_lobby_linked 1.0" in metrics and "skyjo_terminal_sessions{" in metrics
        assert "skyjo_tables" not in metrics
        cleo = Player("Cleo")
        lobby.admin("ban", "key", cleo.identity.removeprefix("ssh-key:"))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT
        while True:  # the ban reaches the door host's copy at once (a push on its link)
            try:
                async with cleo.through(door):
                    pass
            except asyncssh.PermissionDenied:
                break
            assert loop.time() < deadline, "the banned key still logs in"
            await asyncio.sleep(0.1)
        assert "banned key SHA256:" in door.log.read_text()
    finally:
        door.kill()


async def test_a_browsers_cookie_is_the_same_player_on_every_door_host(
    lobby: Lobby, doors: tuple[DoorHost, DoorHost]
) -> None:
    door_a, door_b = doors
    cookie, _ = await page_cookie(door_a.web_url)
    origin_a = {"Origin": door_a.web_url.rstrip("/")}
    async with door_client(door_a.web_url, cookies={"skyjo_id": cookie}, headers=origin_a) as wes:
        await wes.shows("Choose your name")
        await wes.type("Wes\r")
        await wes.shows("Lobby")
        await wes.type("n")
        await wes.shows("New table")
        await wes.type("\x13")  # ctrl+s: create, seated at it
        await wes.shows("Wes's table · code")
    # The same browser, sent to the other door host: Wes, at his table, no question.
    origin_b = {"Origin": door_b.web_url.rstrip("/")}
    async with door_client(door_b.web_url, cookies={"skyjo_id": cookie}, headers=origin_b) as wes:
        screen = await wes.shows("Wes's table · code")
        assert "Choose your name" not in screen
        seen = online(lobby)["Wes"]
        assert (seen["door"], seen["door_host"]) == ("web", "door-b")
        assert str(seen["identity"]).startswith("web:") and cookie not in str(seen)
