"""Journeys in French: the words a person reads at a table and in its room read as French.

No "de" before a name that may need its elision ("au tour de Alice" for "d'Alice"):
"à Alice de jouer", "Chez Alice", "joués par Alice". A person in the room's "Joueur"
column is "humain" ("personne" read as "nobody"). Once ready, the room's prompt says so.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.widgets import Input

from server.app import SkyjoServer
from skyjo_tui.address import tcp_connector
from skyjo_tui.app import SkyjoApp
from skyjo_tui.screens.create_table import CreateTableScreen
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.screens.replay import ReplayScreen
from skyjo_tui.screens.room import RoomScreen
from skyjo_tui.widgets.text import TextTable

from ..test_network import hosting
from .seen import column_text, on_screen, screen_text, until
from .test_hints_name_remapped_keys import hint_of
from .test_review import a_record_with_alice

WAIT_HOST = "Appuyez sur r quand vous êtes prêt ; l'hôte lance la partie."
READY = "Vous êtes prêt ; l'hôte lance la partie. Appuyez sur r si vous ne l'êtes plus."


async def test_a_french_room_says_who_is_human_and_that_you_are_ready(
    make_app: Callable[..., SkyjoApp], make_server: Callable[..., Any]
) -> None:
    server: SkyjoServer = await make_server()
    async with hosting(server.port, "Olivier") as olivier:
        app = make_app(tcp_connector("127.0.0.1", server.port), name="Alice", lang="fr")
        async with app.run_test(size=(80, 24)) as pilot:
            await on_screen(pilot, LobbyScreen)
            await pilot.press("n")  # a table of her own would be named for her
            dialog = await on_screen(pilot, CreateTableScreen)
            assert dialog.query_one("#table-name", Input).value == "Chez Alice"
            await pilot.press("escape")
            await on_screen(pilot, LobbyScreen)
            await until(pilot, lambda: "en attente" in screen_text(app), "Olivier's table listed")
            await pilot.press("enter")
            room = await on_screen(pilot, RoomScreen)
            seats = room.query_one("#seats", TextTable)
            await until(pilot, lambda: "Alice" in screen_text(app), "both seated")
            who = column_text(app, seats, ["#", "Nom", "Joueur", "Prêt"], "Joueur")
            assert who == "humain humain", who
            await until(pilot, lambda: hint_of(app, "#room-state") == WAIT_HOST, "the prompt")
            await pilot.press("r")
            await until(pilot, lambda: hint_of(app, "#room-state") == READY, "ready, said")
            await pilot.press("r")  # as it says: no longer ready
            await until(pilot, lambda: hint_of(app, "#room-state") == WAIT_HOST, "not ready")
            assert not any(s and s["ready"] and not s["host"] for s in olivier.table["seats"])


async def test_a_french_replay_says_whose_turn_with_no_elision_needed(
    make_app: Callable[..., SkyjoApp], tmp_path: Path
) -> None:
    path, _ = a_record_with_alice(tmp_path)
    app = make_app(replay=path, lang="fr")
    async with app.run_test(size=(100, 30)) as pilot:
        replay: ReplayScreen = await on_screen(pilot, ReplayScreen)
        assert replay.recording is not None
        for _ in range(len(replay.recording.frames)):
            if "à Alice de jouer" in screen_text(app):
                break
            await pilot.press("right")
        assert "à Alice de jouer" in screen_text(app), screen_text(app)
        assert "tour de Alice" not in screen_text(app)
