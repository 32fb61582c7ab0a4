"""A guest without a key (``ssh -o PubkeyAuthentication=no``) who loses the connection
comes back to their seat with the return code their table showed them, through the real
OpenSSH client in tmux at 80x24; a stranger who types the same name is refused."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from server.termhost.options import WorkerOptions

from .realdoor import real_door
from .test_openssh import press, press_until_gone
from .test_openssh_names import drop_the_connection
from .tmuxkit import SSH, TMUX, TmuxPane, openssh_command, tmux_pane

pytestmark = pytest.mark.skipif(not (SSH and TMUX), reason="needs the ssh client and tmux")

#: As a table shows it, on its top line: "return code 7KQM-3XHD".
SHOWN_CODE = re.compile(r"return code ([2-9A-Z]{4}-[2-9A-Z]{4})")


async def give_name(pane: TmuxPane, name: str, code: str | None = None) -> None:
    """The name dialog, answered: the name (replacing what it holds), then the code."""
    await pane.wait_for("Choose your name")
    await pane.keys("C-u", name)  # the field may hold the name refused before
    if code is not None:
        await pane.keys("Tab", code)
    await pane.keys("Enter")


async def test_a_keyless_guest_comes_back_to_the_seat_with_the_code_a_stranger_lacks(
    tmp_path: Path,
) -> None:
    async with real_door(tmp_path / "server", workers=WorkerOptions(processes=1)) as door:
        guest = openssh_command(door.port, "skyjo", None)
        async with tmux_pane(guest) as dora:
            await give_name(dora, "Dora")
            await dora.wait_for("Lobby · Dora")
            await press(dora, "n", "New table")
            await press(dora, "C-s", "You are the host")
            # The room says what the code is for while she can read it...
            room = await dora.wait_for("Your return code:")
            assert "If your connection" in room and "your seat is yours again" in room, room
            await press(dora, "b", "bot")
            await press(dora, "s", "Turn up a card of your choice")
            # ... and so does the table's log, as it opens (the moves scroll it away later),
            await dora.wait_for("If your connection drops:")
            await dora.keys("Enter", "Right")
            await press_until_gone(dora, "Enter", "Turn up a card")
            table = await dora.wait_for("Your turn:")
            # ... and its top line, all game long.
            found = SHOWN_CODE.search(table.splitlines()[0])
            assert found, f"no return code on the table's top line:\n{table}"
            code = found.group(1)
            assert code in room.replace("\n", " "), room
            await drop_the_connection(dora)

        async with tmux_pane(guest) as stranger:
            # The name alone: refused, and told that a code would be needed.
            await give_name(stranger, "Dora")
            told = await stranger.wait_for("Someone online, or keeping a seat")
            assert "return code" in told
            # A made-up code: refused.
            wrong = "2222-2222" if code != "2222-2222" else "3333-3333"
            await give_name(stranger, "Dora", wrong)
            await stranger.wait_for("That is not the return code")

        async with tmux_pane(guest) as dora:
            await give_name(dora, "Dora", code.lower())  # as she noted it, in any case
            back = await dora.wait_for("Your turn:")
            assert "Lobby" not in back.splitlines()[0]
            assert "Pile" in back and "Discard" in back, back
            shown = SHOWN_CODE.search(back.splitlines()[0])
            assert shown is not None and shown.group(1) == code, back  # still hers
            await press(dora, "t", "Choose the card the")
            await press(dora, "Enter", "You took the")


#: As the room says it: "Your return code: 7KQM-3XHD" (the words may wrap).
ROOM_CODE = re.compile(r"return code:?\s+([2-9A-Z]{4}-[2-9A-Z]{4})")


async def test_a_keyless_guest_replaced_by_a_second_connection_is_told_so_and_offered_quit(
    tmp_path: Path,
) -> None:
    """Dora's second connection takes her seat back with her code while the first is still
    open: the first says plainly that the seat went there, and offers to quit, never a
    Reconnect that only says "the server no longer knows this player" and offers itself
    again (her token died with the new login)."""
    async with real_door(tmp_path / "server", workers=WorkerOptions(processes=1)) as door:
        guest = openssh_command(door.port, "skyjo", None)
        async with tmux_pane(guest) as first:
            await give_name(first, "Dora")
            await first.wait_for("Lobby · Dora")
            await press(first, "n", "New table")
            await press(first, "C-s", "You are the host")
            room = await first.wait_for("Your return code:")
            found = ROOM_CODE.search(" ".join(room.split()))
            assert found, room
            async with tmux_pane(guest) as second:
                await give_name(second, "Dora", found.group(1))
                await second.wait_for("You are the host")
                told = await first.wait_for("You connected again from")
                assert "Reconnect" not in told, told
                await first.keys("q")
                status, _ = await first.wait_for_exit()
                assert status == 0
