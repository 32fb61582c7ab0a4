"""Journeys over the real OpenSSH client, in tmux at 80x24, as people take them.

Each step waits (bounded) for what the person would see, then asserts on
that screen: its title line, the prompt line, the footer's keys (all of them
whole in 80 columns).  ``python -m tests.ssh.journey_shots DIR`` runs them
again and keeps each journey's last screen.
"""

from __future__ import annotations

import os
from pathlib import Path

import asyncssh
import pytest

from server.netclient import ServerConnection
from server.termhost.options import WorkerOptions

from ..client.test_network import Opponent
from .realdoor import ENTER, player, real_door
from .sshkit import poll_until
from .test_openssh import press, press_until_gone
from .test_openssh_names import drop_the_connection
from .tmuxkit import SSH, TMUX, TmuxPane, openssh_command, tmux_pane, write_private_key

pytestmark = pytest.mark.skipif(not (SSH and TMUX), reason="needs the ssh client and tmux")

WIDTH = 80
SHOTS = "SKYJO_JOURNEY_SHOTS"  # a folder: each journey's last screen is kept there
TABLE_KEYS = ["Chat", "Scores", "Help", "Leave"]
MOVE_KEYS = ["Choose", "d t Draw/take"]  # and these when it is your turn
LOBBY_KEYS = ["New table", "Chat", "Quit"]
CHAT_KEYS = ["Send", "Close chat"]


@pytest.fixture
def key_file(tmp_path: Path) -> Path:
    key = asyncssh.generate_private_key("ssh-ed25519")
    return write_private_key(key.export_private_key(), tmp_path / "id_ed25519")


def footer_line(screen: str) -> str:
    """The bottom row: the footer."""
    return screen.splitlines()[-1] if screen.splitlines() else ""


def in_the_lobby(screen: str) -> bool:
    """The lobby, with its own keys in the footer (no dialog over it)."""
    return title_line(screen).startswith(" Lobby") and "New table" in footer_line(screen)


def title_line(screen: str) -> str:
    return screen.splitlines()[0] if screen.splitlines() else ""


def assert_footer(screen: str, keys: list[str]) -> None:
    """Each key of ``keys`` is drawn whole on the footer, and the footer ends inside the
    80 columns (a footer with more keys than room is cut at the last column)."""
    line = footer_line(screen).rstrip()
    assert len(line) < WIDTH, f"the footer is cut at {WIDTH} columns:\n{screen}"
    missing = [key for key in keys if key not in line]
    assert not missing, f"the footer lacks {missing}:\n{screen}"


async def keep_last_screen(name: str, pane: TmuxPane) -> None:
    """With ``SKYJO_JOURNEY_SHOTS`` set: the pane, as text and with colours, in that folder."""
    folder = os.environ.get(SHOTS)
    if not folder:
        return
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.txt").write_text(await pane.screen())
    (out / f"{name}.ansi").write_text(await pane.tmux("capture-pane", "-p", "-e", "-t", "play"))


def prompt_of(screen: str) -> str:
    """The table's prompt line: the row above the footer."""
    lines = screen.splitlines()
    return lines[-2].strip() if len(lines) >= 2 else ""


def log_of(screen: str) -> list[str]:
    """The move log's lines, as drawn in the table's right-hand column."""
    lines = (line.split("▏", 1)[1].strip() for line in screen.splitlines() if "▏" in line)
    return [line for line in lines if line]


def at_the_table(screen: str) -> bool:
    """The table, settled: the prompt line says whose turn it is, and the title and the
    footer agree with it (the footer is rebuilt a moment after the prompt changes)."""
    title, prompt, footer = title_line(screen), prompt_of(screen), footer_line(screen)
    if prompt.startswith("Your turn:"):
        return "your turn" in title and all(key in footer for key in ("Draw/take", "Leave"))
    if prompt.startswith("Waiting for "):
        who = prompt.removeprefix("Waiting for ").rstrip("…")
        return f"{who}'s turn" in title and "Draw" not in footer and "Leave" in footer
    return False


async def seated(pane: TmuxPane) -> str:
    """The table screen once settled; its footer fits 80 columns."""
    screen = await pane.wait_until(at_the_table, "the table, its prompt saying whose turn")
    assert_footer(
        screen, TABLE_KEYS + (MOVE_KEYS if prompt_of(screen).startswith("Your turn:") else [])
    )
    return screen


async def whose_turn(*panes: TmuxPane) -> TmuxPane:
    """The pane whose prompt says "Your turn:" once every table has settled."""
    screens = [await seated(pane) for pane in panes]
    for pane, screen in zip(panes, screens, strict=True):
        if prompt_of(screen).startswith("Your turn:"):
            return pane
    raise AssertionError("nobody's turn:\n" + "\n".join(screens))


async def take_the_discard(pane: TmuxPane) -> None:
    """One whole turn: take the discard, put it where the cursor is."""
    await press(pane, "t", "Choose the card the")
    await pane.keys("Enter")
    await pane.wait_gone("Choose the card the")


