"""A door host started before its lobby (machines booting in any order, or the lobby
restarting): a player who comes meanwhile waits on a screen that says the game server
cannot be reached yet, not where it is, and is in the lobby as soon as it is up."""

from __future__ import annotations

import socket
from pathlib import Path

from .processes import Lobby
from .test_split import Player, door_host

#: Where the door hosts reach the lobby: an address of the hosts' own network, that a
#: player is not shown.
LOBBY_ADDRESS = "127.0.0.1:"


class NotUpYet:
    """A lobby's port that nothing listens on yet."""

    def __init__(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]


async def test_a_player_waits_for_a_lobby_not_up_yet_and_is_in_once_it_is(
    tmp_path: Path, secret: Path
) -> None:
    not_up = NotUpYet()
    door = door_host(tmp_path, "door-a", not_up, secret)  # type: ignore[arg-type]
    lobby: Lobby | None = None
    try:
        ann = Player("Ann")
        async with ann.through(door) as term:
            await term.shows("cannot be reached yet: trying again")
            assert f"{LOBBY_ADDRESS}{not_up.port}" not in term.text
            assert "Errno" not in term.text
            lobby = Lobby(tmp_path / "lobby", secret, tmp_path / "lobby.log", port=not_up.port)
            await term.shows("Lobby · Ann")  # her SSH key and user name: no name to choose
    finally:
        if lobby is not None:
            lobby.kill()
        door.kill()
