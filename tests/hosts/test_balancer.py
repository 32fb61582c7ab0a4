"""Players on their own hosts reach door hosts through HAProxy on another (network
namespaces stand for the machines): the doors see each player's own address, and a
player whose door host dies comes back through the balancer to the other one, its
``known_hosts`` still valid.

Each door host here is a whole ``skyjo-server`` (its own lobby) trusting the balancer's
PROXY protocol v2 (``--ssh-trust-proxy``) and its X-Forwarded-For (``--web-trust-proxy``);
the players are the real OpenSSH client in tmux, checking the host key against a
``known_hosts`` file, and Chromium, each run on the player's host.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncssh
import pytest

from ..ssh.tmuxkit import SSH, TMUX, tmux_pane
from ..web.browserkit import CHROMIUM, TIMEOUT, VIEWPORT, TermPage, chromium
from ..web.webdoor import choose_name
from .kit import WAIT, Backend, Network, run_on
from .servers import (
    SSH_PORT,
    WEB_PORT,
    ServerHost,
    known_hosts,
    player_ssh,
    start_balancer,
    start_door_host,
)

pytestmark = pytest.mark.skipif(not (SSH and TMUX), reason="needs the ssh client and tmux")


def door_hosts(
    net: Network, folder: Path, host_key: asyncssh.SSHKey, count: int, *options: str
) -> list[ServerHost]:
    """``count`` door hosts (10.77.0.11...) behind HAProxy on 10.77.0.2."""
    balancer = net.host("balancer", 2)
    doors = [net.host(f"door{n}", 10 + n) for n in range(1, count + 1)]
    servers = [
        start_door_host(
            door, folder / door.name, host_key, "--ssh-trust-proxy", balancer.address, *options
        )
        for door in doors
    ]
    start_balancer(balancer, [Backend(d.name, d.address, SSH_PORT) for d in doors], folder)
    return servers


async def test_a_player_is_seen_at_their_own_address_and_comes_back_through_the_other_door(
    net: Network, tmp_path: Path
) -> None:
    host_key = asyncssh.generate_private_key("ssh-ed25519")
    servers = door_hosts(net, tmp_path, host_key, 2)
    player = net.host("player", 100)
    balancer = net.hosts["balancer"].address
    ssh = player_ssh(player, balancer, "skyjo", known_hosts(tmp_path / "known", balancer, host_key))

    async with tmux_pane(ssh) as pane:
        await pane.wait_for("Choose your name", timeout=WAIT)
        await pane.keys("Dora", "Enter")
        await pane.wait_for("Lobby · Dora")
        addresses = [server.address_of("Dora") for server in servers]
        assert sorted(addresses, key=str) == [player.address, None], addresses
        landed = servers[addresses.index(player.address)]
        landed.kill()
        await pane.wait_for_exit(WAIT)

    # The same command again: the balancer sends it to the door host still up, whose
    # host key is the one known (a different key: ssh refuses, "Choose" never shows).
    async with tmux_pane(ssh) as pane:
        await pane.wait_for("Choose your name", timeout=WAIT)
        await pane.keys("Dora", "Enter")
        await pane.wait_for("Lobby · Dora")
        (other,) = (server for server in servers if server is not landed)
        assert other.address_of("Dora") == player.address
    # HAProxy's health checks (a connection a second, PROXY v2 LOCAL) are no refusals.
    assert "PROXY header" not in other.log.read_text()


async def test_the_cap_per_address_through_haproxy_counts_each_player_not_the_balancer(
    net: Network, tmp_path: Path
) -> None:
    host_key = asyncssh.generate_private_key("ssh-ed25519")
    (server,) = door_hosts(net, tmp_path, host_key, 1, "--ssh-max-per-address", "1")
    player, neighbour = net.host("player", 100), net.host("neighbour", 101)
    balancer = net.hosts["balancer"].address
    known = known_hosts(tmp_path / "known", balancer, host_key)

    async with tmux_pane(player_ssh(player, balancer, "Dora", known)) as first:
        await first.wait_for("Lobby · Dora", timeout=WAIT)
        # The same player's second connection is over the cap of one per address...
        async with tmux_pane(player_ssh(player, balancer, "Dora", known)) as second:
            status, screen = await second.wait_for_exit(WAIT)
            said = " ".join(screen.split())  # OpenSSH's line, wrapped at 80 columns
            assert "Too many connections from your address" in said, screen
            assert status == 255, screen
        # ...and another player behind the same balancer is not.
        async with tmux_pane(player_ssh(neighbour, balancer, "Eve", known)) as third:
            await third.wait_for("Lobby · Eve", timeout=WAIT)
            assert server.address_of("Eve") == neighbour.address
        assert server.address_of("Dora") == player.address


@pytest.mark.browser
async def test_a_browser_through_haproxy_is_seen_at_its_own_address(
    net: Network, tmp_path: Path
) -> None:
    """The browser door behind HAProxy in HTTP mode (``option forwardfor``) believes the
    balancer's X-Forwarded-For: docs/scaling.md's configuration, with Chromium."""
    balancer, door = net.host("balancer", 2), net.host("door1", 11)
    player = net.host("player", 100)
    server = start_door_host(
        door,
        tmp_path / door.name,
        asyncssh.generate_private_key("ssh-ed25519"),
        "--web-trust-proxy",
        balancer.address,
        web=True,
    )
    start_balancer(
        balancer,
        [Backend(door.name, door.address, SSH_PORT)],
        tmp_path,
        [Backend(door.name, door.address, WEB_PORT)],
    )
    async with chromium(run_on(player, str(CHROMIUM), tmp_path)) as browser:
        context = await browser.new_context(viewport=VIEWPORT)
        try:
            url = f"http://{balancer.address}:{WEB_PORT}/"
            async with TermPage.open(context, url) as page:
                await choose_name(page, "Wren")
                assert server.address_of("Wren") == player.address
        finally:
            await asyncio.wait_for(context.close(), TIMEOUT)
