"""The journeys of docs/scaling.md across hosts: a lobby on one (``--role lobby``), two
door hosts on two others (``--role doors``, one SSH host key and one door secret) behind
Debian's HAProxy (SSH in TCP mode with ``send-proxy-v2``, the page in HTTP mode), and the
players on hosts of their own: the real OpenSSH client in tmux, Chromium through
Playwright.  Network namespaces stand for the machines (``kit``).

HAProxy balances with ``first`` here, so that the SSH player lands on door1 and the
browser on door2 (its web servers listed the other way round) while both are up; a
door host that dies is passed over as with any algorithm.
"""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import asyncssh
import pytest

from ..ssh.tmuxkit import SSH, TMUX, tmux_pane, write_private_key
from ..web.browserkit import CHROMIUM, TIMEOUT, VIEWPORT, TermPage, chromium
from ..web.test_browser import ssh_press
from ..web.webdoor import choose_name, open_table, prompt_of
from .kit import WAIT, Backend, Host, Network, run_on
from .servers import (
    LOBBY_PORT,
    SSH_PORT,
    WEB_PORT,
    ServerHost,
    doors_role,
    known_hosts,
    player_ssh,
    start_balancer,
    start_door_host,
    start_lobby,
    wait_server_up,
)

pytestmark = pytest.mark.skipif(not (SSH and TMUX), reason="needs the ssh client and tmux")

SECRET = "0123456789abcdef0123456789abcdef\n"


@dataclass
class Site:
    """A lobby, two door hosts and HAProxy in front, as docs/scaling.md deploys them."""

    lobby: ServerHost
    doors: list[ServerHost]
    balancer: Host
    haproxy: subprocess.Popen[bytes]
    haproxy_log: Path
    """HAProxy's output: it says when a server goes down or comes up."""
    known: Path
    """A ``known_hosts`` holding the door hosts' one key for the balancer's address."""

    def admin_players(self) -> dict[str, list[str]]:
        """``skyjo-server admin players`` on the lobby, each line's words by name."""
        lines = self.lobby.players().splitlines()
        assert lines[0].split() == ["NAME", "WHERE", "DOOR", "DOOR", "HOST", "IDENTITY", "ADDRESS"]
        return {line.split()[0]: line.split() for line in lines[1:]}


def site(net: Network, folder: Path) -> Site:
    """The lobby at 10.77.0.10, door1 and door2 at .11 and .12 (both doors each, trusting
    HAProxy's PROXY header and X-Forwarded-For), HAProxy at .2; everything up and linked."""
    balancer, lobby_host = net.host("balancer", 2), net.host("lobby", 10)
    door_hosts = [net.host("door1", 11), net.host("door2", 12)]
    secret = folder / "door-secret"
    secret.write_text(SECRET)
    lobby = start_lobby(lobby_host, folder / lobby_host.name, secret)
    host_key = asyncssh.generate_private_key("ssh-ed25519")
    doors = [  # started side by side: each imports the whole client in its worker
        start_door_host(
            door,
            folder / door.name,
            host_key,
            *doors_role(lobby_host, secret, door.name),
            *("--ssh-trust-proxy", balancer.address, "--web-trust-proxy", balancer.address),
            web=True,
            wait=False,
        )
        for door in door_hosts
    ]
    for door in doors:
        door.wait_listening()
        door.wait_for_log(r"linked to the lobby at 10\.77\.0\.10:\d+ as 'door\d'")
    haproxy = start_balancer(
        balancer,
        [Backend(d.name, d.address, SSH_PORT) for d in door_hosts],
        folder,
        [Backend(d.name, d.address, WEB_PORT) for d in reversed(door_hosts)],
        balance="first",
    )
    known = known_hosts(folder / "known", balancer.address, host_key)
    return Site(lobby, doors, balancer, haproxy, folder / f"{balancer.name}.log", known)


