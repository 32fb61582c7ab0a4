"""Remapping keys: pick an action, press its new key; a clash is refused; back to defaults."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical

from .. import keymap as keymaps
from ..widgets.footer import KeyFooter
from ..widgets.key_catcher import KeyCatcher
from ..widgets.text import Label, TextTable
from .base import SkyjoScreen


class KeysScreen(SkyjoScreen[None]):
    AUTO_FOCUS = "#key-list"
    BINDINGS: ClassVar[list[BindingType]] = [
        # Before the list's own Enter (which the footer would show instead, without words).
        Binding("enter", "change", "keys.change_key", priority=True, id="keymap.change"),
        Binding("ctrl+r", "defaults", "keys.defaults", id="keymap.defaults"),
        Binding("escape", "app.pop_screen", "keys.back", id="keymap.back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._changing: str | None = None  # the binding id waiting for its new key

    def compose(self) -> ComposeResult:
        tr = self.tr
        with Vertical(id="keys"):
            yield Label(tr("keys_screen.title"), classes="title")
            yield Label(tr("keys_screen.hint"), id="keys-hint", classes="hint")
            yield KeyCatcher("", id="key-catcher")
            yield TextTable(id="key-list", cursor_type="row", zebra_stripes=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self._fill()
        self.query_one("#key-catcher", KeyCatcher).display = False

    def after_recompose(self) -> None:
        self.on_mount()

    def _fill(self) -> None:
        tr, keymap = self.tr, self.skyjo.keymap
        table = self.query_one("#key-list", TextTable)
        cursor = table.cursor_row
        table.clear(columns=True)
        table.add_columns(
            tr("keys_screen.col.where"), tr("keys_screen.col.does"), tr("keys_screen.col.keys")
        )
        for place in keymaps.places():
            for binding in place.bindings:
                table.add_row(
                    tr(f"keys.place.{place.name}"),
                    tr(binding.description),
                    self._shown_keys(keymaps.keys_of(binding, keymap)),
                    key=binding.id,
                )
        table.move_cursor(row=min(cursor, table.row_count - 1))

    def _shown_keys(self, keys: tuple[str, ...]) -> str:
        return ", ".join(self.app.get_key_display(Binding(key, "")) for key in keys)

    def _say(self, text: str, *, error: bool = False) -> None:
        hint = self.query_one("#keys-hint", Label)
        hint.update(text)
        hint.set_class(error, "error")

    # -- changing a key ------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self._changing is None or action not in ("change", "defaults")

    @on(TextTable.RowSelected, "#key-list")
    def _row_chosen(self) -> None:
        self.action_change()

    def action_change(self) -> None:
        table = self.query_one("#key-list", TextTable)
        if not table.row_count:
            return
        binding_id = str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)
        found = keymaps.find_binding(binding_id)
        if found is None:
            return
        place, binding = found
        self._changing = binding_id
        catcher = self.query_one("#key-catcher", KeyCatcher)
        catcher.update(
            self.tr(
                "keys_screen.press",
                action=self.tr(binding.description),
                where=self.tr(f"keys.place.{place.name}"),
            )
        )
        catcher.display = True
        catcher.focus()
        self._say("")
        self.refresh_bindings()

    @on(KeyCatcher.Caught)
    def _caught(self, message: KeyCatcher.Caught) -> None:
        binding_id, self._changing = self._changing, None
        catcher = self.query_one("#key-catcher", KeyCatcher)
        catcher.display = False
        self.query_one("#key-list", TextTable).focus()
        self.refresh_bindings()
        if binding_id is None or message.key is None:
            self._say(self.tr("keys_screen.unchanged"))
            return
        found = keymaps.find_binding(binding_id)
        assert found is not None  # chosen from the list of them
        _, binding = found
        keymap, key = self.skyjo.keymap, message.key
        shown = self._shown_keys((key,))
        clash = keymaps.clash(binding_id, key, keymap)
        if clash is not None:
            self.app.bell()
            self._say(
                self.tr(
                    "keys_screen.clash",
                    key=shown,
                    other=self.tr(clash.binding.description),
                    where=self.tr(f"keys.place.{clash.place}"),
                    action=self.tr(binding.description),
                ),
                error=True,
            )
            return
        self.skyjo.set_keys(keymaps.remapped(keymap, binding_id, key))
        self._fill()
        self._say(self.tr("keys_screen.changed", action=self.tr(binding.description), key=shown))

    def action_defaults(self) -> None:
        self.skyjo.set_keys({})
        self._fill()
        self._say(self.tr("keys_screen.defaults"))
