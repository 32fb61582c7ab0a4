"""The keys a player may remap, where each is active, and which new key would clash.

Every screen declares its bindings (``BINDINGS``, each with an ``id``); the
player's keymap (binding id -> keys, kept in ``client.json``) overrides some.
A *place* is a screen with its keys; the app's own keys (Ctrl+Q, F1, Ctrl+P)
are active in every place, so a new key clashes with any other binding of the
same place or with the app's. Pure: the Keys screen owns the Textual side, and the
navigator declares the places (``declare_places``): this module knows no screen.

A key is shown (``key_display``) as Textual shows it, but the keys Textual spells out
in English words ("esc", "space", "pgup") in the player's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Final

from textual.binding import Binding
from textual.dom import DOMNode
from textual.keys import format_key

from .i18n import Translator


@dataclass(frozen=True, slots=True)
class Place:
    name: str  # its locale key is "keys.place.<name>"
    owners: tuple[type[DOMNode], ...]  # the screen and widgets whose keys work there
    bindings: tuple[Binding, ...]  # their remappable ones (those with an id)


@dataclass(frozen=True, slots=True)
class Clash:
    """``key`` is already ``binding``'s, in ``place``."""

    key: str
    binding: Binding
    place: str


#: The app's own keys, active in every place (``SkyjoApp.BINDINGS``).
APP_BINDINGS: Final[tuple[Binding, ...]] = (
    Binding("ctrl+q", "quit", "keys.quit", show=False, priority=True, id="app.quit"),
    Binding("f1", "help", "keys.help", show=False, id="app.help"),
    Binding(
        "ctrl+p", "command_palette", "keys.palette", show=False, priority=True, id="app.palette"
    ),
)

#: The places after ``everywhere``, as ``declare_places`` was given them.
_declared_places: list[tuple[str, tuple[type[DOMNode], ...]]] = []


def declare_places(*places: tuple[str, tuple[type[DOMNode], ...]]) -> None:
    """The places with remappable keys (after ``everywhere``), in the order the Keys screen
    lists them: each a name and the screen and widgets whose keys work there (the lobby's list
    of tables works whenever the lobby shows). The navigator declares them, as it loads: this
    module knows no screen."""
    _declared_places[:] = places
    _places.cache_clear()
    _beside.cache_clear()
    _declared.cache_clear()


def places() -> tuple[Place, ...]:
    """Every place with remappable keys, in the order the Keys screen lists them."""
    if not _declared_places:
        raise LookupError("no places declared: import skyjo_tui.navigator, which declares them")
    return _places()


def place(name: str) -> Place:
    """The place called ``name`` ("table", "lobby"...)."""
    return next(p for p in places() if p.name == name)


@cache
def _places() -> tuple[Place, ...]:
    return (
        Place("everywhere", (), tuple(b for b in APP_BINDINGS if b.id)),
        *(
            Place(
                name,
                owners,
                tuple(
                    b for owner in owners for b in owner.BINDINGS if isinstance(b, Binding) and b.id
                ),
            )
            for name, owners in _declared_places
        ),
    )


def keys_of(binding: Binding, keymap: Mapping[str, str]) -> tuple[str, ...]:
    """The keys that run ``binding`` now: the player's, else the declared ones but those the
    player gave another binding active beside it (a key a new version declares, that the
    player had already chosen for something else: their choice is what runs)."""
    own = keymap.get(binding.id or "")
    if own:
        return _split(own)
    taken = {
        key
        for other in _beside().get(binding.id or "", ())
        for key in _split(keymap.get(other, ""))
    }
    return tuple(key for key in _split(binding.key) if key not in taken)


def _split(keys: str) -> tuple[str, ...]:
    return tuple(key.strip() for key in keys.split(",") if key.strip())


@cache
def _beside() -> dict[str, tuple[str, ...]]:
    """Per binding id, the ids of the bindings active where it is (its place's, and the
    app's everywhere; an app key, every place's), as ``clash`` checks them."""
    every = places()
    everywhere = every[0]
    beside: dict[str, tuple[str, ...]] = {}
    for place in every:
        neighbours = every if place == everywhere else (everywhere, place)
        ids = tuple(b.id for p in neighbours for b in p.bindings if b.id)
        for binding in place.bindings:
            if binding.id:
                beside[binding.id] = tuple(i for i in ids if i != binding.id)
    return beside


def keys_now(binding_id: str, keymap: Mapping[str, str]) -> tuple[str, ...]:
    """The keys that run the binding of id ``binding_id`` now (none: no such binding)."""
    found = _declared().get(binding_id)
    return keys_of(found, keymap) if found is not None else ()


@cache
def _declared() -> dict[str, Binding]:
    """Every remappable binding by its id (the screens' ``BINDINGS`` never change)."""
    return {b.id: b for place in places() for b in place.bindings if b.id}


def find_binding(binding_id: str) -> tuple[Place, Binding] | None:
    for place in places():
        for binding in place.bindings:
            if binding.id == binding_id:
                return place, binding
    return None


def clash(binding_id: str, key: str, keymap: Mapping[str, str]) -> Clash | None:
    """The binding that ``key`` already runs where ``binding_id`` is active, if any.

    An app key (``everywhere``) is active in every place, so it is checked against all.
    """
    found = find_binding(binding_id)
    if found is None:
        return None
    own_place, _ = found
    every = places()
    everywhere = every[0]
    neighbours = every if own_place == everywhere else (everywhere, own_place)
    for place in neighbours:
        for binding in place.bindings:
            if binding.id != binding_id and key in keys_of(binding, keymap):
                return Clash(key, binding, place.name)
    return None


def remapped(keymap: Mapping[str, str], binding_id: str, key: str) -> dict[str, str]:
    """``keymap`` with ``binding_id`` on ``key`` alone (a key back to the declared one is dropped)."""
    found = find_binding(binding_id)
    changed = {k: v for k, v in keymap.items() if k != binding_id}
    if found is not None and keys_of(found[1], {}) != (key,):
        changed[binding_id] = key
    return changed


def key_display(key: str, tr: Translator) -> str:
    """``key`` ("escape", "ctrl+q", "shift+tab") as a player reads it: drawn as Textual's
    ``App.get_key_display`` draws it ("^q", "→", "⏎"), but a key or modifier that has words
    in the catalogs (``keyname.<name>``: the keys Textual spells out in English) in ``tr``'s
    language: "échap", "espace", "maj+tab" in French."""
    *modifiers, name = key.split("+")
    shown = tr.filled(f"keyname.{name}") or format_key(name)
    if "ctrl" in modifiers:  # a caret, as Textual writes it
        modifiers.remove("ctrl")
        shown = f"^{shown}"
    return "+".join(
        [*(tr.filled(f"keyname.{modifier}") or modifier for modifier in modifiers), shown]
    )