def last_news(screen: str, who: str) -> str:
    """ "away" or "back": the later of the two lines about ``who`` in the log ("" if none)."""
    text = " ".join(log_of(screen))
    away, back = (
        text.rfind(f"{who} is away: a bot plays for them in 60 s."),
        text.rfind(f"{who} is back."),
    )
    return "" if away == back == -1 else ("away" if away > back else "back")


async def test_drop_mid_game_and_come_back_by_both_ways_of_logging_in(
    tmp_path: Path, key_file: Path
) -> None:
    """alice (her key, as ``alice@``) and bob (a guest on ``skyjo@``, naming himself) play;
    alice's ssh dies twice: she comes back as ``alice@`` then as ``skyjo@`` with her key."""
    async with real_door(tmp_path / "server", workers=WorkerOptions(processes=1)) as door:
        alice_ssh = openssh_command(door.port, "alice", key_file)
        async with (
            tmux_pane(alice_ssh) as alice,
            tmux_pane(openssh_command(door.port, "skyjo", None)) as bob,
        ):
            assert_footer(await alice.wait_for("Lobby · alice"), LOBBY_KEYS)
            await bob.wait_for("Choose your name")
            await bob.keys("bob", "Enter")
            assert_footer(await bob.wait_for("Lobby · bob"), LOBBY_KEYS)

            # alice opens a table; bob joins it, says hello in its chat, and is ready.
            await press(alice, "n", "^s Create")
            await press(alice, "C-s", "You are the host")
            await bob.wait_for(
                "alice's table  "
            )  # its row listed (the who line names it too): bob picks it
            await bob.keys("Down")
            await press(bob, "Enter", "Press r when you are ready")
            assert_footer(await press(bob, "c", "Close chat"), CHAT_KEYS)
            await bob.keys("hi alice", "Enter")
            await bob.wait_for("bob: hi alice")
            await bob.keys("Escape")
            assert_footer(
                await bob.wait_gone("Close chat"), ["Ready", "Chat", "Leave"]
            )  # the room's keys, back
            await alice.wait_for("bob: hi alice")
            await press(bob, "r", "person  ✓")
            await alice.wait_for("person  ✓")
            await press(alice, "s", "Turn up a card of your choice")

            # Into the round: the first flips, then a turn each.
            for pane in (alice, bob):
                await pane.wait_for("Turn up a card of your choice")
                await pane.keys("Enter", "Right")
                await press_until_gone(pane, "Enter", "Turn up a card")
            for _ in range(2):
                await take_the_discard(await whose_turn(alice, bob))
            moves = log_of(await seated(alice))  # as she will see them again
            assert any("took the" in line for line in moves), moves

            await drop_the_connection(alice)
            for back_as in ("alice", "skyjo"):
                told = await bob.wait_until(
                    lambda screen: last_news(screen, "alice") == "away",
                    "alice is away, in bob's log",
                )
                assert "alice away" in told  # her name line says it too
                await seated(bob)

                async with tmux_pane(openssh_command(door.port, back_as, key_file)) as alice:
                    screen = await seated(
                        alice
                    )  # straight back at her seat: no lobby, no name asked
                    assert "Choose your name" not in screen and "Lobby" not in screen
                    assert "Pile" in screen and "Discard" in screen and "░░" in screen, screen
                    assert has_run(log_of(screen), moves[-2:]), f"the moves so far, lost:\n{screen}"
                    assert "bob away" not in screen, f"bob, connected, is shown away:\n{screen}"
                    told = await bob.wait_until(
                        lambda screen: last_news(screen, "alice") == "back",
                        "alice is back, in bob's log",
                    )
                    assert "alice away" not in told
                    # A move after her return: the game goes on with her.
                    await take_the_discard(await whose_turn(alice, bob))
                    moves = log_of(await seated(alice))
                    if back_as == "alice":
                        await drop_the_connection(alice)
                        continue
                    await keep_last_screen("drop-and-come-back-alice", alice)
                    await keep_last_screen("drop-and-come-back-bob", bob)
                    await press(alice, "q", "Leave this game?")
                    assert_footer(await press(alice, "y", "Lobby · alice"), LOBBY_KEYS)


def has_run(lines: list[str], run: list[str]) -> bool:
    """``run`` appears in ``lines``, one line after the other."""
    return any(lines[i : i + len(run)] == run for i in range(len(lines) - len(run) + 1))