@pytest.mark.browser
async def test_ssh_and_a_browser_on_two_door_hosts_play_on_through_a_lobby_restart_and_a_dead_door_host(
    net: Network, tmp_path: Path
) -> None:
    """Ann (OpenSSH, door1) and Bea (Chromium, door2) at one table, each seeing the
    other's moves; the lobby as they both see it; the lobby killed and restarted under
    them; Ann's door host killed, and Ann back at her seat through door2; door2 killed,
    and Bea's page back at her seat through door1."""
    at = site(net, tmp_path)
    door1, door2 = at.doors
    ann_host, bea_host = net.host("ann", 100), net.host("bea", 101)
    key = asyncssh.generate_private_key("ssh-ed25519")
    key_file = write_private_key(key.export_private_key(), tmp_path / "ann_ed25519")
    ann_ssh = player_ssh(ann_host, at.balancer.address, "Ann", at.known, key_file)

    async with chromium(run_on(bea_host, str(CHROMIUM), tmp_path)) as browser:
        context = await browser.new_context(viewport=VIEWPORT)
        try:
            url = f"http://{at.balancer.address}:{WEB_PORT}/"
            async with TermPage.open(context, url) as bea:
                async with tmux_pane(ann_ssh) as ann:
                    # One table: Bea opens it in her browser, Ann joins over SSH.
                    await choose_name(bea, "Bea")
                    await open_table(bea)
                    await ann.wait_for("Lobby · Ann", TIMEOUT)
                    await ann.wait_for("Bea's table  ", TIMEOUT)
                    await ann.keys("Down")
                    await ssh_press(ann, "Enter", "Press r when you are ready")
                    await ssh_press(ann, "r", "person  ✓")
                    await bea.shows("person  ✓")
                    await bea.press("s")
                    await bea.shows("Turn up a card of your choice")
                    await ann.wait_for("Turn up a card of your choice", TIMEOUT)

                    # Each sees the other's move, from one door host to the other.
                    await ssh_press(ann, "Enter", "You turned up")
                    await bea.shows("Ann turned up")
                    await bea.press("Enter")
                    await bea.shows("You turned up")
                    await ann.wait_for("Bea turned up", TIMEOUT)

                    # The lobby sees each on their door host, at their own address (neither
                    # HAProxy's nor the door host's).
                    players = at.admin_players()
                    assert (players["Ann"][-1], players["Bea"][-1]) == (
                        ann_host.address,
                        bea_host.address,
                    ), players
                    assert {"ssh", "door1"} <= set(players["Ann"]), players
                    assert {"web", "door2"} <= set(players["Bea"]), players
                    table = players["Ann"][1:3]  # "at", the table's id
                    assert table[0] == "at" and players["Bea"][1:3] == table, players

                    before = {
                        "Ann": turned_up(bea.text, "Ann")[0],
                        "Bea": turned_up(bea.text, "You")[0],
                    }
                    # The lobby dies and comes back on its data: both screens stay, say so,
                    # and go on where they were.
                    at.lobby.kill()
                    await ann.wait_for("reconnecting", TIMEOUT)
                    await bea.shows("reconnecting")
                    at.lobby.restart()
                    await ann.wait_gone("reconnecting", TIMEOUT)
                    await bea.gone("reconnecting")
                    # Each one's second card: had the lobby lost the first, it would ask for
                    # another; each seat's points on Bea's page are its two cards'.
                    await ann.keys("Right", "Enter")
                    await ann.wait_until(
                        lambda screen: flips_done(prompt_of(screen)), "Ann's flips done", TIMEOUT
                    )
                    await bea.press("ArrowRight", "Enter")
                    await bea.screen_until(
                        lambda screen: flips_done(prompt_of(screen)), "her flips"
                    )
                    for who, log_name in (("Ann", "Ann"), ("Bea", "You")):
                        turned = turned_up(bea.text, log_name)
                        assert len(turned) == 2 and turned[0] == before[who], bea.text
                        assert points(bea.text, who) == sum(turned), bea.text

                    # Ann's door host dies: her ssh ends; the same command again lands on
                    # door2 through HAProxy, known_hosts still valid, at her seat.
                    door1.kill_host()
                    await ann.wait_for_exit(WAIT)
                async with tmux_pane(ann_ssh) as ann:
                    screen = await ann.wait_until(
                        lambda screen: flips_done(prompt_of(screen)),
                        "Ann back at her seat",
                        TIMEOUT,
                    )
                    players = at.admin_players()
                    assert players["Ann"][1:3] == table, players
                    assert {"door2", ann_host.address} <= set(players["Ann"]), players
                    # And the game goes on between them, both on door2 now.
                    if prompt_of(screen).startswith("Your turn:"):
                        await ssh_press(ann, "t", "Choose the card the")
                        await ssh_press(ann, "Enter", "You took the")
                        await bea.shows("Ann took the")
                    else:
                        await bea.screen_until(
                            lambda screen: prompt_of(screen).startswith("Your turn:"), "her turn"
                        )
                        await bea.press("t")
                        await bea.shows("Choose the card the")
                        await bea.press("Enter")
                        await ann.wait_for("Bea took the", TIMEOUT)

                    # door1 back, door2 dies: Bea's page finds the site again by itself
                    # and reloads onto door1, her cookie good there too: at her seat.
                    mark = len(door1.log.read_text())
                    door1.restart()
                    door1.wait_for_log(r"linked to the lobby", after=mark)
                    wait_server_up(at.haproxy_log, "web_doors/door1", at.haproxy)
                    opened = len(bea.connections)
                    door2.kill_host()
                    await bea.wait_until(lambda: len(bea.connections) > opened, "a new page")
                    await bea.screen_until(lambda screen: "Pile" in screen, "her seat again")
                    players = at.admin_players()
                    assert players["Bea"][1:3] == table, players
                    assert {"door1", bea_host.address} <= set(players["Bea"]), players
        finally:
            await asyncio.wait_for(context.close(), TIMEOUT)


