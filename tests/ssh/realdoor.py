"""The real thing behind the SSH front door: ``SkyjoServer`` and the Textual client.

A lobby server on 127.0.0.1 (port 0) with the SSH front door attached as
``skyjo-server`` attaches it, serving the client built by its own factory
(``pace="off"``: others' moves appear at once; English).  Players are asyncssh
clients with their own keys and a PTY; their screens are read from the stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import inspect
import weakref
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh
from textual.app import App

from server import netclient
from server.app import SkyjoServer
from server.config import Limits, Pace, ServerConfig
from server.ssh.frontdoor import PlayerSession, SSHFrontDoor, SSHOptions, skyjo_app_factory
from server.termhost import HostLimits
from server.termhost.options import WorkerOptions
from skyjo_tui import link as client_link

from .sshkit import TIMEOUT, Term, closing, connect, connect_guest, open_terminal

#: Bots move at once; a dropped player's seat waits for them a whole minute.
TEST_PACE = Pace(bot_delay=0.0, grace_period=60.0, between_rounds=600.0)
TEST_LIMITS = Limits(max_connections_per_address=64, messages_per_second=5000, message_burst=5000)

DOWN, RIGHT, ENTER, CTRL_S = b"\x1b[B", b"\x1b[C", b"\r", b"\x13"


@dataclass
class RealDoor:
    server: SkyjoServer
    door: SSHFrontDoor
    apps: list[weakref.ref[App[Any]]] = field(default_factory=list)

    @property
    def port(self) -> int:
        return self.door.port


@contextlib.asynccontextmanager
async def real_door(
    data_dir: Path,
    limits: HostLimits | None = None,
    workers: WorkerOptions | None = None,
    lang: str | None = "en",
    page: str | None = None,
    **door_options: Any,
) -> AsyncIterator[RealDoor]:
    """Lobby + SSH front door, always stopped (the door first, as the server does).

    With ``workers``, the apps run in worker processes (``apps`` stays empty). ``lang``
    None: each player's language comes from the LANG their client sends, as in
    ``skyjo-server``; ``page``: the browser door's address, as ``skyjo-server`` gives it;
    ``door_options``: more ``SSHOptions`` (``trusted_proxies``...)."""
    apps: list[weakref.ref[App[Any]]] = []
    build = functools.partial(skyjo_app_factory, pace="off", lang=lang)

    def factory(player_session: PlayerSession) -> App[Any]:
        app = build(player_session)
        apps.append(weakref.ref(app))
        return app

    config = ServerConfig(
        host="127.0.0.1", port=0, data_dir=data_dir, pace=TEST_PACE, limits=TEST_LIMITS
    )
    server = SkyjoServer(config)
    options = SSHOptions(
        port=0,
        gc_policy=None,
        limits=limits or HostLimits(stop_timeout=3.0),
        workers=workers,
        worker_app_options={"pace": "off", "lang": lang},
        page=page,
        **door_options,
    )
    door = SSHFrontDoor(options, game_app_factory=factory)
    server.add_front_door(door)
    await server.start()
    try:
        yield RealDoor(server, door, apps)
    finally:
        await server.stop()


@contextlib.asynccontextmanager
async def player(
    port: int, username: str, key: asyncssh.SSHKey | None, size: tuple[int, int] = (80, 24)
) -> AsyncIterator[Term]:
    """A player at an 80x24 terminal (``key`` None: a guest)."""
    if key is None:
        conn = await connect_guest(port, username)
    else:
        conn = await connect(port, username, client_keys=[key])
    async with closing(conn), open_terminal(conn, term_size=size) as term:
        yield term


async def first_to_show(terms: list[Term], needle: str) -> int:
    """Index of the terminal whose screen shows ``needle`` first.

    The terminals are read in turn with short timeouts rather than in
    concurrent tasks: cancelling a read that has just completed would lose
    what it read (Python 3.11's wait_for).
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    while loop.time() < deadline:
        for index, term in enumerate(terms):
            if needle in term.screen.text:
                return index
            with contextlib.suppress(asyncio.TimeoutError):
                await term.read(0.02)
    screens = "\n\n".join(term.screen.text for term in terms)
    raise AssertionError(f"no terminal shows {needle!r}:\n{screens}")


async def create_table(host: Term) -> None:
    """From the lobby: a new table with the default settings; wait in its room."""
    host.press(b"n")
    await host.shows("New table")
    host.press(CTRL_S)
    await host.shows("You are the host")


async def join_first_table(guest: Term, table: str) -> None:
    """From the lobby: join the first listed table once ``table`` is listed (its row:
    the name then the seats column; the who-is-here line names it too, with no gap)."""
    await guest.shows(f"{table}  ")
    guest.press(DOWN + ENTER)
    await guest.shows("Press r when you are ready")


async def turn_up_two_cards(term: Term, name: str) -> None:
    """The initial flips: the card under the cursor, then the one to its right.

    Both keys are pressed at a person's pace without waiting for the server:
    the client keeps a key pressed while its previous move is on its way.
    """
    await term.shows("Turn up a card of your choice")
    term.press(ENTER)
    term.press(RIGHT)
    term.press(ENTER)
    await term.wait_until(lambda text: "Turn up a card" not in text, "the next prompt")


async def take_the_discard(term: Term) -> None:
    """A whole turn: take the discard, put it where the cursor is.

    The turn is over for this player once the board shows the move played:
    the take prompt stays until then, and "Your turn" never comes back meanwhile.
    """
    term.press(b"t")
    await term.wait_until(lambda text: "Choose the card the" in text, "the take prompt")
    term.press(ENTER)
    await term.wait_until(
        lambda text: "Choose the card the" not in text and "Your turn:" not in text,
        "the end of the turn",
    )


def holders(obj: object, depth: int = 4) -> str:
    """Who keeps ``obj`` alive: referrer chains, for a failing assertion's message."""
    lines: list[str] = []
    seen = {id(lines)}

    def walk(target: object, level: int) -> None:
        if level >= depth:
            return
        for referrer in gc.get_referrers(target):
            if id(referrer) in seen or inspect.isframe(referrer):
                continue
            seen.add(id(referrer))
            lines.append("  " * level + f"{type(referrer).__name__}: {str(referrer)[:100]!r}")
            walk(referrer, level + 1)

    seen.add(id(seen))
    walk(obj, 0)
    return "\n".join(lines[:60])


#: How long a finished app may still be referenced, and not leaked: asyncio keeps a
#: cancelled timer, with the context it was made in (the app's: Textual's ``active_app``),
#: until it falls due, and the longest an app arms is a request's timeout.  Under load,
#: the last apps' last requests were answered less than that before they finished.
FREED_WITHIN = max(client_link.TIMEOUT, netclient.DEFAULT_TIMEOUT) + 5.0


async def wait_collected(refs: list[weakref.ref[Any]], timeout: float = FREED_WITHIN) -> None:
    """Collect garbage until every referent is gone (finalizers may need the
    loop to run in between); on failure, say what keeps the first one alive."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        gc.collect()
        if all(ref() is None for ref in refs):
            return
        await asyncio.sleep(0.05)
    alive = [ref() for ref in refs if ref() is not None]
    raise AssertionError(f"{len(alive)} finished apps are still alive:\n{holders(alive[0])}")
