"""The SSH front door: who gets in, as whom, and everything that is refused.

Real asyncssh clients against a real front door on 127.0.0.1 (port 0),
serving the stand-in app of ``standin.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import stat
from collections.abc import AsyncIterator
from pathlib import Path

import asyncssh
import pytest

from server.doors.options import add_host_arguments
from server.ssh.frontdoor import (
    SSHOptions,
    add_ssh_arguments,
    ssh_options_from_args,
    start_ssh_front_door,
)
from server.ssh.options import HOST_KEY_FILENAME, SSHLimits
from server.termhost import HostLimits

from .sshkit import TIMEOUT, closing, connect, connect_guest, open_terminal, poll_until
from .standin import StandInDoor, StandInLobby, stand_in_door


@pytest.fixture
async def door(tmp_path: Path) -> AsyncIterator[StandInDoor]:
    async with stand_in_door(tmp_path) as door:
        yield door


@pytest.fixture(scope="module")
def alice_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


@pytest.fixture(scope="module")
def bob_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


def identity(key: asyncssh.SSHKey) -> str:
    return "ssh-key:" + key.get_fingerprint("sha256")


async def sees(port: int, username: str, needle: str, key: asyncssh.SSHKey | None = None) -> None:
    """Log in (with ``key``, or as a guest), open a terminal and wait for ``needle``."""
    if key is None:
        conn = await connect_guest(port, username)
    else:
        conn = await connect(port, username, client_keys=[key])
    async with closing(conn), open_terminal(conn) as term:
        await term.wait_for(needle)


# --------------------------------------------------------------------------
# identity
# --------------------------------------------------------------------------


async def test_the_key_fingerprint_is_the_identity(
    door: StandInDoor, alice_key: asyncssh.SSHKey
) -> None:
    await sees(door.port, "skyjo", f"ID={identity(alice_key)} NAME=None", alice_key)
    await poll_until(lambda: door.lobby.identities != [], "lobby connection")
    assert door.lobby.identities == [identity(alice_key)]


async def test_any_key_is_welcome_and_each_is_its_own_identity(
    door: StandInDoor, alice_key: asyncssh.SSHKey, bob_key: asyncssh.SSHKey
) -> None:
    rsa_key = asyncssh.generate_private_key("ssh-rsa", key_size=2048)
    for key in (alice_key, bob_key, rsa_key):
        await sees(door.port, "skyjo", f"ID={identity(key)}", key)
    assert len({identity(k) for k in (alice_key, bob_key, rsa_key)}) == 3


async def test_a_player_without_a_key_is_a_guest(door: StandInDoor) -> None:
    await sees(door.port, "skyjo", "ID=guest NAME=None")
    await poll_until(lambda: door.lobby.identities != [], "lobby connection")
    assert door.lobby.identities == [None]


async def test_the_user_name_is_the_name_asked_for(
    door: StandInDoor, alice_key: asyncssh.SSHKey
) -> None:
    await sees(door.port, "Alice", f"ID={identity(alice_key)} NAME=Alice", alice_key)
    await sees(door.port, "Zoé", "ID=guest NAME=Zoé")
    await sees(door.port, "SKYJO", "ID=guest NAME=None")  # the lobby user, any case


async def test_passwords_are_never_accepted(door: StandInDoor) -> None:
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(door.port, "skyjo", password="hunter2", kbdint_auth=False)


async def test_offering_a_key_without_proving_it_lends_no_identity(
    door: StandInDoor, alice_key: asyncssh.SSHKey
) -> None:
    """Someone holding only Alice's public key offers it, then logs in as a guest."""
    public_only = asyncssh.load_keypairs([alice_key])[0]

    def cannot_sign(data: bytes) -> bytes:
        raise ValueError("no private key here")

    public_only.sign = cannot_sign  # type: ignore[method-assign]
    conn = await connect_guest(door.port, "skyjo", client_keys=[public_only])
    async with closing(conn):
        async with open_terminal(conn) as term:
            await term.wait_for("ID=guest")
    assert door.lobby.identities == [None]


# --------------------------------------------------------------------------
# the host key
# --------------------------------------------------------------------------


