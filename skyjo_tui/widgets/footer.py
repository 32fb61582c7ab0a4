"""Textual's footer, sure to show its screen's keys from the start, rebuilt
only when the keys it shows change."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class KeyFooter(Footer):
    """Textual's ``Footer`` shows nothing until a "bindings changed" signal,
    and then rebuilds itself after the *current* screen's next refresh. A
    screen may send its first signal before the footer listens (children mount
    in their own time), or be pushed while another screen is current, leaving
    the footer blank. This one builds itself as soon as it is mounted.

    Textual's footer rebuilds all its keys (a widget each, styled from the
    whole stylesheet) at every "bindings changed" signal: a focus change, a
    screen resumed, a reactive with ``bindings=True``. Most signals change
    nothing it shows; this one keeps its keys then. That was about half of
    the CPU time of a hosted player's start (a dozen rebuilds before the
    lobby was drawn).

    The command palette's key (Ctrl+P) is shown where there is room for it, on
    the home screen's footer (``show_command_palette=True``); Help lists it always.
    """

    def __init__(self, *, show_command_palette: bool = False) -> None:
        super().__init__(show_command_palette=show_command_palette)
        self._composed_from: tuple[Any, ...] | None = None
        """What the keys on show were built from (``_keys_to_show``); None: not built."""

    def on_mount(self) -> None:
        self._bindings_ready = True
        self.call_later(self.recompose)

    def _keys_to_show(self) -> tuple[Any, ...]:
        """Everything ``Footer.compose`` builds its keys from, comparable."""
        if not self._bindings_ready:
            return ()
        app = self.app
        palette_key = app.COMMAND_PALETTE_BINDING
        return (
            self.show_command_palette and app.ENABLE_COMMAND_PALETTE,
            *(
                (key, binding, enabled, tooltip, app.get_key_display(binding))
                for key, (_, binding, enabled, tooltip) in self.screen.active_bindings.items()
                if binding.show or key == palette_key
            ),
        )

    async def recompose(self) -> None:
        if self.is_attached and self._keys_to_show() == self._composed_from:
            return  # the same keys: nothing to rebuild
        await super().recompose()

    def compose(self) -> ComposeResult:
        self._composed_from = self._keys_to_show() if self.is_attached else None
        yield from _unchanged_from_the_start(super().compose(), self.compact)


def _unchanged_from_the_start(widgets: Iterable[Widget], compact: bool) -> ComposeResult:
    """``widgets``, each key given the footer's ``compact`` before it mounts.

    A ``FooterKey`` starts compact and is then bound to its footer's
    ``compact`` (not compact here): each key restyled itself twice on mount,
    through the whole stylesheet, to end as it would have started.
    """
    for widget in widgets:
        if isinstance(widget, FooterKey):
            widget.set_reactive(FooterKey.compact, compact)
            widget.set_class(compact, "-compact", update=False)
        yield widget
