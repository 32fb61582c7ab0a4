"""The rules of Skyjo and every key of the table, in the player's language."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Markdown

from ..keymap import keys_of, place
from ..widgets.chat import ChatInput
from ..widgets.footer import KeyFooter
from ..widgets.table_list import TableList
from .base import SkyjoScreen


def keys_markdown(
    screens: list[type], tr: object, key_display: object, keymap: Mapping[str, str] | None = None
) -> str:
    """A table of the keys of ``screens``' bindings (shown ones and hidden ones), as the
    player's ``keymap`` (binding id -> keys) remaps them."""
    rows = []
    for screen in screens:
        for binding in getattr(screen, "BINDINGS", []):
            keys = ", ".join(key_display(key) for key in keys_of(binding, keymap or {}))  # type: ignore[operator]
            rows.append(f"| {keys} | {tr(binding.description)} |")  # type: ignore[operator]
    return "\n".join(rows)


class HelpScreen(SkyjoScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "app.pop_screen", "keys.close", id="help.close"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Markdown(self._text())
        yield KeyFooter()

    def _text(self) -> str:
        tr = self.tr

        def display(key: str) -> str:
            return self.app.get_key_display(Binding(key.strip(), ""))

        def keys_section(title: str, screens: list[type]) -> str:
            header = f"| {tr('help.col.key')} | {tr('help.col.does')} |\n|---|---|"
            return (
                f"## {title}\n\n{header}\n{keys_markdown(screens, tr, display, self.skyjo.keymap)}"
            )

        # Every key of these places' screens, those their footer does not show included.
        table, replay = list(place("table").owners), list(place("replay").owners)
        # The list's keys first: they are the lobby's main ones.
        lobby: list[type] = [TableList, *(o for o in place("lobby").owners if o is not TableList)]
        lobby += place("room").owners
        return "\n\n".join(
            [
                tr("help.rules"),
                f"## {tr('help.legend_title')}\n\n{tr('help.legend')}",
                # A phone's player taps: the taps first, then the keys a keyboard would have.
                *([tr("help.tap")] if self.skyjo.touch else []),
                keys_section(tr("help.table_keys"), table),
                tr("help.mouse"),
                keys_section(tr("help.replay_keys"), replay),
                keys_section(tr("help.lobby_keys"), lobby),
                keys_section(tr("help.everywhere_keys"), [type(self.app), ChatInput]),
            ]
        )
