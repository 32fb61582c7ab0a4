"""The Connecting screen comes up only when logging in takes a while.

A server that answers at once goes straight to the lobby: no screen built
only to flash by (for a door's player, that was a third of the CPU time of
reaching the lobby). A slow one shows "Connecting to ..." until it answers.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from textual.app import ComposeResult

import skyjo_tui.app as skyjo_app
from server.app import SkyjoServer
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import CONNECTING_AFTER, SkyjoApp
from skyjo_tui.screens.connecting import ConnectingScreen
from skyjo_tui.screens.lobby import LobbyScreen

from .journeys.seen import screen_text
from .players import wait_for
from .relay import Relay


@pytest.fixture
async def server(make_server: Callable[..., Awaitable[SkyjoServer]]) -> SkyjoServer:
    return await make_server()


@pytest.fixture
async def relay(server: SkyjoServer) -> AsyncIterator[Relay]:
    relay = Relay(server.port)
    await relay.start()
    yield relay
    await relay.stop()


async def test_a_server_that_answers_at_once_opens_the_lobby_without_a_connecting_screen(
    make_app: Callable[..., SkyjoApp], server: SkyjoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    composed: list[ConnectingScreen] = []
    compose = ConnectingScreen.compose

    def counted(screen: ConnectingScreen) -> ComposeResult:
        composed.append(screen)  # the screen is being built to be shown
        return compose(screen)

    monkeypatch.setattr(ConnectingScreen, "compose", counted)
    # "At once" is anything quicker than CONNECTING_AFTER: long enough for a loaded machine.
    monkeypatch.setattr(skyjo_app, "CONNECTING_AFTER", 30.0)
    app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice", server_label="test")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(
            pilot, lambda: isinstance(app.screen, LobbyScreen) and "Lobby" in screen_text(app)
        )
        assert len(app.screen_stack) == 2
    assert composed == []


async def test_a_slow_server_shows_connecting_until_it_answers(
    make_app: Callable[..., SkyjoApp], relay: Relay
) -> None:
    relay.hold()  # the server's welcome waits in the relay
    app = make_app(tcp_connector("127.0.0.1", relay.port), name="Alice", server_label="test")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, ConnectingScreen) and "Connecting" in screen_text(app),
        )
        assert CONNECTING_AFTER < 1.0  # a person notices the wait after about a second
        relay.release()
        await wait_for(
            pilot, lambda: isinstance(app.screen, LobbyScreen) and "Lobby" in screen_text(app)
        )
        assert len(app.screen_stack) == 2  # the lobby took the Connecting screen's place