async def test_the_lobby_chat_gives_the_keys_back_on_esc(tmp_path: Path, key_file: Path) -> None:
    """carol chats in the lobby: letters are text there; Esc gives n, s and q back.
    dan, arriving later, reads what was said before him."""
    async with real_door(tmp_path / "server") as door:
        async with tmux_pane(openssh_command(door.port, "carol", key_file)) as carol:
            lobby = await carol.wait_for("Lobby · carol")
            assert_footer(lobby, LOBBY_KEYS)
            chat = await press(carol, "c", "Close chat")
            assert footer_line(chat).split() == ["⏎", "Send", "esc", "Close", "chat"], chat
            await carol.keys("nsq hello", "Enter")  # keys elsewhere, text here
            said = await carol.wait_for("carol: nsq hello")
            assert "New table" not in said and "Leave this server?" not in said
            assert footer_line(said) == footer_line(chat)  # still in the chat line
            await carol.keys("Escape")
            back = await carol.wait_until(in_the_lobby, "the lobby's keys")
            assert_footer(back, LOBBY_KEYS)
            assert "carol: nsq hello" in back

            async with tmux_pane(openssh_command(door.port, "skyjo", None)) as dan:
                await dan.wait_for("Choose your name")
                await dan.keys("dan", "Enter")
                await dan.wait_for("Lobby · dan")
                await dan.wait_for("carol: nsq hello")

            # The keys work again: n opens a new table's form, s the statistics, q asks to leave.
            form = await press(carol, "n", "^s Create")
            assert_footer(form, ["Create", "Cancel"])
            await carol.keys("Escape")
            assert_footer(await carol.wait_until(in_the_lobby, "the lobby"), LOBBY_KEYS)
            stats = await press(carol, "s", "0 games, 0 won")  # her statistics, from the server
            assert "Leaderboard" in stats
            assert_footer(stats, ["Back", "Refresh"])
            await carol.keys("Escape")
            await carol.wait_until(in_the_lobby, "the lobby")
            await press(carol, "q", "Leave this server?")
            await keep_last_screen("lobby-chat", carol)
            await carol.keys("y")
            status, _ = await carol.wait_for_exit()
            assert status == 0


async def test_a_watcher_over_ssh_sees_a_table_to_its_end(tmp_path: Path, key_file: Path) -> None:
    """carol (over OpenSSH) watches dan's table (dan and a bot) from its start to its end;
    dan and erin, in its room then, are told she watches."""
    async with real_door(tmp_path / "server") as door:
        conn = await ServerConnection.open("127.0.0.1", door.server.port)
        dan = Opponent(conn)  # plays his first legal move, is always ready
        try:
            await conn.hello(name="dan")
            created = await conn.request(
                {
                    "type": "create_table",
                    "name": "dan's table",
                    "seats": 3,
                    "settings": {"end-score": 10},
                }
            )
            await conn.request({"type": "add_bot", "level": "greedy"})
            dan.start()
            erin_key = asyncssh.generate_private_key("ssh-ed25519")
            async with (
                player(door.port, "erin", erin_key) as erin,
                tmux_pane(openssh_command(door.port, "carol", key_file)) as carol,
            ):
                await erin.shows("Lobby · erin")
                erin.press(b"k")
                await erin.shows("The table's code")
                erin.press(created["table"]["code"].encode() + ENTER)
                await erin.shows("Press r when you are ready")
                lobby = await carol.wait_until(
                    lambda screen: "dan's table  " in screen and in_the_lobby(screen),
                    "dan's table listed",
                )
                assert_footer(lobby, ["Watch", "New table", "Quit"])
                room = await press(carol, "w", "You are watching this table.")
                assert_footer(room, ["Leave"])
                await erin.shows("carol is watching.")  # in the room's chat
                await erin.shows("Watching: carol")
                await poll_until(
                    lambda: dan.table.get("watchers") == ["carol"], "dan told carol watches"
                )
                erin.press(b"l")  # erin does not stay for the game
                await erin.shows("Leave this table?")
                erin.press(b"y")
                await erin.shows("Lobby · erin")
                await poll_until(
                    lambda: sum(1 for seat in dan.table["seats"] if seat) == 2, "erin's seat empty"
                )

                await conn.request({"type": "start_game"})
                table = await carol.wait_until(
                    lambda screen: prompt_of(screen) == "You are watching this table.",
                    "the table, watched",
                )
                assert "Pile" in table and "dan" in table and "Greedy bot" in table, table
                assert "Draw" not in footer_line(table)
                assert_footer(table, ["Scores", "Help", "Leave"])
                await carol.keys("d")  # a move key: a watcher is told why nothing happens
                await carol.wait_for("you cannot play here")

                over = await watch_to_the_end(carol)
                assert "dan" in over and "Greedy bot" in over
                assert_footer(over, ["Leave"])
                assert "Rematch" not in footer_line(over)  # no seat to play again in
                await keep_last_screen("watch-to-the-end", carol)
                await press(carol, "l", "Lobby · carol")
        finally:
            await dan.stop()


async def watch_to_the_end(pane: TmuxPane, rounds: int = 20) -> str:
    """The game-over screen, once the game is over (each round's summary closed with Esc)."""
    for _ in range(rounds):
        screen = await pane.wait_until(
            lambda screen: (
                "Game over ·" in screen
                or (" is over" in screen and "See the table" in footer_line(screen))
            ),
            "the round's end",
            timeout=30,
        )
        if "Game over ·" in screen:
            return screen
        await pane.keys("Escape")
        await pane.wait_gone("See the table")
    raise AssertionError(f"no end in {rounds} rounds")
