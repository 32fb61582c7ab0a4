"""``skyjo-server admin``: the admin socket of a real server, over a real Unix socket.

A real ``SkyjoServer`` on 127.0.0.1 (port 0) with its ``AdminDoor``, real
SQLite, real clients; the admin side is ``server.admin.cli.ask`` (what the
command sends) or the command itself in a subprocess.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import stat
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from server.admin import door as admin_door
from server.admin.cli import ask
from server.admin.door import AdminDoor
from server.admin.socketfile import UnsafeAdminSocket, admin_socket_path
from server.app import SkyjoServer
from server.netclient import ConnectionLost, ServerConnection, ServerError

from .support import WAIT, Client, server_config, table_with

SERVER = Path(sys.executable).with_name("skyjo-server")
KEY = "SHA256:" + "k" * 43


async def start_with_admin(data_dir: Path) -> SkyjoServer:
    server = SkyjoServer(server_config(data_dir))
    server.add_front_door(AdminDoor())
    await server.start()
    return server


@pytest.fixture
async def admin_server(tmp_path: Path) -> AsyncIterator[Callable[[], Awaitable[SkyjoServer]]]:
    """Start servers with an admin socket on ``tmp_path/data`` (one at a time); all stopped."""
    started: list[SkyjoServer] = []

    async def start() -> SkyjoServer:
        server = await start_with_admin(tmp_path / "data")
        started.append(server)
        return server

    yield start
    for server in started:
        await server.stop()


async def admin(server: SkyjoServer, command: str, **fields: Any) -> dict[str, Any]:
    """What ``skyjo-server admin COMMAND`` gets back (run off the event loop, as it is a client)."""
    path = admin_socket_path(server.config.data_path)
    return await asyncio.to_thread(ask, path, {"command": command, **fields}, WAIT)


async def result(server: SkyjoServer, command: str, **fields: Any) -> dict[str, Any]:
    reply = await admin(server, command, **fields)
    assert reply["ok"], reply
    return reply["result"]


@pytest.fixture
async def clients() -> AsyncIterator[list[Client]]:
    opened: list[Client] = []
    yield opened
    for client in opened:
        await client.close()


async def join(server: SkyjoServer, opened: list[Client], name: str | None, **hello: Any) -> Client:
    """A client of ``server``, welcomed with ``name`` or ``hello``'s fields (if any); closed after."""
    client = await Client.connect(server)
    opened.append(client)  # closed after the test even when its hello is refused
    if name is not None or hello:
        client.welcome = await client.conn.hello(name=name, **hello)
    return client


# -- the socket itself ---------------------------------------------------------------------


async def test_the_socket_is_the_server_users_alone(admin_server) -> None:
    server = await admin_server()
    path = admin_socket_path(server.config.data_path)
    assert stat.S_ISSOCK(os.lstat(path).st_mode)
    assert stat.S_IMODE(os.lstat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.lstat(path.parent).st_mode) == 0o700
    await server.stop()
    assert not path.exists()  # gone with the server: "no server" is said plainly


async def test_a_loose_admin_directory_is_made_private(tmp_path: Path, admin_server) -> None:
    directory = admin_socket_path(tmp_path / "data").parent
    directory.mkdir(parents=True)
    directory.chmod(0o755)
    await admin_server()
    assert stat.S_IMODE(os.lstat(directory).st_mode) == 0o700


