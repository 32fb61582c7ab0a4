"""An app told to stop while its "Connecting…" screen is still being put up ends cleanly.

Over SSH or in the browser, the door stops the app when the player hangs up or stays idle;
on a loaded machine that can come before the first screen has mounted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.worker import Worker, WorkerState, get_current_worker

from server.app import SkyjoServer
from server.netclient import ServerConnection
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.connecting import ConnectingScreen
from skyjo_tui.screens.name import NameScreen

from .players import wait_for


async def test_exit_while_the_connecting_screen_mounts_is_not_a_crash(
    make_app: Callable[..., SkyjoApp],
) -> None:
    app = make_app()
    async with app.run_test() as pilot:
        await pilot.pause()
        app.push_screen(ConnectingScreen("example.org"))
        app.exit()  # in the same moment, before the screen's on_mount has run
        await pilot.pause()
    # run_test raises the app's crash, if any, as it closes.
    assert app.return_code == 0


async def test_a_login_cancelled_as_its_connection_opens_asks_for_no_name(
    make_app: Callable[..., SkyjoApp], server: SkyjoServer
) -> None:
    """The app quits (its login worker is cancelled) in the very moment the connection
    to the server opens: the login stops there.  Python 3.11's ``asyncio.wait_for``
    returned the connection instead, and the worker went on to put up the name prompt
    and wait for a name nobody would type, outliving its app (over SSH or in the
    browser: a player hanging up as their screen starts)."""
    connect = tcp_connector("127.0.0.1", server.port)
    logins: list[Worker[Any]] = []

    async def connect_as_the_app_quits() -> ServerConnection:
        connection = await connect()
        login = get_current_worker()
        logins.append(login)
        login.cancel()  # as Textual does to every worker when the app exits
        return connection

    app = make_app(connect_as_the_app_quits, server_label="test")  # no name: one is asked for
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: bool(logins) and logins[0].is_finished)
        assert logins[0].state is WorkerState.CANCELLED
        assert not any(isinstance(screen, NameScreen) for screen in app.screen_stack)
