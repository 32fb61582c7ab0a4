"""The real thing behind the browser door: ``SkyjoServer`` with its ``WebFrontDoor``
(and, for the journeys with an SSH player, its ``SSHFrontDoor``), as
``skyjo-server`` attaches them, on 127.0.0.1 (port 0), always stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from server.admin.door import AdminDoor
from server.app import SkyjoServer
from server.config import ServerConfig
from server.doors.host import GameHost, HostOptions
from server.ssh.frontdoor import SSHFrontDoor, SSHOptions, skyjo_app_factory
from server.termhost import HostLimits
from server.web.door import WebFrontDoor
from server.web.options import WebOptions

from ..ssh.realdoor import TEST_LIMITS, TEST_PACE
from .browserkit import TermPage

#: Others' moves appear at once; English.
APP_OPTIONS = {"pace": "off", "lang": "en"}


@dataclass
class WebDoor:
    server: SkyjoServer
    web: WebFrontDoor
    ssh: SSHFrontDoor | None

    @property
    def url(self) -> str:
        """The page, as ``skyjo-server`` prints it."""
        return f"http://127.0.0.1:{self.web.port}/"

    @property
    def ssh_port(self) -> int:
        assert self.ssh is not None, "this server has no SSH door"
        return self.ssh.port


@contextlib.asynccontextmanager
async def web_door(
    data_dir: Path, *, ssh: bool = False, admin: bool = False, **options: Any
) -> AsyncIterator[WebDoor]:
    """Lobby + browser door (+ SSH door with ``ssh``, + the admin socket with ``admin``:
    ``skyjo-server admin --data-dir DATA_DIR``), stopped at the end.

    ``options`` override the door's ``WebOptions`` (caps, origins)."""
    config = ServerConfig(
        host="127.0.0.1", port=0, data_dir=data_dir, pace=TEST_PACE, limits=TEST_LIMITS
    )
    server = SkyjoServer(config)
    web_options = dataclasses.replace(WebOptions(port=0, host="127.0.0.1"), **options)
    web_options = dataclasses.replace(
        web_options, app_options={**APP_OPTIONS, **web_options.app_options}
    )
    # One host for both doors, attached first, as skyjo-server does (in-process here).
    game_host = GameHost(
        HostOptions(limits=options.get("limits", HostLimits(stop_timeout=3.0)), gc_policy=None),
        game_app_factory=functools.partial(skyjo_app_factory, **web_options.app_options),
    )
    server.add_front_door(game_host)
    web = WebFrontDoor(web_options, host=game_host)
    server.add_front_door(web)
    ssh_door = None
    if ssh:
        ssh_door = SSHFrontDoor(SSHOptions(port=0, gc_policy=None), host=game_host)
        server.add_front_door(ssh_door)
    if admin:
        server.add_front_door(AdminDoor())
    await server.start()
    try:
        yield WebDoor(server, web, ssh_door)
    finally:
        await server.stop()
    # Every player's app took its workers with it: one left running is owned by nobody,
    # and the collector destroys it mid-await in whichever test runs then.
    assert running_app_workers() == [], "workers outlived their apps"


def running_app_workers() -> list[asyncio.Task[Any]]:
    """The Textual workers still running on this event loop (of any app)."""
    return [
        task
        for task in asyncio.all_tasks()
        if getattr(task.get_coro(), "__qualname__", "") == "Worker._run"
    ]


# What a person does on the page, step by step (each step waits for what they would see).


def prompt_of(screen: str) -> str:
    """The table's prompt line: the row above the footer."""
    lines = screen.rstrip("\n").splitlines()
    return lines[-2].strip() if len(lines) >= 2 else ""


#: A seat line's points: "12 pts · ", "1 pt · ", "-3 pts · ".
SCORE = re.compile(r"-?\d+ pts? · ")


async def choose_name(page: TermPage, name: str) -> None:
    """The name dialog, answered at once (the page gives the terminal the keyboard); the lobby."""
    await page.shows("Choose your name")
    await page.type(name)
    await page.press("Enter")
    await page.shows(f"Lobby · {name}")


async def open_table(page: TermPage) -> None:
    """From the lobby: a new table with the default settings; its room."""
    await page.press("n")
    await page.shows("New table")
    await page.press("Control+s")
    await page.shows("You are the host")


def my_card(page: TermPage, name: str, column: int = 0, row: int = 0) -> tuple[int, int]:
    """The middle of one of ``name``'s cards (their big tableau, under their seat line)."""
    # "12 pts · total 0", or "1 pt · total 0": a score of one point is singular.
    seat_lines = [
        (y, line) for y, line in enumerate(page.lines) if name in line and SCORE.search(line)
    ]
    if not seat_lines:
        raise AssertionError(f"no seat line for {name}:\n{page.text}")
    y, line = seat_lines[0]
    x = line.index(name)
    # The seat line starts over the first card; a card is 9 wide (a gap of 1) and 6 high.
    return x + 4 + column * 10, y + 3 + row * 6
