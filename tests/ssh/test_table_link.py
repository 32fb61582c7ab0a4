"""Over SSH too, a room shows its table's link and QR code when the server has the page; what
only the page's terminal understands (the keyboard's escape sequence) never reaches SSH."""

from __future__ import annotations

from pathlib import Path

import asyncssh

from .realdoor import create_table, real_door
from .sshkit import closing, connect, open_terminal

PAGE = "http://192.0.2.7:8080"


async def test_an_ssh_room_shows_the_tables_link_and_its_qr_code(tmp_path: Path) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with real_door(tmp_path, page=PAGE) as door:
        conn = await connect(door.port, "alice", client_keys=[key])
        # A client claiming to be the page (or another page) is not believed.
        claims = {"SKYJO_IN_PAGE": "1", "SKYJO_PAGE": "http://elsewhere.example:1"}
        async with closing(conn), open_terminal(conn, term_size=(80, 50), env=claims) as term:
            await term.shows("Lobby · alice")
            await create_table(term)
            await term.shows(f"{PAGE}/t/")
            await term.shows("█▀")  # the QR code, in half blocks
            assert b"\x1b]7717" not in term.raw and "elsewhere" not in term.text
