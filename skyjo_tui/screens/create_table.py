"""A new table on the server: name, seats, public or private, hints, turn timer, variants."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal

from ..widgets.footer import KeyFooter
from ..widgets.form import FieldLabel, Form, FormButton, FormGrid
from ..widgets.text import Button, Input, Label, Select
from ..widgets.variants import VariantsForm
from .base import SkyjoModal
from .summary_parts import say, state_label

SEATS = range(2, 9)
DEFAULT_SEATS = 4


class CreateTableScreen(SkyjoModal[None]):
    AUTO_FOCUS = "#table-name"  # the first field has the (visible) cursor
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "create", "keys.create", id="create.create"),
        Binding("escape", "app.pop_screen", "keys.cancel", id="create.cancel"),
    ]

    def compose(self) -> ComposeResult:
        tr = self.tr
        welcome = self.skyjo.session.welcome if self.skyjo.session else None
        default_name = tr("create.default_name", name=welcome.name if welcome else "")
        last = _LastTable.of(self.skyjo.prefs.new_table)  # as the last table opened
        with Form(classes="dialog wide form"):
            yield Label(tr("create.title"), classes="title")
            with FormGrid(classes="form-grid"):
                yield FieldLabel(tr("create.name"))
                yield Input(default_name[:40], max_length=40, compact=True, id="table-name")
                yield FieldLabel(tr("create.seats"))
                yield Select(
                    [(str(n), n) for n in SEATS],
                    value=last.seats,
                    allow_blank=False,
                    compact=True,
                    id="seats",
                )
                yield FieldLabel(tr("create.visibility"))
                yield Select(
                    [(tr("create.public"), False), (tr("create.private"), True)],
                    value=last.private,
                    allow_blank=False,
                    compact=True,
                    id="private",
                )
                yield FieldLabel(tr("create.hints"))
                yield Select(
                    [(tr("create.hints_on"), True), (tr("create.hints_off"), False)],
                    value=last.hints,
                    allow_blank=False,
                    compact=True,
                    id="hints",
                )
                yield FieldLabel(tr("create.timer"))
                yield Input(
                    "" if last.turn_timer is None else str(last.turn_timer),
                    type="integer",
                    placeholder=tr("create.no_timer"),
                    compact=True,
                    id="timer",
                )
            yield VariantsForm(tr, self.skyjo.prefs.variants)  # the last game's, local or here
            yield state_label("", id="create-error", classes="error")  # no empty bar
            with Horizontal(classes="buttons"):
                yield FormButton(tr("create.create"), variant="primary", id="create", compact=True)
                yield FormButton(tr("create.cancel"), id="cancel", compact=True)
        yield KeyFooter()  # this dialog's keys, not the lobby's below

    def on_mount(self) -> None:
        """On a touch screen, Create has the focus, not the name: a text field's focus
        brings up the phone's keyboard, and the defaults need no typing. The form scrolls
        to it: on a phone on its side the buttons were below the fold."""
        if self.skyjo.touch:
            self.query_one("#create").focus()

    def request(self) -> dict[str, Any]:
        """The create_table request; ValueError with a reason when a field is wrong."""
        name = self.query_one("#table-name", Input).value.strip()
        if not name:
            raise ValueError(self.tr("create.name_needed"))
        timer_text = self.query_one("#timer", Input).value.strip()
        message: dict[str, Any] = {
            "type": "create_table",
            "name": name,
            "seats": self.query_one("#seats", Select).value,
            "private": bool(self.query_one("#private", Select).value),
            "settings": self.query_one(VariantsForm).settings(),
            "turn_timer": int(timer_text) if timer_text.isdigit() else None,
            "hints": bool(self.query_one("#hints", Select).value),
        }
        if timer_text and not timer_text.isdigit():
            raise ValueError(self.tr("create.bad_timer"))
        return message

    @on(Button.Pressed, "#create")
    @work(group="create")
    async def action_create(self) -> None:
        error = self.query_one("#create-error", Label)
        try:
            message = self.request()
        except ValueError as exc:
            say(error, str(exc))
            return
        say(error, "")  # an earlier refusal no longer holds
        reply, refusal = await self.skyjo.call_in_dialog(message)
        say(error, refusal)  # said here, beside the fields to put right
        if reply is not None:  # the next new table opens as this one (its variants: local too)
            kept = {key: message[key] for key in ("seats", "private", "hints", "turn_timer")}
            self.skyjo.save_prefs(
                replace(self.skyjo.prefs, variants=dict(message["settings"]), new_table=kept)
            )
        # On success the server's table push has already opened the room over us.
        if reply is not None and self.is_current:
            self.dismiss()

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.dismiss()


@dataclass(frozen=True)
class _LastTable:
    """The dialog's fields as the last table was opened, each checked (a hand-edited
    or older ``client.json`` gets the defaults where a value makes no sense)."""

    seats: int = DEFAULT_SEATS
    private: bool = False
    hints: bool = True
    turn_timer: int | None = None

    @classmethod
    def of(cls, kept: dict[str, Any]) -> _LastTable:
        seats, private = kept.get("seats"), kept.get("private")
        hints, timer = kept.get("hints"), kept.get("turn_timer")
        default = cls()
        return cls(
            seats=seats if type(seats) is int and seats in SEATS else default.seats,
            private=private if type(private) is bool else default.private,
            hints=hints if type(hints) is bool else default.hints,
            turn_timer=timer if type(timer) is int and timer > 0 else default.turn_timer,
        )
