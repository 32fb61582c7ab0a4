"""The one host of a Skyjo server's players' screens, shared by every door.

``GameHost`` is attached to the server before the doors (so it starts first
and stops last): it builds the ``SessionHost`` with the game's app factory,
starts the worker processes, and applies the garbage-collector policy to the
server process (its thresholds and frozen imports; freezing survivors and
thawing only when the screens run in this process).  SSH and browser sessions then run on the same workers,
through the same relay, with the same limits.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..termhost.gcpolicy import DEFAULT_GC_POLICY, GCPolicy, GCScheduler
from ..termhost.hosted import SessionHost
from ..termhost.options import HostLimits, HostMessages, WorkerOptions
from ..termhost.worker import HostSettings
from ..termhost.workers import WorkerPool
from .game import (
    GameAppFactory,
    InProcessServer,
    describe_for_worker,
    in_process_app_factory,
    lobby_for_worker,
    skyjo_app_factory,
)

logger = logging.getLogger(__name__)

REMOTE_APP_FACTORY = "server.doors.game:remote_skyjo_app"
"""What a worker process builds each session's app with."""


@dataclass(frozen=True)
class HostOptions:
    """How the players' screens run (``options.host_options_from_args`` or by hand)."""

    limits: HostLimits = HostLimits()
    messages: HostMessages = HostMessages()
    workers: WorkerOptions | None = None
    """Worker processes that run the apps; None or 0 processes: the apps run in
    the server's own process (one process, the least memory for a few friends;
    a large server pauses everyone while it frees finished screens)."""
    worker_app_options: Mapping[str, Any] = field(default_factory=dict)
    """``build_app`` options for the apps in workers (tests: ``pace="off"``)."""
    gc_policy: GCPolicy | None = DEFAULT_GC_POLICY
    """Applied to the server process once (None: leave the collector alone, e.g. in tests)."""


_gc_policy_applied = False


class GameHost:
    """A ``server.app.FrontDoor``-shaped part: ``start(server)``, ``stop()``."""

    def __init__(
        self,
        options: HostOptions | None = None,
        *,
        game_app_factory: GameAppFactory = skyjo_app_factory,
    ) -> None:
        self.options = options or HostOptions()
        self._game_app_factory = game_app_factory
        self.host: SessionHost | None = None
        """Set while started."""

    async def start(self, server: InProcessServer) -> None:
        """Raises ``OSError`` when the worker processes cannot start."""
        if self.host is not None:
            return
        options = self.options
        host = SessionHost(
            in_process_app_factory(server, self._game_app_factory),
            limits=options.limits,
            messages=options.messages,
        )
        if options.workers is not None and options.workers.processes > 0:
            host.pool = await self._start_workers(server, options)
        if options.gc_policy is not None:
            global _gc_policy_applied
            if not _gc_policy_applied:
                options.gc_policy.apply()
                _gc_policy_applied = True
            # Without workers the screens run here: freeze what they keep, thaw what
            # they leave.  With workers the screens and their garbage are theirs.
            # This process keeps the connections, relays and the lobby (a few
            # hundred objects a player, some of them in cycles when they end): the
            # ordinary collector frees what they leave, walking only them (the
            # imports stay frozen), never in a thaw, which would walk the whole heap
            # and pause every player at once (46-96 ms at 200 players); it only
            # waits while a session starts.
            host.start_gc(GCScheduler(options.gc_policy, freezes=host.pool is None))
        self.host = host

    @staticmethod
    async def _start_workers(server: InProcessServer, options: HostOptions) -> WorkerPool:
        assert options.workers is not None
        limits = options.limits
        pool = WorkerPool(
            options.workers,
            REMOTE_APP_FACTORY,
            describe=describe_for_worker(options.worker_app_options),
            connect_lobby=lobby_for_worker(server),
            settings=HostSettings(
                crashed=options.messages.crashed,
                stop_timeout=limits.stop_timeout,
                pending_input_cap=limits.pending_input_cap,
                preload=("skyjo_tui.app",),
                gc_policy=options.gc_policy,
            ),
        )
        try:
            await pool.start()
        except BaseException:
            await pool.close()
            raise
        processes = options.workers.processes
        logger.info(
            "players' screens run in %d worker %s (recycled after %d sessions)",
            processes,
            "process" if processes == 1 else "processes",
            options.workers.recycle_after,
        )
        return pool

    async def stop(self, timeout: float = 5.0) -> None:
        """Stop every app still running (the doors stopped theirs first)."""
        host, self.host = self.host, None
        if host is not None:
            await host.close(timeout=timeout)

    close = stop


__all__ = ["REMOTE_APP_FACTORY", "GameHost", "HostOptions"]
