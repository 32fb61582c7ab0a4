"""A table before its game: who sits where, readiness, bots, the host's powers, chat."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical

from server.protocol import IN_ROOM, TableStatus

from ..messages import ChatHeard, TableChanged
from ..names import default_level, level_name, seat_info
from ..presence import presence_news, watchers_line
from ..presenter import rating_text
from ..rules_text import hints_brief, rules_brief, timer_brief
from ..widgets.chat import ChatInput, ChatPanel
from ..widgets.fitted_table import FittedTable
from ..widgets.footer import KeyFooter
from ..widgets.table_link import TableLink
from ..widgets.text import Label, Select
from .base import SkyjoScreen

#: One "b x Bots +/-" in the footer, so that the host's keys fit 80 columns in French too.
_BOTS = Binding.Group("keys.group.bots")
#: Why an action needs a seat chosen, in a touch screen's words: a tap on the seat chooses it.
TAP_CHOOSE = {
    "room.choose_bot": "room.tap.choose_bot",
    "room.choose_player": "room.tap.choose_player",
    "room.choose_empty": "room.tap.choose_empty",
}


class RoomScreen(SkyjoScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "sit", "keys.sit_here", id="room.sit"),  # watching: the seat selected
        Binding("r", "ready", "keys.ready", id="room.ready"),
        Binding("s", "start", "keys.start", id="room.start"),
        Binding("b", "add_bot", "keys.add_bot", group=_BOTS, id="room.add_bot"),
        Binding("x", "remove_bot", "keys.remove_bot", group=_BOTS, id="room.remove_bot"),
        Binding("K", "kick", "keys.kick", id="room.kick"),
        Binding("m", "rematch", "keys.rematch", id="room.rematch"),
        Binding("c", "chat", "keys.chat", id="room.chat"),
        Binding("question_mark", "app.help", "keys.help", id="room.help"),
        Binding("l,escape", "leave", "keys.leave", id="room.leave"),
    ]

    def __init__(self, table: dict[str, Any]) -> None:
        super().__init__()
        self.table = table

    def compose(self) -> ComposeResult:
        tr = self.tr
        levels = self.skyjo.session.bot_levels if self.skyjo.session else ()
        yield Label(id="room-title")
        yield Label(id="room-rules", classes="hint")
        with Horizontal(id="room"):
            with Vertical(id="room-seats"):
                yield FittedTable(id="seats", cursor_type="row", zebra_stripes=True)
                with Horizontal(id="bot-level-row"):
                    yield Label(tr("room.bot_level"))
                    yield Select(
                        [(level_name(level, tr), level) for level in levels],
                        value=default_level(levels) if levels else Select.BLANK,
                        allow_blank=not levels,
                        compact=True,
                        id="bot-level",
                    )
                yield Label("", id="room-state")
                yield Label("", id="room-watchers", classes="hint")
                yield Label("", id="room-return", classes="hint")
                yield TableLink(id="room-link")  # in the browser door's page: friends join by it
            yield ChatPanel(
                tr("room.chat"),
                tr,
                self.skyjo.chat_max_length,
                newer_below=tr("log.newer_below"),
                id="room-chat",
            )
        yield KeyFooter()

    def on_mount(self) -> None:
        tr = self.tr
        labels = ("name", "who", "ready", "here", "rating")
        # A long name gives way ("…"): the table fits its pane, its last column whole.
        self.query_one("#seats", FittedTable).set_columns(
            ["#", *(tr(f"room.col.{label}") for label in labels)], flexible=(), shortened=(1,)
        )
        self.update_table(self.table)
        for line in self.skyjo.heard.chat_lines:
            self.add_chat(line.scope, line.name, line.text)

    def after_recompose(self) -> None:
        self.on_mount()

    # -- what it shows -------------------------------------------------------------

    @property
    def my_seat(self) -> int | None:
        return self.table.get("your_seat")

    @property
    def am_host(self) -> bool:
        session = self.skyjo.session
        return session is not None and self.table.get("host_id") == session.player_id

    def _return_line(self) -> str:
        """How a seated guest without a key would come back to this seat, should their
        connection drop: said while they can read it ("" where their app would)."""
        return "" if self.my_seat is None else self.skyjo.return_words("room.return_code")

    def on_table_changed(self, message: TableChanged) -> None:
        self.update_table(message.table, message.removed)

    def on_chat_heard(self, message: ChatHeard) -> None:
        line = message.line
        self.add_chat(line.scope, line.name, line.text)

    def update_table(self, table: dict[str, Any], removed: dict[str, Any] | None = None) -> None:
        """The table as the server says it is now; ``removed``: whom the host removed."""
        news = presence_news(self.table, table, self.tr, removed, self.skyjo.player_id)
        self.table = table
        tr = self.tr
        title = tr("room.title", name=table.get("name", ""), code=table.get("code", ""))
        if table.get("private"):
            title += " · " + tr("room.private")
        self.query_one("#room-title", Label).update(title)
        parts = (
            rules_brief(table.get("settings") or {}, tr, whole=True),
            timer_brief(table.get("turn_timer"), tr),
            hints_brief(table.get("hints"), tr),
        )
        rules = " · ".join(part for part in parts if part)
        self.query_one("#room-rules", Label).update(rules)
        self._fill_seats(table.get("seats") or [])
        self.query_one("#room-state", Label).update(self._state_line())
        self.query_one("#room-watchers", Label).update(Text(watchers_line(table, tr)))
        words, come_back = self._return_line(), self.query_one("#room-return", Label)
        come_back.update(Text(words))
        come_back.display = bool(words)  # no empty line where nothing is said
        self.query_one(TableLink).show(self.skyjo.page, table.get("code"))
        chat = self.query_one(ChatPanel)
        for line in news:
            chat.add_note(line)
        self.query_one("#bot-level-row").display = self.am_host
        self.refresh_bindings()

    def _fill_seats(self, seats: list[dict[str, Any] | None]) -> None:
        rows = [(str(index), self._seat_cells(index, seat)) for index, seat in enumerate(seats)]
        self.query_one("#seats", FittedTable).show(rows)  # the cursor stays on its row

    def _seat_cells(self, index: int, seat: dict[str, Any] | None) -> list[Any]:
        tr = self.tr
        if seat is None:
            return [str(index + 1), Text(tr("room.empty"), style="dim"), "", "", "", ""]
        info = seat_info(seat)
        who = level_name(info.bot, tr) if info.bot else tr("room.person")
        name = Text(info.shown(tr), style="bold" if index == self.my_seat else "")
        if seat.get("host"):
            name.append(" ★", style="yellow")
        return [
            str(index + 1),
            name,
            who,
            tr("room.host")
            if seat.get("host")
            else "✓"
            if seat.get("ready") or seat.get("kind") == "bot"
            else "·",
            tr("room.left")
            if seat.get("left")
            else tr("room.here")
            if seat.get("connected", True)
            else tr("room.away"),
            rating_text(seat.get("rating")),
        ]

    def _state_line(self) -> str:
        tr, table = self.tr, self.table
        if self.skyjo.touch and self.my_seat is not None:
            return self._tap_line()
        if table.get("status") == TableStatus.FINISHED:
            return tr("room.finished", **self.key_labels("room.rematch"))
        if self.my_seat is None:
            return tr("room.watching")
        if self.am_host:
            return tr("room.host_hint", **self.key_labels("room.add_bot", "room.start"))
        keys = self.key_labels("room.ready")
        return (
            tr("room.ready_waiting", **keys) if self._am_ready() else tr("room.wait_host", **keys)
        )

    def _tap_line(self) -> str:
        """The state line on a touch screen: the footer's words to tap, not its keys."""
        tr = self.tr
        if self.table.get("status") == TableStatus.FINISHED:
            return tr("room.tap.finished", rematch=tr("keys.rematch"))
        if self.am_host:
            return tr("room.tap.host_hint", bots=tr("keys.group.bots"), start=tr("keys.start"))
        ready = tr("keys.ready")
        if self._am_ready():
            return tr("room.tap.ready_waiting", ready=ready)
        return tr("room.tap.wait_host", ready=ready)

    def _am_ready(self) -> bool:
        """True once the server says my seat is ready (``r`` says so, and takes it back)."""
        mine = next(
            (s for s in self.table.get("seats") or [] if s and s.get("seat") == self.my_seat), None
        )
        return bool((mine or {}).get("ready", False))

    def add_chat(self, scope: str, name: str, text: str) -> None:
        panels = self.query(ChatPanel)
        if scope == "table" and panels:  # none yet: on_mount shows the chat so far
            panels.first().add_line(name, text)

    def _selected_seat(self) -> dict[str, Any] | None:
        seats = self.table.get("seats") or []
        row = self.query_one("#seats", FittedTable).cursor_row
        return seats[row] if 0 <= row < len(seats) else None

    # -- actions -------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        status = self.table.get("status")
        seated = self.my_seat is not None
        if action == "ready":
            return seated and status == TableStatus.WAITING and not self.am_host
        if action in ("start",):
            return self.am_host and status == TableStatus.WAITING
        if action in ("add_bot", "remove_bot", "kick"):
            return self.am_host and status in IN_ROOM
        if action == "rematch":
            return seated and status == TableStatus.FINISHED
        if action == "sit":
            return (
                not seated
                and status == TableStatus.WAITING
                and None in (self.table.get("seats") or ())
            )
        return True

    def _send(self, message: dict[str, Any]) -> None:
        self.run_worker(self.skyjo.call(message), group="room")

    def action_sit(self) -> None:
        """Sit down in the empty seat selected (the server says if it was just taken)."""
        row = self.query_one("#seats", FittedTable).cursor_row
        seats = self.table.get("seats") or []
        if not 0 <= row < len(seats) or seats[row] is not None:
            self._choose_first("room.choose_empty")
            return
        self._send({"type": "join_table", "code": self.table.get("code"), "seat": row})

    def action_ready(self) -> None:
        self._send({"type": "ready", "ready": not self._am_ready()})

    def action_start(self) -> None:
        self._send({"type": "start_game"})

    def action_add_bot(self) -> None:
        level = self.query_one("#bot-level", Select).value
        if isinstance(level, str):
            self._send({"type": "add_bot", "level": level})

    def action_remove_bot(self) -> None:
        seat = self._selected_seat()
        if seat is not None and seat.get("kind") == "bot":
            self._send({"type": "remove_bot", "seat": seat["seat"]})
        else:
            self._choose_first("room.choose_bot")

    def action_kick(self) -> None:
        seat = self._selected_seat()
        if seat is not None and seat.get("kind") == "human" and seat.get("seat") != self.my_seat:
            self._send({"type": "kick", "seat": seat["seat"]})
        else:
            self._choose_first("room.choose_player")

    def _choose_first(self, words: str) -> None:
        """The action needs another seat selected: say so, and put the keys on the seats,
        where the arrows say it (the chat's box may have had them)."""
        self.notify(
            self.tr(TAP_CHOOSE.get(words, words) if self.skyjo.touch else words), severity="warning"
        )
        self.query_one("#seats", FittedTable).focus()

    def action_rematch(self) -> None:
        self._send({"type": "rematch"})

    def action_chat(self) -> None:
        self.query_one(ChatPanel).focus_input()

    @on(ChatInput.Closed)
    def _chat_closed(self) -> None:
        self.query_one("#seats", FittedTable).focus()  # the room's keys work again

    @on(ChatPanel.Send)
    async def _chat(self, event: ChatPanel.Send) -> None:
        if await self.skyjo.call({"type": "chat", "text": event.text, "scope": "table"}) is None:
            self.query_one(ChatPanel).chat_input.take_back(event.text)  # refused (said)

    def action_leave(self) -> None:
        def leave(confirmed: bool | None) -> None:
            if confirmed:
                self.skyjo.leave_table()

        self.skyjo.nav.confirm(self.tr("confirm.leave_table"), leave)
