"""The real thing behind the browser door: ``SkyjoServer`` with its ``WebFrontDoor``
(and, for the journeys with an SSH player, its ``SSHFrontDoor``), as
``skyjo-server`` attaches them, on 127.0.0.1 (port 0), always stopped.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from server.app import SkyjoServer
from server.config import ServerConfig
from server.ssh import SessionLimits
from server.ssh.frontdoor import SSHFrontDoor, SSHOptions, skyjo_app_factory
from server.web.door import WebFrontDoor
from server.web.options import WebOptions

from ..ssh.realdoor import TEST_LIMITS, TEST_PACE

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
async def web_door(data_dir: Path, *, ssh: bool = False, **options: Any) -> AsyncIterator[WebDoor]:
    """Lobby + browser door (+ SSH door with ``ssh``), stopped at the end.

    ``options`` override the door's ``WebOptions`` (caps, origins)."""
    config = ServerConfig(host="127.0.0.1", port=0, data_dir=data_dir, pace=TEST_PACE,
                          limits=TEST_LIMITS)
    server = SkyjoServer(config)
    web_options = dataclasses.replace(WebOptions(port=0, host="127.0.0.1"), **options)
    web_options = dataclasses.replace(web_options, app_options={**APP_OPTIONS, **web_options.app_options})
    web = WebFrontDoor(web_options)
    server.add_front_door(web)
    ssh_door = None
    if ssh:
        ssh_door = SSHFrontDoor(
            SSHOptions(port=0, gc_policy=None, limits=SessionLimits(stop_timeout=3.0)),
            game_app_factory=functools.partial(skyjo_app_factory, **APP_OPTIONS),
        )
        server.add_front_door(ssh_door)
    await server.start()
    try:
        yield WebDoor(server, web, ssh_door)
    finally:
        await server.stop()