async def test_a_symlinked_admin_directory_is_refused(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    directory = admin_socket_path(tmp_path / "data").parent
    directory.parent.mkdir(parents=True)
    directory.symlink_to(elsewhere)
    with pytest.raises(UnsafeAdminSocket, match="symbolic link"):
        await start_with_admin(tmp_path / "data")
    assert list(elsewhere.iterdir()) == []
    # Refused before serving anything: the data directory is free again.
    directory.unlink()
    server = await start_with_admin(tmp_path / "data")
    await server.stop()


async def test_a_symlink_or_a_file_where_the_socket_goes_is_refused(tmp_path: Path) -> None:
    path = admin_socket_path(tmp_path / "data")
    path.parent.mkdir(parents=True, mode=0o700)
    target = tmp_path / "precious"
    target.write_text("keep me")
    path.symlink_to(target)
    with pytest.raises(UnsafeAdminSocket, match="symbolic link"):
        await start_with_admin(tmp_path / "data")
    path.unlink()
    path.write_text("not a socket")
    with pytest.raises(UnsafeAdminSocket, match="not a socket"):
        await start_with_admin(tmp_path / "data")
    assert target.read_text() == "keep me" and path.read_text() == "not a socket"


async def test_a_socket_left_by_a_killed_server_is_replaced(tmp_path: Path, admin_server) -> None:
    path = admin_socket_path(tmp_path / "data")
    path.parent.mkdir(parents=True, mode=0o700)
    stale = socket.socket(socket.AF_UNIX)
    stale.bind(str(path))
    stale.close()  # nobody listens on it, as after a SIGKILL
    server = await admin_server()
    assert await result(server, "players") == {"players": []}


# -- what it does ---------------------------------------------------------------------------


async def test_players_and_tables_say_who_is_where(admin_server, clients) -> None:
    server = await admin_server()
    alice = await join(server, clients, "Alice")
    await join(server, clients, "Bob")
    table = await table_with(alice, seats=3, bots=("greedy",))
    players = {p["name"]: p for p in (await result(server, "players"))["players"]}
    assert players["Alice"]["where"] == f"at {table['table_id']}"
    assert players["Bob"]["where"] == "lobby"
    assert players["Bob"]["door"] == "tcp" and players["Bob"]["address"] == "127.0.0.1"
    for identity, name, door in (
        ("ssh-key:" + KEY, "Keyholder", "ssh"),
        (None, "Guest", "local"),
    ):
        reader, writer = await server.open_in_process(identity, door)
        client = Client(ServerConnection.from_streams(reader, writer))
        clients.append(client)
        await client.conn.hello(name=name)
        (shown,) = [p for p in (await result(server, "players"))["players"] if p["name"] == name]
        assert shown["door"] == door and shown["identity"] == identity
    (listed,) = (await result(server, "tables"))["tables"]
    assert listed["table_id"] == table["table_id"] and listed["name"] == "Test table"
    assert listed["seats"] == "2/3" and listed["players"][0] == "Alice"
    assert listed["status"] == "waiting"


async def test_an_announcement_reaches_everyone_online(admin_server, clients) -> None:
    server = await admin_server()
    alice = await join(server, clients, "Alice")
    bob = await join(server, clients, "Bob")
    await table_with(alice, seats=2)
    text = "Restarting in 5 minutes <b>[bold]"
    assert (await result(server, "announce", text=text))["sent_to"] == 2
    for client in (alice, bob):  # at a table and in the lobby alike, the words as they were
        assert (await client.push("notice"))["text"] == text
    refused = await admin(server, "announce", text="\x1b[2J")
    assert not refused["ok"] and "printable" in refused["error"]


async def test_a_kicked_player_is_disconnected_and_keeps_the_seat(admin_server, clients) -> None:
    server = await admin_server()
    alice = await join(server, clients, "Alice")
    bob = await join(server, clients, "Bob")
    table = await table_with(alice, seats=2)
    await bob.request("join_table", table_id=table["table_id"])
    assert (await result(server, "kick", name="BOB"))["kicked"] == ["Bob"]
    await bob.until(lambda: bob.lost is not None)
    assert bob.lost is not None and bob.lost.code == "kicked"
    await alice.until(lambda: alice.table is not None and not alice.table["seats"][1]["connected"])
    assert [p["name"] for p in (await result(server, "players"))["players"]] == ["Alice"]
    missing = await admin(server, "kick", name="Nobody")
    assert not missing["ok"] and "Nobody" in missing["error"]


async def test_a_banned_name_cannot_be_used_by_anyone_even_after_a_restart(
    admin_server, clients
) -> None:
    server = await admin_server()
    alice = await join(server, clients, "Alice")
    token = alice.welcome.token
    banned = await result(server, "ban", kind="name", value="alice")
    assert banned["disconnected"] == ["Alice"] and banned["new"]
    await alice.until(lambda: alice.lost is not None)
    await server.stop()

    server = await admin_server()  # the same data directory: the ban was stored
    for name, hello in (("ALICE", {}), (None, {"token": token})):
        with pytest.raises(ServerError) as refused:
            await join(server, clients, name, **hello)
        assert refused.value.code == "bad_name" and "banned" in refused.value.message
        assert refused.value.details == {"reason": "banned"}
    someone = await join(server, clients, None)
    await someone.conn.hello()
    with pytest.raises(ServerError):
        await someone.conn.set_name("alice")
    assert (await result(server, "bans"))["bans"] == [{"kind": "name", "value": "alice"}]

    assert (await result(server, "unban", kind="name", value="Alice"))["unbanned"] == "Alice"
    back = await join(server, clients, None, token=token)
    assert back.welcome.name == "Alice"
    again = await admin(server, "unban", kind="name", value="alice")
    assert not again["ok"] and "not banned" in again["error"]


async def test_a_banned_key_is_refused_at_hello_and_dropped_if_online(admin_server) -> None:
    server = await admin_server()
    identity = "ssh-key:" + KEY

    async def hello() -> ServerConnection:
        reader, writer = await server.open_in_process(identity)
        conn = ServerConnection.from_streams(reader, writer)
        await conn.hello(name="Keyholder")
        return conn

    reader, writer = await server.open_in_process(identity)
    choosing = ServerConnection.from_streams(reader, writer)  # welcomed, its name not chosen yet
    assert (await choosing.hello()).needs_name
    online = await hello()
    banned = await result(server, "ban", kind="key", value=KEY)
    assert banned == {"banned": KEY, "new": True, "disconnected": ["(no name yet)", "Keyholder"]}
    with pytest.raises(ConnectionLost):
        await choosing.set_name("Sneaky", timeout=WAIT)
    await choosing.close()
    with pytest.raises(ConnectionLost) as lost:
        async with asyncio.timeout(WAIT):
            async for _ in online.pushes():
                pass
    assert lost.value.code == "banned"
    await online.close()
    with pytest.raises(ServerError) as refused:
        await hello()
    assert refused.value.code == "banned"
    bad = await admin(server, "ban", kind="key", value="alice")
    assert not bad["ok"] and "SHA256:" in bad["error"]


async def test_closing_a_table_sends_everyone_at_it_to_the_lobby(admin_server, clients) -> None:
    server = await admin_server()
    alice = await join(server, clients, "Alice")
    table = await table_with(alice, seats=2, bots=("random",))
    await alice.request("start_game")
    await alice.push("game")
    closed = await result(server, "close", table_id=table["table_id"])
    assert closed == {"closed": table["table_id"], "name": "Test table"}
    assert (await alice.push("left_table"))["table_id"] == table["table_id"]
    assert (await result(server, "tables"))["tables"] == []
    missing = await admin(server, "close", table_id="t000000")
    assert not missing["ok"] and "t000000" in missing["error"]


# -- bad requests, timeouts, shutdown --------------------------------------------------------


async def raw_admin(server: SkyjoServer) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_unix_connection(admin_socket_path(server.config.data_path))


async def answer(reader: asyncio.StreamReader) -> dict[str, Any]:
    return json.loads(await asyncio.wait_for(reader.readline(), WAIT))


async def test_bad_requests_get_clear_errors_and_change_nothing(admin_server) -> None:
    server = await admin_server()
    reader, writer = await raw_admin(server)
    try:
        for line, expected in (
            (b"not json\n", "JSON"),
            (b"[1, 2]\n", "JSON object"),
            (b'{"command": "reboot"}\n', "unknown command 'reboot'"),
            (b'{"command": "kick"}\n', "'name'"),
            (b'{"command": "ban", "kind": "ip", "value": "1.2.3.4"}\n', "'key' or 'name'"),
        ):
            writer.write(line)
            reply = await answer(reader)
            assert not reply["ok"] and expected in reply["error"], (line, reply)
        writer.write(b'{"command": "bans"}\n')  # the same connection still works
        assert await answer(reader) == {"ok": True, "result": {"bans": []}}
        writer.write(b'{"command": "players", "x": "' + b"a" * admin_door.MAX_REQUEST + b'"}\n')
        reply = await answer(reader)
        assert not reply["ok"] and "at most" in reply["error"]
        assert await asyncio.wait_for(reader.read(), WAIT) == b""  # then closed
    finally:
        writer.close()


async def test_a_silent_admin_connection_is_closed(admin_server, monkeypatch) -> None:
    monkeypatch.setattr(admin_door, "READ_TIMEOUT", 0.2)
    server = await admin_server()
    reader, writer = await raw_admin(server)
    reply = await answer(reader)
    assert not reply["ok"] and "no request" in reply["error"]
    assert await asyncio.wait_for(reader.read(), WAIT) == b""
    writer.close()


async def test_stopping_the_server_ends_admin_connections(admin_server) -> None:
    server = await admin_server()
    reader, writer = await raw_admin(server)
    writer.write(b'{"command": "players"}\n')
    assert (await answer(reader))["ok"]
    await asyncio.wait_for(server.stop(), WAIT)  # does not wait for the silent admin
    assert await asyncio.wait_for(reader.read(), WAIT) == b""
    writer.close()


# -- the command ---------------------------------------------------------------------------


async def run_admin(*args: str) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        str(SERVER), "admin", *args, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    out, err = await asyncio.wait_for(process.communicate(), WAIT * 3)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def test_the_admin_command_talks_to_the_running_server(
    tmp_path: Path, admin_server, clients
) -> None:
    data = str(tmp_path / "data")
    status, _, err = await run_admin("--data-dir", data, "players")
    assert status == 1 and "no skyjo-server is running" in err
    server = await admin_server()
    await join(server, clients, "Zoë")
    status, out, _ = await run_admin("--data-dir", data, "players")
    assert status == 0 and "Zoë" in out and "lobby" in out
    config = tmp_path / "server.toml"
    config.write_text(f'data_dir = "{data}"\n')
    status, out, _ = await run_admin("--config", str(config), "announce", "Hello")
    assert status == 0 and "sent to 1" in out
    status, _, err = await run_admin("--data-dir", data, "kick", "Nobody")
    assert status == 1 and "Nobody" in err
    status, _, err = await run_admin("--data-dir", data, "ban", "ip", "1.2.3.4")
    assert status == 2 and "invalid choice" in err


def test_players_words_reach_the_admins_terminal_as_data() -> None:
    from server.admin.cli import describe

    shown = describe(
        "tables",
        {
            "tables": [
                {
                    "table_id": "t1",
                    "name": "\x1b]0;pwned\x07\u202e",
                    "status": "waiting",
                    "seats": "1/2",
                    "players": ["a\x1b"],
                }
            ]
        },
    )
    assert "\x1b" not in shown and "\u202e" not in shown and "\\x1b" in shown