async def test_host_key_is_created_private_once_and_reused(tmp_path: Path) -> None:
    key_file = tmp_path / HOST_KEY_FILENAME
    async with stand_in_door(tmp_path) as first:
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
        async with closing(await connect_guest(first.port, "skyjo")) as conn:
            seen = conn.get_server_host_key()
        first_fingerprint = first.door.host_key_fingerprint
    content = key_file.read_bytes()
    assert seen is not None and seen.get_fingerprint("sha256") == first_fingerprint
    assert seen.algorithm == b"ssh-ed25519"
    public_file = asyncssh.read_public_key(tmp_path / (HOST_KEY_FILENAME + ".pub"))
    assert public_file.get_fingerprint("sha256") == first_fingerprint

    key_file.chmod(0o644)  # an operator's mistake
    async with stand_in_door(tmp_path) as second:
        assert second.door.host_key_fingerprint == first_fingerprint
    assert key_file.read_bytes() == content
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600


# --------------------------------------------------------------------------
# a private server
# --------------------------------------------------------------------------


async def test_authorized_keys_let_in_only_those_keys(
    tmp_path: Path, alice_key: asyncssh.SSHKey, bob_key: asyncssh.SSHKey
) -> None:
    keys_file = tmp_path / "friends"
    keys_file.write_bytes(alice_key.export_public_key())
    async with stand_in_door(tmp_path, authorized_keys=keys_file) as door:
        await sees(door.port, "skyjo", f"ID={identity(alice_key)}", alice_key)
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(door.port, "skyjo", client_keys=[bob_key])
        with pytest.raises(asyncssh.PermissionDenied):
            await connect_guest(door.port, "skyjo")

        # Adding a friend while the server runs takes effect at once.
        keys_file.write_bytes(alice_key.export_public_key() + bob_key.export_public_key())
        await sees(door.port, "bob", f"ID={identity(bob_key)} NAME=bob", bob_key)


async def test_an_authorized_keys_file_without_keys_is_a_clear_error(tmp_path: Path) -> None:
    keys_file = tmp_path / "empty"
    keys_file.write_text("# nobody yet\n")
    with pytest.raises(ValueError, match="no usable public key"):
        async with stand_in_door(tmp_path, authorized_keys=keys_file):
            pass


# --------------------------------------------------------------------------
# nothing but the game
# --------------------------------------------------------------------------


async def test_commands_and_scp_are_refused_with_a_message(door: StandInDoor) -> None:
    async with closing(await connect_guest(door.port, "skyjo")) as conn:
        result = await asyncio.wait_for(conn.run("ls /"), TIMEOUT)
        assert result.exit_status == 1
        assert "does not run commands" in str(result.stderr)
        assert result.stdout == ""
    async with closing(await connect_guest(door.port, "skyjo")) as conn:
        result = await asyncio.wait_for(conn.run("scp -t /tmp"), TIMEOUT)
        assert result.exit_status == 1
        assert "copy files" in str(result.stderr)
    assert door.apps == []


async def test_sftp_is_refused(door: StandInDoor) -> None:
    async with closing(await connect_guest(door.port, "skyjo")) as conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await asyncio.wait_for(conn.start_sftp_client(), TIMEOUT)


async def test_port_forwarding_is_refused(door: StandInDoor) -> None:
    async with closing(await connect_guest(door.port, "skyjo")) as conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await asyncio.wait_for(conn.open_connection("127.0.0.1", door.port), TIMEOUT)
        with pytest.raises(asyncssh.ChannelListenError):
            await asyncio.wait_for(conn.forward_remote_port("", 0, "127.0.0.1", 9), TIMEOUT)
        with pytest.raises(asyncssh.ChannelOpenError):
            await asyncio.wait_for(conn.open_unix_connection("/run/x.sock"), TIMEOUT)
        with pytest.raises(asyncssh.ChannelListenError):
            await asyncio.wait_for(conn.forward_remote_path("/tmp/x.sock", "/tmp/y"), TIMEOUT)


async def test_agent_and_x11_forwarding_are_refused(door: StandInDoor) -> None:
    async with closing(await connect_guest(door.port, "skyjo")) as conn:
        async with open_terminal(conn) as term:
            await term.wait_for("ID=guest")
            chan = term.proc.channel
            # The raw channel requests OpenSSH sends for -A and -X.
            agent = await chan._make_request(b"auth-agent-req@openssh.com")  # noqa: SLF001 - the test looks inside
            x11 = await chan._make_request(  # noqa: SLF001 - the test looks inside
                b"x11-req",
                asyncssh.packet.Boolean(False),
                asyncssh.packet.String(b"MIT-MAGIC-COOKIE-1"),
                asyncssh.packet.String(b"00" * 16),
                asyncssh.packet.UInt32(0),
            )
            assert (agent, x11) == (False, False)
            term.press(b"a")
            await term.wait_for("BUMPED")  # the session itself carries on


