"""A hosted app's workers end with its session, whatever they did with their cancellation.

Textual cancels an app's workers as it exits and does not wait for them. One that
lost that cancellation ran on, owned by nobody, until the garbage collector destroyed
it mid-await in some later test (``PytestUnraisableExceptionWarning``: a ``Worker._run``
coroutine closed in another context). The host ends them itself, and says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Label
from textual.worker import Worker, WorkerState

from server.termhost import DoorPlayer, HostLimits, SessionHost, SessionInfo, SessionStart
from server.termhost.hardening import LEFTOVER_WORKERS
from server.termhost.hosted import HostedSession

from .pyteterm import PyteTransport, until

SIZE = (80, 24)


class Waiting(App[None]):
    """Starts one worker that waits for an answer that never comes."""

    def __init__(self, *, loses_its_cancellation: bool, stuck_mounting: bool) -> None:
        super().__init__()
        self.loses_its_cancellation = loses_its_cancellation
        self.stuck_mounting = stuck_mounting
        self.worker: Worker[None] | None = None

    def compose(self) -> ComposeResult:
        yield Label("Waiting for an answer")

    async def on_mount(self) -> None:
        self.worker = self.run_worker(self.wait_for_an_answer(), name="wait for an answer")
        if self.stuck_mounting:
            await asyncio.Event().wait()  # until the host cancels the whole app

    async def wait_for_an_answer(self) -> None:
        if self.loses_its_cancellation:
            # Lost, as Python 3.11's asyncio.wait_for lost one that came with its result.
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.Event().wait()
        await asyncio.Event().wait()


@pytest.fixture
async def host() -> AsyncIterator[SessionHost]:
    def build(info: SessionInfo) -> App[Any]:
        return Waiting(
            loses_its_cancellation=info.player.login == "loses",
            stuck_mounting=info.player.login == "stuck",
        )

    host = SessionHost(build, limits=HostLimits(idle_timeout=None, stop_timeout=0.5))
    try:
        yield host
    finally:
        await host.close()


async def _open(host: SessionHost, login: str) -> tuple[HostedSession, Waiting, PyteTransport]:
    transport = PyteTransport(SIZE)
    player = DoorPlayer("ssh", None, peer="127.0.0.1", login=login)
    session = host.open(transport, SessionStart(player, size=SIZE))
    assert session is not None
    await until(lambda: isinstance(session.app, Waiting) and session.app.worker, "the worker")
    app = session.app
    assert isinstance(app, Waiting)
    return session, app, transport


async def test_a_worker_that_lost_its_cancellation_ends_with_the_session(
    host: SessionHost, caplog: pytest.LogCaptureFixture
) -> None:
    session, app, transport = await _open(host, "loses")
    await until(lambda: "Waiting for an answer" in transport.text, "the app's screen")
    worker = app.worker
    assert worker is not None
    counted = LEFTOVER_WORKERS.count
    with caplog.at_level(logging.INFO, logger="server.termhost.hardening"):
        session.transport_lost()  # the player hangs up
        await until(lambda: transport.ended is not None, "the session's end")
    assert worker.state is WorkerState.CANCELLED
    assert not list(app.workers)
    # A bug, said by name, and counted in the WARNING a minute at most (a stranger whose
    # connections end as they open must not write a WARNING each).
    assert "workers still running (wait for an answer)" in caplog.text
    assert LEFTOVER_WORKERS.count == counted + 1


async def test_the_workers_of_an_app_cancelled_while_it_mounts_end_with_it(
    host: SessionHost,
) -> None:
    """Stuck in its first mount, the app is cancelled by the host's watchdog, before
    Textual's message loop (which cancels the workers on its way out) ever ran."""
    session, app, transport = await _open(host, "stuck")
    worker = app.worker
    assert worker is not None
    session.transport_lost()
    await until(lambda: transport.ended is not None, "the session's end")
    await until(lambda: worker.is_finished, "the worker's end")
    assert worker.state is WorkerState.CANCELLED
