"""Binding descriptions in the player's language: a screen's, a widget's, the app's.

Textual reads ``Binding.description`` for the footer and has no hook to translate it:
each node's own binding map gets translated copies (``localize_bindings``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Final

from textual.binding import Binding

from .i18n import Translator

#: Textual's own words for the keys of its widgets that a footer shows (an open drop-down's
#: Esc), by the word of ours that says them in the player's language: shown as they were,
#: a French footer read "échap Dismiss menu".
TEXTUAL_KEY_WORDS: Final = {
    "Dismiss menu": "keys.close_menu",
    "Exit the command palette": "keys.close_palette",
}


def word_of(description: str) -> str | None:
    """The word of ours for a binding's ``description``, if it is one to translate."""
    return description if description.startswith("keys.") else TEXTUAL_KEY_WORDS.get(description)


def localize_bindings(node: Any, tr: Translator) -> None:
    """Show binding descriptions (declared as locale keys) in the player's language,
    on the language's own keys where it has some (``key.<binding id>``).

    Textual reads ``Binding.description`` for the footer and has no hook to
    translate it, so each screen's own binding map gets translated copies.
    A language names the keys of a binding whose key is a word's initial: French
    answers "Oui" with ``o`` (``"key.confirm.yes": "o,y"``, its first key the one
    the footer shows). The player's keymap, by binding id, still comes first.
    """
    merged = type(node)._merged_bindings  # noqa: SLF001 - the declared (untranslated) bindings
    if merged is not None:
        node._bindings = merged.copy()  # noqa: SLF001 - no public setter exists
    bindings = node._bindings.key_to_bindings  # noqa: SLF001
    localized: dict[str, list[Binding]] = {}
    rebound: set[str] = set()  # the ids on their language's keys already
    for key, declared in bindings.items():
        for binding in declared:
            own_keys = tr.filled(f"key.{binding.id}") if binding.id else None
            if own_keys is None:
                localized.setdefault(key, []).append(_localized(binding, tr))
            elif binding.id not in rebound:  # its other declared keys give way too
                rebound.add(binding.id or "")
                for own in Binding.make_bindings([binding.with_key(own_keys)]):
                    localized.setdefault(own.key, []).append(_localized(own, tr))
    bindings.clear()
    bindings.update(localized)  # in the declared order: the footer shows an action's first key
    if node.is_attached:
        node.refresh_bindings()


def _localized(binding: Binding, tr: Translator) -> Binding:
    """``binding`` with its description, and its footer group's, in the player's language."""
    word = word_of(binding.description)
    if word is not None:
        binding = replace(binding, description=tr(word))
    group = binding.group
    if group is not None and group.description.startswith("keys."):
        binding = replace(
            binding, group=Binding.Group(tr(group.description), compact=group.compact)
        )
    return binding