def flips_done(prompt: str) -> bool:
    """The prompt once a player's two first cards are up: a turn, or waiting for one."""
    return prompt.startswith(("Your turn:", "Waiting for"))


def turned_up(page: str, who: str) -> list[int]:
    """The values the game's log on ``page`` says ``who`` turned up ("You" for the page's
    own player), oldest first."""
    return [int(value) for value in re.findall(rf"{who} turned up an? (-?\d+)\.", page)]


def points(page: str, name: str) -> int:
    """The points of ``name``'s face-up cards, as their seat line on ``page`` says."""
    found = re.search(rf"{name}\s+(-?\d+) pts? ·", page)
    assert found is not None, f"no seat line for {name}:\n{page}"
    return int(found.group(1))


CLAIM = """\
import json, socket, sys
from server.protocol import HEADER, HEADER_SIZE, decode_body, encode_frame

with socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=10) as sock:
    stream = sock.makefile("rb")

    def frame():
        (length,) = HEADER.unpack(stream.read(HEADER_SIZE))
        return decode_body(stream.read(length))

    sock.sendall(encode_frame({"type": "door_challenge", "id": 1}))
    assert frame()["type"] == "ok"
    sock.sendall(encode_frame({
        "type": "door_claim", "id": 2, "version": 1, "proof": "00" * 32, "host": "door-x",
        "door": "ssh", "identity": "ssh-key:SHA256:someone-else", "address": "203.0.113.9",
    }))
    print(json.dumps(frame()))
    print(json.dumps({"closed": stream.read() == b""}))
"""
"""A plain TCP client that asks the lobby for a nonce and claims someone's key without
the secret (``docs/protocol.md``, *Door hosts*); prints the lobby's answer."""


async def test_a_door_host_with_a_wrong_secret_and_a_stranger_claiming_an_identity_are_refused(
    net: Network, tmp_path: Path
) -> None:
    lobby_host, door, stranger = net.host("lobby", 10), net.host("door1", 11), net.host("x", 66)
    player = net.host("player", 100)
    secret, wrong = tmp_path / "door-secret", tmp_path / "wrong-secret"
    secret.write_text(SECRET)
    wrong.write_text("another secret, long enough\n")
    lobby = start_lobby(lobby_host, tmp_path / lobby_host.name, secret)

    said = stranger.run(sys.executable, "-c", CLAIM, lobby_host.address, str(LOBBY_PORT))
    assert said.returncode == 0, said.stderr
    bye, closed = (json.loads(line) for line in said.stdout.splitlines())
    assert (bye["type"], bye["code"]) == ("bye", "door_refused"), bye
    assert "wrong door secret" in bye["message"]
    assert closed == {"closed": True}
    # The lobby's log: the refusal, at the stranger's own address (counted: a line a
    # minute at most, however many try).
    lobby.wait_for_log(
        r"door claims refused: 1 since the last report, 1 in all "
        r"\(latest: 10\.77\.0\.66: this lobby refused the door host: wrong door secret\)"
    )

    host_key = asyncssh.generate_private_key("ssh-ed25519")
    doors = start_door_host(
        door, tmp_path / door.name, host_key, *doors_role(lobby_host, wrong, "door1")
    )
    doors.wait_for_log(r"the lobby at 10\.77\.0\.10:\d+ says: .*wrong door secret")
    # Its player reaches the door host but plays nowhere: it waits for a game server out
    # of reach, not told the host's configuration (its log says why) nor the lobby's address.
    known = known_hosts(tmp_path / "known", door.address, host_key)
    async with tmux_pane(player_ssh(player, door.address, "Dora", known)) as pane:
        screen = await pane.wait_for("cannot be reached yet: trying again", TIMEOUT)
        assert "secret" not in screen and lobby_host.address not in screen, screen
    assert lobby.players().splitlines()[1:] == []  # nobody claimed: not the stranger's key
    log = lobby.log.read_text()
    assert "Traceback" not in log
    assert "someone-else" not in log
