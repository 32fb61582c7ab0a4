"""Textual's one-line text box, with its editing keys kept in the order they were typed."""

from __future__ import annotations

from textual import events
from textual.widgets import Input as TextualInput


class Input(TextualInput):
    """A text box whose own keys (Backspace, the arrows, Enter...) act where they were typed.

    Textual's box inserts a letter at once, but runs a bound key only once its event
    has bubbled up to the app: keys that arrive together (a quick typist, an SSH link
    that sends several in one packet) then edit out of order, "helo⌫lo" becoming
    "helol". This box runs its own bindings as the key reaches it, as the app would
    have: the focused widget's bindings, with the player's keymap, are the first in
    the screen's chain; priority bindings are checked before the key gets here.
    Textual issue #6605.
    """

    async def _on_key(self, event: events.Key) -> None:
        if not event.is_printable and await self._run_own_binding(event.key):
            event.stop()
            event.prevent_default()
            return
        await super()._on_key(event)

    async def _run_own_binding(self, key: str) -> bool:
        chain = self.screen._modal_binding_chain  # the player's keymap applied
        if not chain or chain[0][0] is not self:
            return False
        for binding in chain[0][1].key_to_bindings.get(key, ()):
            if not binding.priority and await self.app.run_action(binding.action, self):
                return True
        return False
