"""The whole table: status bar, opponents, piles, your tableau, the log, the prompt.

The board only draws a ``BoardModel`` (see ``presenter``) and sizes its cards
from ``layout.plan_table`` (whose portrait plan puts the log over the piles and
your cards rather than beside them); clicks on cards and piles bubble up as the
tableau's and piles' own messages for the screen to act on.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Container, Horizontal, Vertical
from textual.reactive import reactive

from server.protocol import DEFAULT_CHAT_MAX_LENGTH

from ..i18n import Translator
from ..layout import TablePlan, piles_width, plan_table, tableau_width
from ..presenter import BoardModel
from .chat import ChatField, ChatInput
from .line_log import LineLog
from .piles import PilesWidget
from .prompt import PromptLine
from .tableau import NAME_EXTRA, TableauWidget
from .text import Static


def opponent_cell_width(plan: TablePlan, width: int) -> int:
    """The width of each opponent's cell, the same for all (the remainder is left over)
    so that every name line has the same room and says the scores the same way.

    A band that fits above the piles and your cards stays there, across the
    table from you; a wider one spreads over the whole width.
    """
    bands = max(1, plan.per_band)
    table = piles_width(plan.piles) + (tableau_width(plan.own) if plan.own else 0)
    if bands * (tableau_width(plan.others) + NAME_EXTRA) <= table:
        return table // bands
    return max(1, width // bands)


class TableBoard(Vertical):
    """Everything on the table; the screen sets ``model`` and writes to the log."""

    DEFAULT_CSS = """
    TableBoard { height: 1fr; }
    TableBoard #status { height: 1; background: $panel; color: $text; padding: 0 1; }
    TableBoard #opponents { height: auto; layout: grid; grid-gutter: 0; }
    TableBoard #middle { height: auto; }
    TableBoard #side { width: 1fr; height: 100%; }
    TableBoard #log { padding: 0 0 0 1; border-left: vkey $panel; }
    /* A phone held upright: the log over the piles and your cards, across the width
       (``_arrange``), and the cards at the bottom, within a thumb's reach. */
    TableBoard.-portrait #middle { layout: grid; grid-size: 2 2; grid-gutter: 0; }
    TableBoard.-portrait #side { column-span: 2; }
    TableBoard.-portrait #log { padding: 0 1; border-left: none; border-bottom: hkey $panel; }
    """

    # The board draws nothing itself: its children repaint what changed.
    model: reactive[BoardModel | None] = reactive(None, always_update=True, repaint=False)
    plan: reactive[TablePlan | None] = reactive(None, always_update=True, repaint=False)

    def __init__(
        self,
        tr: Translator,
        *,
        chat_max_length: int = DEFAULT_CHAT_MAX_LENGTH,
        touch: bool = False,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self._tr, self._chat_max_length = tr, chat_max_length
        self._touch = touch  # a finger plays: your cards stay big enough for it
        self._players = 0
        self._shown: BoardModel | None = None
        self._tableaux: list[TableauWidget] | None = None
        """Every tableau on the board, ours included (a query each key cost a tenth of it)."""

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Container(id="opponents")
        with Horizontal(id="middle"):
            yield PilesWidget(id="piles")
            yield TableauWidget(-1, id="own")
            with Vertical(id="side"):
                yield LineLog(newer_below=self._tr("log.newer_below"), id="log")
                # Hidden and disabled (so never focused) until the player opens the chat.
                chat = ChatField(self._tr, self._chat_max_length, id="chat-field", disabled=True)
                chat.display = False
                yield chat
        yield PromptLine(id="prompt")

    @property
    def prompt_line(self) -> PromptLine:
        return self.query_one("#prompt", PromptLine)

    @property
    def chat_field(self) -> ChatField:
        return self.query_one("#chat-field", ChatField)

    @property
    def chat_input(self) -> ChatInput:
        return self.query_one("#chat-input", ChatInput)

    def write_log(self, line: str | Text) -> None:
        self.query_one("#log", LineLog).write(line)

    def write_chat(self, name: str, text: str) -> None:
        self.query_one("#log", LineLog).write_chat(name, text)

    def clear_log(self) -> None:
        self.query_one("#log", LineLog).clear()

    def scroll_log(self, pages: int) -> None:
        """Read the log ``pages`` pages further back (below 0: towards the newest)."""
        self.query_one("#log", LineLog).scroll_pages(pages)

    # -- applying the model ----------------------------------------------------

    def on_mount(self) -> None:
        self._apply_when_composed()

    def watch_model(self, model: BoardModel | None) -> None:
        if model is None or not self.is_mounted:
            return
        if self._tableaux is None and not self.query("#own"):
            # Mounted, but its children are not yet (a recompose under way, a busy
            # machine): the model is applied once they are.
            self.call_after_refresh(self._apply_when_composed)
            return
        players = len(model.tableaux)
        if players != self._players or self._own_seat_changed(model):
            self._players = players
            self._rebuild_opponents(model)
            self._replan()
        self._apply(model)

    def _apply_when_composed(self) -> None:
        if self.model is not None and self.is_mounted and self.query("#own"):
            self.watch_model(self.model)

    def _own_seat_changed(self, model: BoardModel) -> bool:
        own = self.query_one("#own", TableauWidget)
        return own.seat != (model.own_seat if model.own_seat is not None else -1)

    def _rebuild_opponents(self, model: BoardModel) -> None:
        container = self.query_one("#opponents", Container)
        container.remove_children()
        self._tableaux = None
        container.mount_all(
            TableauWidget(seat, wide=True, classes="opponent") for seat in model.others
        )
        self._shown = None
        own = self.query_one("#own", TableauWidget)
        own.seat = model.own_seat if model.own_seat is not None else -1
        own.display = model.own_seat is not None

    def _apply(self, model: BoardModel) -> None:
        previous, self._shown = self._shown, model
        # Updating a Static lays the screen out again: only when its words change.
        if previous is None or previous.status != model.status:
            self.query_one("#status", Static).update(model.status)
        self.prompt_line.show(model.prompt, model.your_move)
        if self._tableaux is None:
            self._tableaux = list(self.query(TableauWidget).results(TableauWidget))
        for widget in self._tableaux:
            seat = widget.seat
            if seat < 0 or seat >= len(model.tableaux):
                continue
            own = seat == model.own_seat
            widget.show(
                model.tableaux[seat],
                model.lines[seat],
                cursor=model.cursor if own and isinstance(model.cursor, int) else None,
                targets=model.own_targets if own else None,
                highlight=model.highlights.get(seat, frozenset()),
                hint=model.own_hint if own else frozenset(),
                revealed=model.revealed.get(seat, frozenset()),
            )
        piles = self.query_one(PilesWidget)
        piles.state = model.piles
        piles.active = model.piles_active
        piles.highlight = model.piles_highlight
        piles.hint = model.piles_hint
        piles.cursor = model.cursor if isinstance(model.cursor, str) else None

    # -- sizes -------------------------------------------------------------------

    def on_resize(self) -> None:
        self._replan()

    def _replan(self) -> None:
        model = self.model
        if model is None:
            return
        # Before the first layout the board has no size yet: it will take the
        # screen but the footer, so the first frame already has the right plan.
        width, height = (
            self.size if self.size.width else (self.app.size.width, self.app.size.height - 1)
        )
        spectator = model.own_seat is None
        plan = plan_table(width, height + 1, len(model.others), spectator, self._touch)
        if plan is not None:
            self.plan = plan

    def watch_plan(self, plan: TablePlan | None) -> None:
        if plan is None:
            return
        opponents = self.query_one("#opponents", Container)
        opponents.styles.grid_size_columns = max(1, plan.per_band)
        opponents.styles.grid_columns = str(
            opponent_cell_width(plan, self.size.width or self.app.size.width)
        )
        opponents.display = plan.bands > 0
        for widget in opponents.query(TableauWidget):
            widget.card_size = plan.others
        self.query_one("#own", TableauWidget).card_size = plan.own or plan.others
        self.query_one(PilesWidget).card_size = plan.piles
        middle = self.query_one("#middle", Horizontal)
        middle.styles.height = "1fr"  # the log takes what the cards leave
        middle.styles.min_height = plan.middle_height
        self._arrange(plan)
        self.prompt_line.allow_rows(plan.prompt_rows)  # a long prompt takes the log's rows

    def _arrange(self, plan: TablePlan) -> None:
        """The log beside the cards (landscape), or over them across the width (portrait:
        first in the middle's grid, the piles and your cards in the row under it)."""
        middle = self.query_one("#middle", Horizontal)
        side = self.query_one("#side", Vertical)
        piles = self.query_one(PilesWidget)
        if plan.portrait:
            own = plan.own or plan.others
            cards = piles_width(own) + tableau_width(own)
            spare = max(0, (self.size.width or self.app.size.width) - cards)
            middle.styles.grid_rows = f"1fr {plan.middle_height}"
            middle.styles.grid_columns = f"{piles_width(own) + spare // 2} 1fr"
            piles.styles.margin = (0, 0, 0, spare // 2)  # the piles and your cards centred
        if plan.portrait != self.has_class("-portrait"):
            if plan.portrait:
                middle.move_child(side, before=0)
            else:  # turned on its side: the log back beside the cards, as composed
                middle.move_child(side, after=-1)
                piles.styles.margin = 0
            self.set_class(plan.portrait, "-portrait")