async def test_one_session_per_connection(door: StandInDoor) -> None:
    async with closing(await connect_guest(door.port, "skyjo")) as conn:
        async with open_terminal(conn) as term:
            await term.wait_for("ID=guest")
            with pytest.raises(asyncssh.ChannelOpenError):
                await asyncio.wait_for(conn.create_process(term_type="xterm"), TIMEOUT)
            term.press(b"q")
            assert await term.exit_status() == 0
        with pytest.raises(asyncssh.ChannelOpenError):  # not even after the first ended
            await asyncio.wait_for(conn.create_process(term_type="xterm"), TIMEOUT)
    assert len(door.apps) == 1


async def test_a_session_without_a_terminal_gets_a_message(door: StandInDoor) -> None:
    async with closing(await connect_guest(door.port, "skyjo")) as conn:
        async with open_terminal(conn, term_type=None) as term:
            result = await asyncio.wait_for(term.proc.wait(), TIMEOUT)
    assert result.exit_status == 1
    assert isinstance(result.stderr, bytes) and b"needs a terminal" in result.stderr


# --------------------------------------------------------------------------
# limits
# --------------------------------------------------------------------------


async def test_connections_per_address_are_capped(tmp_path: Path) -> None:
    limits = SSHLimits(max_connections_per_address=2)
    async with stand_in_door(tmp_path, connection_limits=limits) as door:
        first = await connect_guest(door.port, "skyjo")
        second = await connect_guest(door.port, "skyjo")
        async with closing(first), closing(second):
            with pytest.raises(asyncssh.DisconnectError, match="Too many connections"):
                await connect_guest(door.port, "skyjo")
        await poll_until(lambda: door.manager.connections.total == 0, "connections gone")
        async with closing(await connect_guest(door.port, "skyjo")):
            pass  # a freed place can be used again


async def test_total_connections_are_capped(tmp_path: Path) -> None:
    limits = SSHLimits(max_connections=1)
    async with stand_in_door(tmp_path, connection_limits=limits) as door:
        async with closing(await connect_guest(door.port, "skyjo")):
            with pytest.raises(asyncssh.DisconnectError, match="server is full"):
                await connect_guest(door.port, "skyjo")


async def test_a_connection_without_a_session_is_closed(tmp_path: Path) -> None:
    limits = SSHLimits(idle_connection_timeout=0.2)
    async with stand_in_door(tmp_path, connection_limits=limits) as door:
        conn = await connect_guest(door.port, "skyjo")
        await asyncio.wait_for(conn.wait_closed(), TIMEOUT)
        assert door.manager.connections.total == 0


async def test_an_idle_session_is_closed_with_a_message(tmp_path: Path) -> None:
    limits = HostLimits(idle_timeout=0.3, stop_timeout=2.0)
    async with stand_in_door(tmp_path, limits=limits) as door:
        async with closing(await connect_guest(door.port, "skyjo")) as conn:
            async with open_terminal(conn) as term:
                await term.wait_for("ID=guest")
                assert await term.exit_status() == 0
        assert "without a key press" in term.text
        assert "\x1b[?1049l" in term.raw.decode()  # the screen was restored first


async def test_an_input_flood_is_slowed_down_and_nothing_is_lost(tmp_path: Path) -> None:
    limits = HostLimits(input_rate=4000, input_burst=1000, stop_timeout=2.0)
    async with stand_in_door(tmp_path, limits=limits) as door:
        async with closing(await connect_guest(door.port, "skyjo")) as conn:
            async with open_terminal(conn) as term:
                await term.wait_for("ID=guest")
                term.press(b"z" * 3000)
                await term.wait_for("TYPED 3000")
                session = door.manager.sessions[0]
                assert session.terminal is not None and session.terminal.input_pauses >= 1
                term.press(b"a")
                await term.wait_for("BUMPED")


