"""A hosted player's app starts straight on the lobby: its server is on the same
machine and answers the login at once, so no Connecting screen is built to flash by
(a third of a hosted start's CPU time before the lobby was drawn). A server over the
network still shows it: tests/client/test_connecting.py."""

from __future__ import annotations

from skyjo_tui.screens.lobby import LobbyScreen

from .conftest import HostedClients


async def test_a_hosted_player_goes_straight_to_the_lobby(hosted: HostedClients) -> None:
    session, transport = await hosted.lobby("ann")
    assert b"Connecting" not in transport.written
    app = session.app
    assert app is not None
    assert isinstance(app.screen, LobbyScreen) and len(app.screen_stack) == 2
    assert "⏎ Join" in transport.text or "n New table" in transport.text  # its keys, shown
