"""A server's lobby: the public tables, a new table, a code, watching, chat."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Label

from ..rules_text import table_brief
from ..widgets.chat import ChatInput, ChatPanel
from ..widgets.footer import KeyFooter
from ..widgets.table_list import TableList
from .base import SkyjoScreen
from .name import PromptScreen

CODE_LENGTH = 6


class LobbyScreen(SkyjoScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("w", "watch", "keys.watch", id="lobby.watch"),
        Binding("n", "create", "keys.new_table", id="lobby.create"),
        Binding("k", "code", "keys.code", id="lobby.code"),
        Binding("c", "chat", "keys.chat", id="lobby.chat"),
        Binding("s", "stats", "keys.stats", id="lobby.stats"),
        Binding("o", "settings", "keys.settings", show=False, id="lobby.settings"),
        Binding("r", "refresh", "keys.refresh", show=False, id="lobby.refresh"),
        Binding("question_mark", "app.help", "keys.help", id="lobby.help"),
        Binding("q", "disconnect", "keys.quit", id="lobby.quit"),
    ]

    def compose(self) -> ComposeResult:
        tr = self.tr
        welcome = self.skyjo.session.welcome if self.skyjo.session else None
        who = welcome.name if welcome and welcome.name else ""
        where = self.skyjo.options.server_label or self.skyjo.session_server_name()
        yield Label(" · ".join(p for p in (tr("lobby.title"), who, where) if p), id="lobby-title")
        with Horizontal(id="lobby"):
            with Vertical(id="lobby-tables"):
                yield TableList(id="tables", tr=tr)
                yield Label(tr("lobby.no_tables"), id="no-tables", classes="hint")
            yield ChatPanel(tr("lobby.chat"), tr("chat.placeholder"), id="lobby-chat")
        yield KeyFooter()

    def on_mount(self) -> None:
        self._columns()
        self.show_tables(self.skyjo.lobby_tables)
        for scope, name, text in self.skyjo.chat_lines:
            self.add_chat(scope, name, text)
        self.action_refresh()

    def after_recompose(self) -> None:
        self.on_mount()

    def _columns(self) -> None:
        tr = self.tr
        self.query_one("#tables", DataTable).add_columns(
            tr("lobby.col.name"), tr("lobby.col.seats"), tr("lobby.col.status"),
            tr("lobby.col.rules"),
        )

    def show_tables(self, tables: list[dict[str, Any]]) -> None:
        table = self.query_one("#tables", DataTable)
        selected = self._selected_id()
        table.clear()
        for summary in tables:
            table.add_row(*self._row(summary), key=str(summary.get("table_id")))
        self.query_one("#no-tables", Label).display = not tables
        if selected is not None and selected in {str(t.get("table_id")) for t in tables}:
            table.move_cursor(row=table.get_row_index(selected))
        elif tables:
            table.move_cursor(row=0)  # a table chosen at once: Enter joins it
        if tables and self.focused is None:
            # Nothing focused (the terminal reported a lost focus while the lobby
            # opened, as OpenSSH sessions can): Enter would go nowhere.
            table.focus()

    def _row(self, summary: dict[str, Any]) -> list[Text | str]:
        tr = self.tr
        seats = f"{summary.get('seats_taken', 0)}/{summary.get('seats_total', 0)}"
        watchers = summary.get("spectators") or 0
        if watchers:
            seats += f" (+{watchers})"
        return [
            Text(str(summary.get("name", "")), overflow="ellipsis"),
            seats,
            tr(f"status.table.{summary.get('status', 'waiting')}"),
            table_brief(summary.get("settings") or {}, summary.get("turn_timer"), tr),
        ]

    def _selected_id(self) -> str | None:
        table = self.query_one("#tables", DataTable)
        if table.row_count == 0:
            return None
        row_key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        return row_key.value

    def add_chat(self, scope: str, name: str, text: str) -> None:
        if scope == "lobby":
            self.query_one(ChatPanel).add_line(name, text)

    # -- actions -------------------------------------------------------------------

    @work(exclusive=True, group="lobby")
    async def action_refresh(self) -> None:
        reply = await self.skyjo.call({"type": "list_tables"}, quiet=True)
        if reply is not None:
            self.skyjo.lobby_tables = reply.get("tables") or []
            self.show_tables(self.skyjo.lobby_tables)

    @on(DataTable.RowSelected, "#tables")
    def action_join(self) -> None:
        table_id = self._selected_id()
        if table_id is not None:
            self.run_worker(self.skyjo.call({"type": "join_table", "table_id": table_id}), group="lobby")

    def action_watch(self) -> None:
        table_id = self._selected_id()
        if table_id is not None:
            self.run_worker(self.skyjo.call({"type": "spectate", "table_id": table_id}), group="lobby")

    def action_create(self) -> None:
        from .create_table import CreateTableScreen

        self.app.push_screen(CreateTableScreen())

    @work(group="lobby")
    async def action_code(self) -> None:
        code = await self.app.push_screen_wait(
            PromptScreen(self.tr("lobby.code_title"), max_length=CODE_LENGTH, placeholder="ABCDEF")
        )
        if code:
            await self.skyjo.call({"type": "join_table", "code": code.upper()})

    def action_chat(self) -> None:
        self.query_one(ChatPanel).focus_input()

    @on(ChatInput.Closed)
    def _chat_closed(self) -> None:
        self.query_one("#tables", DataTable).focus()  # the lobby's keys work again

    @on(ChatPanel.Send)
    async def _send(self, event: ChatPanel.Send) -> None:
        await self.skyjo.call({"type": "chat", "text": event.text, "scope": "lobby"})

    def action_stats(self) -> None:
        from .stats import StatsScreen

        self.app.push_screen(StatsScreen())

    def action_settings(self) -> None:
        from .settings import SettingsScreen

        self.app.push_screen(SettingsScreen())

    def action_disconnect(self) -> None:
        from .confirm import ConfirmScreen

        def answered(yes: bool | None) -> None:
            if yes:
                self.skyjo.disconnect()

        self.app.push_screen(ConfirmScreen(self.tr("confirm.disconnect")), answered)