async def test_a_flood_of_window_changes_is_coalesced(door: StandInDoor) -> None:
    async with closing(await connect_guest(door.port, "skyjo")) as conn:
        async with open_terminal(conn) as term:
            await term.wait_for("ID=guest")
            app = door.apps[0]
            before = app.resizes
            for step in range(40):  # a client resizing in a loop, ~100 times a second
                term.proc.change_terminal_size(60 + step, 20 + step % 10)
                await asyncio.sleep(0.01)
            term.proc.change_terminal_size(100, 30)
            await poll_until(lambda: tuple(app.size) == (100, 30), "the last size")
            assert app.resizes - before <= 20  # about one layout per 0.1 s, not per request


async def test_the_environment_a_client_sends_is_capped(door: StandInDoor) -> None:
    env = {f"VAR{i}": "x" for i in range(100)} | {"HUGE": "y" * 5000}
    async with closing(await connect_guest(door.port, "skyjo")) as conn:
        async with open_terminal(conn, env=env) as term:
            await term.wait_for("ID=guest")
    environ = door.apps[0].player_session.environ
    assert len(environ) <= 33  # 32 variables and TERM
    assert "HUGE" not in environ
    assert environ["TERM"] == "xterm-256color"


async def test_closing_the_front_door_ends_every_session(tmp_path: Path) -> None:
    async with stand_in_door(tmp_path) as door:
        conn = await connect_guest(door.port, "skyjo")
        async with open_terminal(conn) as term:
            await term.wait_for("ID=guest")
            await door.door.close(timeout=2.0)
            assert await term.exit_status() == 0
        await asyncio.wait_for(conn.wait_closed(), TIMEOUT)
        assert door.manager.connections.total == 0


# --------------------------------------------------------------------------
# skyjo-server's options
# --------------------------------------------------------------------------


def parse(*argv: str) -> SSHOptions:
    parser = argparse.ArgumentParser()
    add_host_arguments(parser)
    add_ssh_arguments(parser)
    return ssh_options_from_args(parser.parse_args(argv))


def test_ssh_options_from_the_command_line(
    tmp_path: Path, alice_key: asyncssh.SSHKey, capsys: pytest.CaptureFixture[str]
) -> None:
    defaults = parse()
    assert (defaults.enabled, defaults.port, defaults.lobby_username) == (True, 2222, "skyjo")
    assert defaults.authorized_keys is None
    assert defaults.limits.idle_timeout == 30 * 60

    friends = tmp_path / "friends"
    friends.write_bytes(alice_key.export_public_key())
    options = parse(
        "--ssh-port",
        "22",
        "--authorized-keys",
        str(friends),
        "--ssh-username",
        "play",
        "--ssh-max-connections",
        "50",
        "--ssh-max-per-address",
        "4",
        "--ssh-idle-minutes",
        "0",
        "--max-screens",
        "7",
    )
    assert (options.port, options.authorized_keys, options.lobby_username) == (22, friends, "play")
    limits = options.connection_limits
    assert (limits.max_connections, limits.max_connections_per_address) == (50, 4)
    assert options.limits.idle_timeout is None
    assert options.limits.max_sessions == 7

    for bad in (["--ssh-port", "70000"], ["--authorized-keys", str(tmp_path / "missing")]):
        with pytest.raises(SystemExit):
            parse(*bad)
    assert "cannot read it" in capsys.readouterr().err


async def test_no_ssh_starts_nothing(tmp_path: Path) -> None:
    lobby = StandInLobby(tmp_path)
    assert await start_ssh_front_door(lobby, parse("--no-ssh")) is None
    assert list(tmp_path.iterdir()) == []  # not even a host key


async def test_a_client_that_never_logs_in_is_dropped(tmp_path: Path) -> None:
    async with stand_in_door(tmp_path, login_timeout=0.3) as door:
        reader, writer = await asyncio.open_connection("127.0.0.1", door.port)
        try:
            banner = await asyncio.wait_for(reader.readline(), TIMEOUT)
            assert banner.startswith(b"SSH-2.0-")
            # Say nothing more: the server gives up on its own.
            rest = await asyncio.wait_for(reader.read(), TIMEOUT)
            assert isinstance(rest, bytes)  # end of stream, not our timeout
        finally:
            writer.close()
        await poll_until(lambda: door.manager.connections.total == 0, "connection released")
