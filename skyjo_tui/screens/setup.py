"""A new local game: how many bots, how strong, and every variant. Enter starts it."""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.worker import Worker

from server.bots import BOT_LEVELS

from ..local_game import DEFAULT_BOTS, MAX_BOTS, MIN_BOTS, LocalSetup
from ..names import default_level, level_name
from ..table.move_keys import MoveKeysKeeper, move_action_of
from ..widgets.footer import KeyFooter
from ..widgets.form import FieldLabel, Form, FormButton, FormGrid
from ..widgets.text import Button, Label, Select
from ..widgets.variants import VariantsForm
from .base import SkyjoScreen


class SetupScreen(SkyjoScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", "keys.start", id="setup.start"),
        Binding("escape", "app.pop_screen", "keys.back", id="setup.back"),
    ]
    _starting: Worker[None] | None = None  # the start under way, if any
    _start_asked = False  # Enter pressed on Start, its press not handled yet
    _keys_ahead: tuple[str, ...] = ()  # the table's move keys pressed meanwhile, for its board

    def compose(self) -> ComposeResult:
        tr, prefs = self.tr, self.skyjo.prefs
        levels = list(BOT_LEVELS)
        fallback = default_level(levels)
        # The last game's bots again (a level this version lacks: the fallback's).
        last = [level if level in levels else fallback for level in prefs.bot_levels[:MAX_BOTS]]
        bots = max(MIN_BOTS, len(last)) if last else DEFAULT_BOTS
        # The rows past them (shown once more bots are asked for): at its last bot's level.
        row_levels = last + [last[-1] if last else fallback] * (MAX_BOTS - len(last))
        with Form(id="setup", classes="form"):
            yield Label(tr("setup.title"), classes="title")
            with FormGrid(id="bots", classes="form-grid"):
                yield FieldLabel(tr("setup.bots"))
                yield Select(
                    [(str(n), n) for n in range(MIN_BOTS, MAX_BOTS + 1)],
                    value=bots,
                    allow_blank=False,
                    compact=True,
                    id="bot-count",
                )
                for index in range(MAX_BOTS):
                    yield FieldLabel(
                        tr("setup.bot_level", number=index + 1), classes=f"bot-{index}"
                    )
                    yield Select(
                        [(level_name(name, tr), name) for name in levels],
                        value=row_levels[index],
                        allow_blank=False,
                        compact=True,
                        id=f"level-{index}",
                        classes=f"bot-{index}",
                    )
            yield VariantsForm(tr, prefs.variants, id="variants")
            with Horizontal(classes="buttons"):
                yield FormButton(tr("setup.start"), variant="primary", id="start", compact=True)
                yield FormButton(tr("setup.back"), id="back", compact=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        self._show_bot_rows(self.query_one("#bot-count", Select).value)  # type: ignore[arg-type]
        start = self.query_one("#start", Button)
        # A button ignores presses while it shows the last one (0.2 s): a start that failed
        # sooner left Enter doing nothing. A start under way is what a press waits for instead.
        start.active_effect_duration = 0
        start.focus()

    @on(Select.Changed, "#bot-count")
    def _count_changed(self, event: Select.Changed) -> None:
        self._show_bot_rows(event.value)  # type: ignore[arg-type]

    def _show_bot_rows(self, count: int) -> None:
        for index in range(MAX_BOTS):
            for widget in self.query(f".bot-{index}"):
                widget.display = index < count

    def setup(self) -> LocalSetup:
        count = self.query_one("#bot-count", Select).value
        assert isinstance(count, int)
        levels = tuple(str(self.query_one(f"#level-{i}", Select).value) for i in range(count))
        return LocalSetup(levels, self.query_one(VariantsForm).settings())

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        asked, self._start_asked = (
            self._start_asked,
            False,
        )  # handled now: the worker tells the rest
        if self._starting is not None and not self._starting.is_finished:
            return  # pressed twice: the first start goes on (a second would cancel it)
        if not asked:  # ctrl+s, or a click: no keys since Enter; none from a start that failed
            self._keys_ahead = ()
        try:
            setup = self.setup()
        except ValueError as exc:
            self.notify(str(exc), severity="error")
            return
        chosen = replace(
            self.skyjo.prefs, bot_levels=list(setup.levels), variants=dict(setup.settings)
        )
        self.skyjo.save_prefs(chosen)
        self._starting = self.skyjo.start_local_game(setup)

    def on_key(self, event: events.Key) -> None:
        # While the game starts this screen is still on top: a move key meant for the
        # table ("d" at once) would do nothing here and say nothing. The table judges it.
        if event.key == "enter" and self.focused is self.query_one("#start", Button):
            # The button's press reaches action_start only after the keys that follow.
            self._start_asked, self._keys_ahead = True, ()
            return
        if not self._start_asked and (self._starting is None or self._starting.is_finished):
            return
        move = move_action_of(event.key, self.skyjo.keymap)
        if move is not None and move != "choose":  # Enter is this screen's Start
            self._keys_ahead += (move,)
            event.stop()

    def on_screen_suspend(self) -> None:
        keys, self._keys_ahead = self._keys_ahead, ()
        if keys and isinstance(self.app.screen, MoveKeysKeeper):
            self.app.screen.keep_keys(keys)

    @on(Button.Pressed, "#back")
    def _back(self) -> None:
        self.app.pop_screen()
