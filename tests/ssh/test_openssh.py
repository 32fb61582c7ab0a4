"""The real OpenSSH client, in tmux, against the front door (stand-in app)."""

from __future__ import annotations

from pathlib import Path

import asyncssh
import pytest

from .standin import stand_in_door
from .tmuxkit import SSH, TMUX, openssh_command, tmux_pane, write_private_key

pytestmark = pytest.mark.skipif(not (SSH and TMUX), reason="needs the ssh client and tmux")


async def test_openssh_with_a_key_then_without(tmp_path: Path) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    key_file = write_private_key(key.export_private_key(), tmp_path / "id_ed25519")
    fingerprint = key.get_fingerprint("sha256")
    async with stand_in_door(tmp_path) as door:
        async with tmux_pane(openssh_command(door.port, "skyjo", key_file)) as pane:
            await pane.wait_for(f"ID=ssh-key:{fingerprint} NAME=None")
            await pane.keys("a")
            await pane.wait_for("BUMPED")
            await pane.keys("q")
            await pane.wait_for_exit()
        async with tmux_pane(openssh_command(door.port, "alice", None)) as pane:
            await pane.wait_for("ID=guest NAME=alice")
            await pane.keys("q")
            await pane.wait_for_exit()
