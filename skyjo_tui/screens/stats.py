"""Your statistics, the leaderboard and recent games (from the server's data)."""

from __future__ import annotations

import time
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import TabbedContent, TabPane

from ..i18n import Translator
from ..names import SeatInfo, level_name
from ..presenter import rating_text
from ..replay import ReplayError, record_request, recording
from ..widgets.fitted_table import FittedTable
from ..widgets.footer import KeyFooter
from ..widgets.text import Label, Static, TextTable
from .base import SkyjoScreen


def percent(value: Any) -> str:
    return f"{float(value) * 100:.0f}%" if isinstance(value, (int, float)) else "-"


def mean(value: Any, tr: Translator) -> str:
    return tr.decimal(float(value)) if isinstance(value, (int, float)) else "-"


def per_round(mean: Any, tr: Translator) -> str:
    """ "27.5 points per round" ("-" when the server did not say)."""
    if not isinstance(mean, (int, float)):
        return tr("stats.per_round.other", count="-")
    value = round(float(mean), 1)
    return tr.plural("stats.per_round", value, shown=tr.decimal(value))


class StatsScreen(SkyjoScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "app.pop_screen", "keys.back", id="stats.back"),
        Binding("r", "refresh", "keys.refresh", id="stats.refresh"),
        Binding("enter", "replay", "keys.replay_game", id="stats.replay"),
    ]

    def compose(self) -> ComposeResult:
        tr = self.tr
        with TabbedContent(id="stats-tabs"):
            with TabPane(tr("stats.you"), id="you"):
                yield Static(tr("stats.loading"), id="my-stats")
            with TabPane(tr("stats.leaderboard"), id="board"):
                yield TextTable(id="leaderboard", cursor_type="row", zebra_stripes=True)
                yield Label("", id="bot-ratings", classes="hint")
            with TabPane(tr("stats.recent"), id="recent"):
                hint = "stats.tap.recent_hint" if self.skyjo.touch else "stats.recent_hint"
                yield Label(tr(hint), classes="hint")
                yield FittedTable(id="recent-games", cursor_type="row", zebra_stripes=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        self._set_up_tables()

    def _set_up_tables(self) -> None:
        if not (self.query("#leaderboard") and self.query("#recent-games")):
            # The tabs mount their panes' contents after the screen itself on a busy
            # machine: once they are there.
            self.call_after_refresh(self._set_up_tables)
            return
        tr = self.tr
        self.query_one("#leaderboard", TextTable).add_columns(
            "#",
            tr("stats.name"),
            tr("stats.rating"),
            tr("stats.games"),
            tr("stats.wins"),
            tr("stats.win_rate"),
            tr("stats.mean"),
        )
        columns = ("when", "table", "winner", "players")  # who won before who played
        self.query_one("#recent-games", FittedTable).set_columns(
            [tr(f"stats.{c}") for c in columns], flexible=(1, 2, 3)
        )
        self.action_refresh()

    def after_recompose(self) -> None:
        self.on_mount()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "replay":  # the recent games on show, one of them to replay
            tabs, games = self.query("#stats-tabs"), self.query("#recent-games")
            return (
                bool(tabs and games)
                and tabs.first(TabbedContent).active == "recent"
                and games.first(TextTable).row_count > 0
            )
        return True

    @on(TabbedContent.TabActivated)
    def _tab_shown(self) -> None:
        self.refresh_bindings()

    def action_replay(self) -> None:
        """Enter while the tabs have the keyboard: the game under the list's cursor, as
        the list itself replays it (it takes the keyboard from then on: its own Enter
        comes first, and the footer shows this key for both)."""
        games = self.query_one("#recent-games", TextTable)
        games.focus()
        games.action_select_cursor()

    @work(exclusive=True, group="stats")
    async def action_refresh(self) -> None:
        skyjo = self.skyjo
        if skyjo.options.connect is None and not await skyjo.ensure_local_session():
            return
        mine = await skyjo.call({"type": "stats"})
        board = await skyjo.call({"type": "leaderboard", "limit": 50})
        recent = await skyjo.call({"type": "recent_games", "limit": 30})
        if mine is not None:
            self._show_mine(mine.get("stats") or {})
        if board is not None:
            self._show_board(board.get("entries") or [])
            self._show_bots(board.get("bots") or [])
        if recent is not None:
            self._show_recent(recent.get("games") or [])

    def _show_mine(self, stats: dict[str, Any]) -> None:
        tr = self.tr
        games, wins = stats.get("games", 0), stats.get("wins", 0)
        lines = [
            tr(
                "stats.line.games",
                games=tr.plural("stats.count.games", games),
                wins=tr.plural("stats.count.wins", wins),
            ),
            tr(
                "stats.line.rounds",
                rounds=tr.plural("stats.count.rounds", stats.get("rounds", 0)),
                per_round=per_round(stats.get("mean_round_score"), tr),
            ),
        ]
        if isinstance(stats.get("rating"), int):
            rated = tr.plural("stats.count.rated", stats.get("rated_games", 0))
            lines.append(tr("stats.line.rating", rating=stats["rating"], games=rated))
        elif self.skyjo.options.connect is None:  # the games here are private: never rated
            lines.append(tr("stats.line.unrated_local"))
        else:
            lines.append(tr("stats.line.unrated"))
        name = (str(stats.get("name", "")), "bold")
        self.query_one("#my-stats", Static).update(
            Content.assemble(name, *(f"\n{line}" for line in lines))
        )

    def _show_board(self, entries: list[dict[str, Any]]) -> None:
        table = self.query_one("#leaderboard", TextTable)
        table.clear()
        for entry in entries:
            table.add_row(
                str(entry.get("rank", "")),
                str(entry.get("name", "")),
                rating_text(entry.get("rating")),
                str(entry.get("games", 0)),
                str(entry.get("wins", 0)),
                percent(entry.get("win_rate")),
                mean(entry.get("mean_round_score"), self.tr),
            )

    def _show_bots(self, bots: list[dict[str, Any]]) -> None:
        """The bot levels' ratings, on the leaderboard's scale."""
        label = self.query_one("#bot-ratings", Label)
        shown = [
            f"{level_name(str(b.get('level', '')), self.tr)} {rating_text(b.get('rating'))}"
            for b in bots
        ]
        label.display = bool(shown)
        label.update(self.tr("stats.bots", bots=" · ".join(shown)))

    def _show_recent(self, games: list[dict[str, Any]]) -> None:
        self.query_one("#recent-games", FittedTable).show(
            [(str(game.get("game_id")), self._recent_cells(game)) for game in games]
        )
        self.refresh_bindings()

    def _recent_cells(self, game: dict[str, Any]) -> list[str | Text]:
        """When, the table, who won, who played: long names wrap in their columns."""
        sent = game.get("bots")  # a server before it sends none; a strange one, anything
        bots = (
            [b if isinstance(b, str) and b else None for b in sent]
            if isinstance(sent, list)
            else []
        )
        seats = [
            SeatInfo(str(name), bots[s] if s < len(bots) else None)
            for s, name in enumerate(game.get("names") or [])
        ]
        names = [seat.shown(self.tr) for seat in seats]  # bots in the player's language
        winners = [names[w] for w in game.get("winners") or [] if 0 <= w < len(names)]
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(float(game.get("finished_at", 0))))
        name = Text(str(game.get("table_name", "")))
        if game.get("seeded"):  # dealt from a chosen seed: in no statistics
            name.append(f" · {self.tr('stats.seeded')}", style="dim")
        return [when, name, ", ".join(winners), ", ".join(names)]

    @on(TextTable.RowSelected, "#recent-games")
    @work(group="record")
    async def _watch(self, event: TextTable.RowSelected) -> None:
        game_id = event.row_key.value
        if game_id is None or not game_id.isdigit():
            return
        reply = await self.skyjo.call(record_request(int(game_id)))
        if reply is None:
            return
        try:
            shown = recording(reply["record"], seeded=bool(reply.get("seeded")))
            self.skyjo.nav.replay([shown])
        except (ReplayError, KeyError, TypeError) as exc:
            self.notify(self.tr("replay.error", reason=str(exc)), severity="error")
