"""A server's lobby: the public tables, a new table, a code, watching, chat."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical

from server.protocol import IN_GAME, TableStatus

from ..link import Link, LinkChanged
from ..messages import ChatHeard, LinkState, LobbyChatHeard, TablesChanged, WhoHeard
from ..rules_text import table_brief
from ..who import WHO_LIMIT, who_line
from ..widgets.chat import ChatInput, ChatPanel
from ..widgets.footer import KeyFooter
from ..widgets.table_list import TableList
from ..widgets.text import Label, TextTable
from .base import SkyjoScreen

CODE_LENGTH = 6
_PAGES = Binding.Group("keys.group.pages")


def has_a_seat(summary: Mapping[str, Any] | None) -> bool:
    """A seat can be taken at the table of ``summary``: no game on, and one free."""
    if summary is None:
        return False
    free = int(summary.get("seats_total") or 0) - int(summary.get("seats_taken") or 0)
    return summary.get("status") not in IN_GAME and free > 0


class LobbyScreen(SkyjoScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("w", "watch", "keys.watch", id="lobby.watch"),
        # Enter on a table with no seat to take (a game on, or full): the list's own Enter
        # ("Join") gives way to it there (``TableList.enter_joins``). A binding of its own,
        # so that Help and the Keys screen say what Enter does: not "w, Enter: Watch".
        Binding("enter", "watch", "keys.watch_full", show=False, id="lobby.watch_full"),
        Binding("n", "create", "keys.new_table", id="lobby.create"),
        Binding("k", "code", "keys.code", id="lobby.code"),
        Binding("c", "chat", "keys.chat", id="lobby.chat"),
        # Statistics are on Home too: at 80 columns the footer has no room for them here
        # (Help lists them).
        Binding("s", "stats", "keys.stats", show=False, id="lobby.stats"),
        Binding("o", "settings", "keys.settings", show=False, id="lobby.settings"),
        Binding("r", "refresh", "keys.refresh", show=False, id="lobby.refresh"),
        # One "[ ] Pages" in the footer, so that the keys fit 80 columns in French too.
        Binding(
            "left_square_bracket",
            "page(-1)",
            "keys.previous_page",
            group=_PAGES,
            id="lobby.previous_page",
        ),
        Binding(
            "right_square_bracket", "page(1)", "keys.next_page", group=_PAGES, id="lobby.next_page"
        ),
        Binding("question_mark", "app.help", "keys.help", id="lobby.help"),
        Binding("q", "disconnect", "keys.quit", id="lobby.quit"),
    ]

    rating: int | None = None
    """Your rating as the server last said (``stats``); None: none yet, or not asked."""
    _refreshing = False  # the tables and who is here are being asked (``action_refresh``)
    _refresh_again = False  # and asked for again meanwhile
    _link_lost = False  # the connection dropped since the server last followed this lobby

    def compose(self) -> ComposeResult:
        tr = self.tr
        yield Label(self._title(), id="lobby-title")
        with Horizontal(id="lobby"):
            with Vertical(id="lobby-tables"):
                yield Label(self._left_note(), id="left-note", classes="hint")
                yield TableList(id="tables", tr=tr)
                yield Label("", id="selected-table", classes="hint")
                yield Label(self._no_tables(), id="no-tables", classes="hint")
                yield Label("", id="more-tables", classes="hint")
                who = Label("", id="who-here", classes="hint")
                who.display = False  # until the server says who is here (one too old: never)
                yield who
            yield ChatPanel(
                tr("lobby.chat"),
                tr,
                self.skyjo.chat_max_length,
                newer_below=tr("log.newer_below"),
                id="lobby-chat",
            )
        yield KeyFooter()

    def _title(self) -> str:
        """ "Lobby · your name (rating 12) · the server"."""
        tr = self.tr
        welcome = self.skyjo.session.welcome if self.skyjo.session else None
        who = welcome.name if welcome and welcome.name else ""
        if who and self.rating is not None:
            who = f"{who} ({tr('lobby.rating', rating=self.rating)})"
        where = self.skyjo.options.server_label or self.skyjo.session_server_name()
        return " · ".join(p for p in (tr("lobby.title"), who, where) if p)

    def _no_tables(self) -> str:
        tr = self.tr
        if self.skyjo.touch:  # the footer's words to tap: a phone has no n or k
            return tr("lobby.tap.no_tables", create=tr("keys.new_table"), code=tr("keys.code"))
        return tr("lobby.no_tables", **self.key_labels("lobby.create", "lobby.code"))

    def on_screen_resume(self) -> None:
        # Textual also runs the base class's handler (the size check) after this one.
        self._ask_rating()  # back from a game: it may have moved
        for hint in self.query("#no-tables").results(Label):  # back from Settings → Keys
            hint.update(self._no_tables())
        self._show_left_note()

    def _left_note(self) -> str:
        """Why the server sent us back here (the host removed us), until we sit down again."""
        reason = self.skyjo.heard.left_reason
        return self.tr(f"left.{reason}") if reason else ""

    def _show_left_note(self) -> None:
        note_text = self._left_note()
        for note in self.query("#left-note").results(Label):
            note.update(note_text)
            note.display = bool(note_text)

    @work(exclusive=True, group="lobby-rating")
    async def _ask_rating(self) -> None:
        reply = await self.skyjo.call({"type": "stats"}, quiet=True)
        found = (reply or {}).get("stats", {}).get("rating")
        self.rating = found if type(found) is int else None
        titles = self.query("#lobby-title")
        if titles:  # the lobby may have gone (a table opened) while the server answered
            titles.first(Label).update(self._title())

    def on_mount(self) -> None:
        self._columns()
        self.show_tables()
        self.show_chat()
        self._show_left_note()
        self.action_refresh()

    def after_recompose(self) -> None:
        self.on_mount()

    def _columns(self) -> None:
        tr = self.tr
        # At 80 columns a long name gives way ("…"), then the rules wrap: every column shows.
        self.query_one("#tables", TableList).set_columns(
            [tr(f"lobby.col.{column}") for column in ("name", "seats", "status", "rules")],
            flexible=(3,),
            shortened=(0,),
        )

    # -- what the server says (``navigator.Navigator.show``) --------------------------

    def on_tables_changed(self, message: TablesChanged) -> None:
        self.show_tables()

    def on_who_heard(self, message: WhoHeard) -> None:
        self.show_who(message.page)

    def on_lobby_chat_heard(self, message: LobbyChatHeard) -> None:
        self.show_chat()

    def on_chat_heard(self, message: ChatHeard) -> None:
        line = message.line
        self.add_chat(line.scope, line.name, line.text)

    def on_link_state(self, message: LinkState) -> None:
        self.link_changed(message.change)

    def show_tables(self) -> None:
        """Show the page of tables the server said (``Heard.lobby_tables``)."""
        listing = self.skyjo.heard.lobby_tables
        tables = listing.tables
        found = self.query("#more-tables")
        if not found:  # the lobby is going away (a table opened, the app stopping)
            return
        more = found.first(Label)
        more.display = listing.total > len(tables)
        first = listing.offset + 1
        more.update(
            self.tr(
                "lobby.more_tables", first=first, last=first + len(tables) - 1, total=listing.total
            )
        )
        self.refresh_bindings()  # a next or previous page may have come or gone
        table = self.query_one("#tables", TableList)
        selected = self._selected_id()
        table.show([(str(summary.get("table_id")), self._row(summary)) for summary in tables])
        self.query_one("#no-tables", Label).display = not tables
        if selected is not None and selected in {str(t.get("table_id")) for t in tables}:
            table.move_cursor(row=table.get_row_index(selected))
        elif tables:
            table.move_cursor(row=0)  # a table chosen at once: Enter joins it
        self._enter_for_the_selected()  # the same row may now have a game on
        if tables and self.focused is None:
            # Nothing focused (the terminal reported a lost focus while the lobby
            # opened, as OpenSSH sessions can): Enter would go nowhere.
            table.focus()

    def _row(self, summary: dict[str, Any]) -> list[str]:
        tr = self.tr
        seats = f"{summary.get('seats_taken', 0)}/{summary.get('seats_total', 0)}"
        watchers = summary.get("spectators") or 0
        if watchers:
            seats += f" (+{watchers})"
        return [
            str(summary.get("name", "")),
            seats,
            tr(f"status.table.{summary.get('status', TableStatus.WAITING)}"),
            table_brief(
                summary.get("settings") or {}, summary.get("turn_timer"), tr, summary.get("hints")
            ),
        ]

    def _selected(self) -> dict[str, Any] | None:
        """The summary of the table under the list's cursor."""
        selected = self._selected_id()
        tables = self.skyjo.heard.lobby_tables.tables
        return next((t for t in tables if str(t.get("table_id")) == selected), None)

    @on(TextTable.RowHighlighted, "#tables")
    def _enter_for_the_selected(self) -> None:
        """Enter joins a table with a seat to take, and watches any other."""
        self.query_one("#tables", TableList).enter_joins = has_a_seat(self._selected())
        self._name_of_the_selected()

    @on(TableList.LaidOut)  # the lobby has one list
    def _name_of_the_selected(self) -> None:
        """The selected table's name whole, under the list, where the list cut it ("…")."""
        found = self.query("#selected-table")
        if not found:  # the lobby is going away
            return
        label = found.first(Label)
        summary = self._selected()
        label.display = summary is not None and self.query_one(TableList).is_cut(
            self._selected_id()
        )
        label.update(str((summary or {}).get("name", "")))

    def _selected_id(self) -> str | None:
        table = self.query_one("#tables", TextTable)
        if table.row_count == 0:
            return None
        row_key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        return row_key.value

    def add_chat(self, scope: str, name: str, text: str) -> None:
        panels = self.query(ChatPanel)
        if scope == "lobby" and panels:  # none yet: on_mount shows the chat so far
            panels.first().add_line(name, text)

    def show_chat(self) -> None:
        """The lobby chat so far, as the app keeps it."""
        panels = self.query(ChatPanel)
        if not panels:
            # Not composed yet (a chat line while the lobby comes up) or going away:
            # on_mount shows the app's chat lines.
            return
        panels.first().clear()
        for line in self.skyjo.heard.chat_lines:
            self.add_chat(line.scope, line.name, line.text)

    # -- actions -------------------------------------------------------------------

    def action_refresh(self) -> None:
        """Ask again for the page of tables and who is here. Presses while that is asked
        make one more ask once it is answered: a held key (auto-repeat sends dozens a
        second) is not a flood of requests, which the server would end the connection for."""
        if self._refreshing:
            self._refresh_again = True
        else:
            self._refresh()

    @work(exclusive=True, group="lobby")
    async def _refresh(self) -> None:
        self._refreshing = True
        try:
            again = True
            while again:
                self._refresh_again = False
                await self._list(self.skyjo.heard.lobby_tables.offset)
                await self._ask_who()
                again = self._refresh_again
        finally:  # answered, or cancelled by a page asked meanwhile (the same group)
            self._refreshing = False

    def link_changed(self, change: LinkChanged) -> None:
        """Connected again: the server follows this lobby afresh (its page of tables, who
        is here) only once asked again."""
        if change.link is not Link.ONLINE:
            self._link_lost = True
        elif self._link_lost:
            self._link_lost = False
            self.action_refresh()

    async def _ask_who(self) -> None:
        # Who is here: kept up to date by the server's who pushes from now on.
        reply = await self.skyjo.call({"type": "who", "limit": WHO_LIMIT}, quiet=True)
        if reply is not None:  # else the line says what it said (a server too old: nothing)
            self.show_who(reply)

    def show_who(self, page: dict[str, Any]) -> None:
        """The players online and where (shown from the first page the server sends)."""
        found = self.query("#who-here")
        if not found:  # the lobby is going away (a table opened, the app stopping)
            return
        label = found.first(Label)
        label.display = True
        label.update(who_line(page, self.tr))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "page":
            step = parameters[0] if parameters else 0
            tables = self.skyjo.heard.lobby_tables
            if tables.page_at(-1) is None and tables.page_at(1) is None:
                return False  # one page: no page keys in the footer
            if not isinstance(step, int) or tables.page_at(step) is None:
                return None  # shown dimmed beside the other way: no page that way
        return True

    @work(exclusive=True, group="lobby")
    async def action_page(self, step: int) -> None:
        offset = self.skyjo.heard.lobby_tables.page_at(step)
        if offset is not None:
            await self._list(offset)

    async def _list(self, offset: int) -> None:
        # follow: from now on the server sends what changes on this page, not all of it
        message = {"type": "list_tables", "follow": True, "offset": offset}
        reply = await self.skyjo.call(message, quiet=True)
        if reply is not None:
            self.skyjo.heard.lobby_tables.apply(reply)
            self.show_tables()

    @on(TextTable.RowSelected, "#tables")
    def action_join(self) -> None:
        if not has_a_seat(self._selected()):  # a click on a game going on: watch it
            self.action_watch()
            return
        table_id = self._selected_id()
        if table_id is not None:
            self.run_worker(
                self.skyjo.call({"type": "join_table", "table_id": table_id}), group="lobby"
            )

    def action_watch(self) -> None:
        table_id = self._selected_id()
        if table_id is not None:
            self.run_worker(
                self.skyjo.call({"type": "spectate", "table_id": table_id}), group="lobby"
            )

    def action_create(self) -> None:
        self.skyjo.nav.create_table()

    @work(group="lobby")
    async def action_code(self) -> None:
        typed, reason = "", ""
        while True:  # a code refused comes back with why, as typed, to be put right
            code = await self.skyjo.nav.prompt(
                self.tr("lobby.code_title"),
                typed,
                reason,
                max_length=CODE_LENGTH,
                placeholder="ABCDEF",
            )
            if not code:
                return
            typed = code
            _, reason = await self.skyjo.call_in_dialog(
                {"type": "join_table", "code": code.upper()}
            )
            if not reason:  # joined, or the connection is lost (said)
                return

    def action_chat(self) -> None:
        self.query_one(ChatPanel).focus_input()

    @on(ChatInput.Closed)
    def _chat_closed(self) -> None:
        self.query_one("#tables", TextTable).focus()  # the lobby's keys work again

    @on(ChatPanel.Send)
    async def _send(self, event: ChatPanel.Send) -> None:
        if await self.skyjo.call({"type": "chat", "text": event.text, "scope": "lobby"}) is None:
            self.query_one(ChatPanel).chat_input.take_back(event.text)  # refused (said)

    def action_stats(self) -> None:
        self.skyjo.nav.stats()

    def action_settings(self) -> None:
        self.skyjo.nav.settings()

    def action_disconnect(self) -> None:
        def answered(yes: bool | None) -> None:
            if yes:
                self.skyjo.disconnect()

        self.skyjo.nav.confirm(self.tr("confirm.disconnect"), answered)
