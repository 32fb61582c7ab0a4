"""A key the server's admin banned cannot log in over SSH, not even as a guest.

Real asyncssh clients against the real SSH door of a real ``SkyjoServer``
(127.0.0.1, port 0) with real SQLite.
"""

from __future__ import annotations

from pathlib import Path

import asyncssh
import pytest

from server.lobby.bans import BanKind
from server.ssh.identity import identity_for_key

from .realdoor import real_door
from .sshkit import closing, connect, connect_guest


async def test_a_banned_key_is_refused_and_cannot_fall_back_to_guest(tmp_path: Path) -> None:
    banned_key = asyncssh.generate_private_key("ssh-ed25519")
    other_key = asyncssh.generate_private_key("ssh-ed25519")
    async with real_door(tmp_path / "data") as real:
        async with closing(await connect(real.port, "skyjo", client_keys=[banned_key])):
            pass  # welcome before the ban
        await real.server.lobby.bans.ban(BanKind.IDENTITY, identity_for_key(banned_key))

        with pytest.raises(asyncssh.PermissionDenied):
            await connect(real.port, "skyjo", client_keys=[banned_key])
        # Offering the banned key first, then keyboard-interactive as a guest would.
        with pytest.raises(asyncssh.PermissionDenied):
            await connect_guest(real.port, "skyjo", client_keys=[banned_key])

        # Everyone else is as welcome as before: another key, a guest without keys.
        async with closing(await connect(real.port, "skyjo", client_keys=[other_key])):
            pass
        async with closing(await connect_guest(real.port, "skyjo")):
            pass
