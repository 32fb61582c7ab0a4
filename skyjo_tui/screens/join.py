"""Join a server: its address and your name."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal

from server.protocol import DEFAULT_NAME_MAX_LENGTH

from ..address import DEFAULT_PORT, parse_address, tcp_connector
from ..widgets.footer import KeyFooter
from ..widgets.form import FieldLabel, Form, FormButton, FormGrid
from ..widgets.text import Button, Input, Label
from .base import SkyjoScreen


class JoinScreen(SkyjoScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "keys.back", id="join.back"),
    ]

    def compose(self) -> ComposeResult:
        tr, prefs = self.tr, self.skyjo.prefs
        with Form(classes="form"):
            yield Label(tr("join.title"), classes="title")
            with FormGrid(classes="form-grid"):
                yield FieldLabel(tr("join.address"))
                yield Input(
                    prefs.last_server or "",
                    placeholder=f"host:{DEFAULT_PORT}",
                    compact=True,
                    id="address",
                )
                yield FieldLabel(tr("join.name"))
                # The server's own limit is not known before it answers: a server that takes
                # fewer says so, and the name screen then takes no more than it does.
                yield Input(prefs.name, max_length=DEFAULT_NAME_MAX_LENGTH, compact=True, id="name")
            yield Label("", id="join-error", classes="error")
            with Horizontal(classes="buttons"):
                yield FormButton(tr("join.connect"), variant="primary", id="connect", compact=True)
                yield FormButton(tr("join.back"), id="back", compact=True)
        yield KeyFooter()

    @on(Input.Submitted)
    @on(Button.Pressed, "#connect")
    def _connect(self) -> None:
        text = self.query_one("#address", Input).value
        name = self.query_one("#name", Input).value.strip() or None
        try:
            host, port = parse_address(text)
        except ValueError as exc:
            self.query_one("#join-error", Label).update(str(exc))
            return
        label = f"{host}:{port}"
        self.skyjo.remember_server(label, name)
        self.skyjo.go_online(tcp_connector(host, port), label, name)

    @on(Button.Pressed, "#back")
    def _back(self) -> None:
        self.app.pop_screen()
