"""The screen's keys on the bottom line, drawn by one widget.

It looks and behaves as Textual's ``Footer`` (the same colours, spacing,
groups, the command palette's key on the right; a click presses the key), but
Textual's builds a widget for every key, styled from the whole stylesheet, and
rebuilds them all whenever the screen's keys may have changed (a focus change,
a screen resumed, a reactive with ``bindings=True``). That was a third of the
CPU time of a hosted player's start. This one lays its keys out as text and
repaints its one line when what it shows changes.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import groupby
from typing import TYPE_CHECKING, ClassVar, Final, Protocol, runtime_checkable

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import ActiveBinding, Binding
from textual.dom import DOMNode
from textual.widget import Widget

if TYPE_CHECKING:
    from textual.screen import Screen


@runtime_checkable
class TouchApp(Protocol):
    """An app that knows whether it runs on a touch screen (a phone, a tablet)."""

    touch: bool


@dataclass(frozen=True)
class FooterKey:
    """One key as the footer offers it."""

    key: str
    """What a click presses (the binding's first key)."""
    display: str
    """The key as drawn ("^q", "→")."""
    description: str
    """Drawn beside the key; "" for a key of a group (its group's name follows)."""
    action: str
    enabled: bool
    tooltip: str


@dataclass(frozen=True)
class Piece:
    """A stretch of the line: its text, how it is styled, the key it belongs to."""

    text: str
    part: str | None
    """``key``, ``description``, ``border``, or None for the footer's own background."""
    key: FooterKey | None = None


@dataclass(frozen=True)
class DrawnKey:
    """Where a key landed on the line (cells ``start`` to ``end``, end excluded)."""

    key: FooterKey
    start: int
    end: int
    whole: bool
    """Drawn whole; False when the footer had to cut it (no room)."""


#: A stretch of the line for one key, or for one group of keys and their name.
Unit = tuple[Piece, ...]

#: Where keys are left out for want of room (Help lists them all).
LEFT_OUT: Final = Piece(" … ", "description")
#: The keys kept at the end of the line when others must be left out: every screen ends
#: with its Help and its way out (Leave, Quit, Back), the two a person must always find.
KEPT_LAST: Final = 2


class KeyFooter(Widget, can_focus=False):
    """The keys of the screen (its active bindings that say ``show``).

    The command palette's key (Ctrl+P) is shown on the right of the home
    screen's footer (``show_command_palette=True``) when all the keys fit
    beside it; Help lists it always. When the screen's keys do not all fit,
    whole keys are left out before the last two (``KEPT_LAST``), marked by
    "…", rather than Help and the way out cut at the edge.
    """

    ALLOW_SELECT = False
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "key-footer--key",
        "key-footer--description",
        "key-footer--border",
        "key-footer--hover",
    }
    DEFAULT_CSS = """
    KeyFooter {
        dock: bottom;
        height: 1;
        width: 1fr;
        text-wrap: nowrap;
        color: $footer-foreground;
        background: $footer-background;
        .key-footer--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .key-footer--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        .key-footer--border {
            color: $foreground 20%;
        }
        .key-footer--hover {
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
    }
    """

    def __init__(self, *, show_command_palette: bool = False) -> None:
        super().__init__()
        self.show_command_palette = show_command_palette
        self._keys: tuple[tuple[Unit, ...], Unit] = ((), ())
        """The line: the keys from the left, one unit a key or group; the palette's key."""
        self._drawn: tuple[DrawnKey, ...] | None = None
        """Where each key landed at the last paint (None: not painted since they changed)."""
        self._words: tuple[DrawnKey, ...] = ()
        """Where a group's name presses one of its keys (``_group_words``), at the last paint."""
        self._hovered: FooterKey | None = None

    # -- what it shows ------------------------------------------------------------------

    @property
    def _words_only(self) -> bool:
        """On a touch screen: each key's words, without the key (a finger taps words; a
        phone has no "^s" or "esc"). Help lists the keys, for a tablet's keyboard."""
        app = self.app
        return isinstance(app, TouchApp) and app.touch

    @property
    def drawn(self) -> tuple[DrawnKey, ...] | None:
        """Each key where the last paint put it; None until the current keys are painted."""
        return self._drawn

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self._bindings_changed(self.screen)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen[object]) -> None:
        if not self.is_attached or screen is not self.screen:
            return
        keys = (tuple(self._left_units()), tuple(self._palette_pieces()))
        if keys != self._keys:
            self._keys = keys
            self._drawn = None
            self.refresh()

    def _offered(self) -> Iterator[tuple[Binding, bool, str]]:
        for _node, binding, enabled, tooltip in in_declared_order(self.screen.active_bindings):
            if binding.show:
                yield binding, enabled, tooltip

    def _footer_key(
        self, binding: Binding, enabled: bool, tooltip: str, description: str
    ) -> FooterKey:
        display = self.app.get_key_display(binding)
        return FooterKey(binding.key, display, description, binding.action, enabled, tooltip)

    def _left_units(self) -> Iterator[Unit]:
        """The keys as Textual's footer spaces them: `` key description `` each, and a
        group's keys side by side before the group's name."""
        by_action: defaultdict[str, list[tuple[Binding, bool, str]]] = defaultdict(list)
        for offered in self._offered():
            by_action[offered[0].action].append(offered)
        firsts = [bindings[0] for bindings in by_action.values()]  # one key an action
        for group, members_of in groupby(firsts, lambda offered: offered[0].group):
            members = list(members_of)
            if group is None or len(members) == 1:
                for binding, enabled, tooltip in members:
                    key = self._footer_key(binding, enabled, tooltip, binding.description)
                    yield tuple(_key_pieces(key, self._words_only))
                continue
            keys = [
                self._footer_key(binding, enabled, tooltip or binding.description, "")
                for binding, enabled, tooltip in members
            ]
            pieces = [Piece(" ", None)]
            if self._words_only:  # the group's name alone, each stretch pressing its key
                pieces += [*_group_words(group.description, keys, "key"), Piece(" ", None)]
                yield tuple(pieces)
                continue
            for index, key in enumerate(keys):
                if index and not group.compact:
                    pieces.append(Piece(" ", None))
                pieces.append(Piece(key.display, "key", key))
            pieces += [Piece(" ", None), *_group_words(group.description, keys), Piece(" ", None)]
            yield tuple(pieces)

    def _palette_pieces(self) -> Iterator[Piece]:
        app = self.app
        if not (self.show_command_palette and app.ENABLE_COMMAND_PALETTE):
            return
        found = self.screen.active_bindings.get(app.COMMAND_PALETTE_BINDING)
        if found is None:
            return
        _node, binding, enabled, _tooltip = found
        tooltip = binding.tooltip or binding.description
        key = self._footer_key(binding, enabled, tooltip, binding.description)
        yield Piece("▏", "border")
        yield from _key_pieces(key, self._words_only)
        yield Piece(" ", None, key)

    # -- drawing ------------------------------------------------------------------------

    def render(self) -> Text:
        width = self.size.width
        units, palette = self._keys
        if sum(map(_length, units)) + _length(palette) > width:
            palette = ()  # the screen's own keys first (Help lists the palette's always)
        room = width - _length(palette)
        left = fitted(units, room)
        line = Text(no_wrap=True, overflow="crop", end="")
        drawn: list[DrawnKey] = []
        words: list[DrawnKey] = []
        for piece in left:
            self._append(line, piece, drawn, words, room)
        line.truncate(room)
        line.pad_right(room - line.cell_len)
        for piece in palette:
            self._append(line, piece, drawn, words, width)
        line.truncate(width)
        self._drawn = tuple(drawn)
        self._words = tuple(words)
        return line

    def _append(
        self,
        line: Text,
        piece: Piece,
        drawn: list[DrawnKey],
        words: list[DrawnKey],
        room: int,
    ) -> None:
        start = line.cell_len
        line.append(piece.text, self._style(piece))
        key = piece.key
        if key is None:
            return
        end = line.cell_len
        if drawn and drawn[-1].key == key and drawn[-1].end == start:
            start = drawn.pop().start  # the key and its description: one stretch
        elif any(spot.key == key for spot in drawn):  # a group's name, after its keys
            words.append(DrawnKey(key, start, end, whole=end <= room))
            return
        drawn.append(DrawnKey(key, start, end, whole=end <= room))

    def _style(self, piece: Piece) -> Style:
        style = Style()
        key = piece.key
        if key is not None and key == self._hovered:
            style += self.get_component_rich_style("key-footer--hover")
        if piece.part is not None:
            style += self.get_component_rich_style(f"key-footer--{piece.part}")
        if key is not None and not key.enabled:
            style += Style(dim=True)
        return style

    # -- the mouse ----------------------------------------------------------------------

    def _key_at(self, x: int) -> FooterKey | None:
        for spot in (*(self._drawn or ()), *self._words):
            if spot.start <= x < spot.end:
                return spot.key
        return None

    def on_mouse_move(self, event: events.MouseMove) -> None:
        hovered = self._key_at(event.x)
        if hovered != self._hovered:
            self._hovered = hovered
            self.tooltip = (hovered.tooltip or None) if hovered else None
            self.refresh()

    def on_leave(self) -> None:
        if self._hovered is not None:
            self._hovered = None
            self.tooltip = None
            self.refresh()

    def on_mouse_down(self, event: events.MouseDown) -> None:
        key = self._key_at(event.x)
        if key is None:
            return
        if key.enabled:
            self.app.simulate_key(key.key)
        else:
            self.app.bell()


def fitted(units: tuple[Unit, ...], room: int) -> Unit:
    """The line's pieces in ``room`` cells: every key when all fit; else the first keys
    that fit, "…", and the last ``KEPT_LAST`` keys; cut at the edge only when even
    those do not fit."""
    if sum(map(_length, units)) <= room or len(units) <= KEPT_LAST:
        return tuple(piece for unit in units for piece in unit)
    head, tail = list(units[:-KEPT_LAST]), units[-KEPT_LAST:]
    kept = sum(map(_length, tail)) + _length((LEFT_OUT,))
    while head and sum(map(_length, head)) + kept > room:
        head.pop()
    if not head and kept > room:  # too narrow even for those: the keys as they come
        return tuple(piece for unit in units for piece in unit)
    return (*(piece for unit in head for piece in unit), LEFT_OUT, *(p for u in tail for p in u))


def in_declared_order(active: Mapping[str, ActiveBinding]) -> list[ActiveBinding]:
    """The screen's active keys, each node's in the order it declares its bindings.

    Textual applies the player's keymap by moving a remapped binding to the end of
    its node's keys: Draw remapped would follow Leave, away from its group (Take).
    The nodes keep their order (the focused widget's keys first, the app's last).
    """
    nodes: dict[DOMNode, tuple[int, dict[str, int]]] = {}
    for held in active.values():
        if held.node not in nodes:
            nodes[held.node] = (len(nodes), _action_ranks(held.node))

    def rank(held: ActiveBinding) -> tuple[int, int]:
        place, ranks = nodes[held.node]
        return place, ranks.get(held.binding.action, len(ranks))

    return sorted(active.values(), key=rank)


def _action_ranks(node: DOMNode) -> dict[str, int]:
    """Where each action of ``node`` comes among its bindings as declared, no keymap applied."""
    ranks: dict[str, int] = {}
    for _key, binding in node._bindings:  # noqa: SLF001 - the keymap applies to a copy
        ranks.setdefault(binding.action, len(ranks))
    return ranks


def _length(pieces: Unit) -> int:
    return sum(len(piece.text) for piece in pieces)


def _group_words(name: str, keys: list[FooterKey], style: str = "description") -> Iterator[Piece]:
    """A group's name after its keys, each stretch of it pressing one of them: a finger
    hits a word more surely than a letter. "Draw/take" and "Bots +/-" are cut at their
    "/" (Draw: d, take: t; "Bots +": b, "-": x); another name in equal parts, in the
    keys' order ("Move": "Mo" is ←, "ve" is →). ``style``: the part of the footer's
    style they are drawn in."""
    parts = name.split("/")
    separator = "/"
    if len(parts) != len(keys):
        size = -(-len(name) // max(1, len(keys)))  # rounded up: no part left without a key
        parts = [name[start : start + size] for start in range(0, len(name), size)] or [""]
        separator = ""
    for index, (words, key) in enumerate(zip(parts, keys, strict=False)):
        if index and separator:
            yield Piece(separator, style)
        yield Piece(words, style, key)


def _key_pieces(key: FooterKey, words_only: bool = False) -> Iterator[Piece]:
    """A key and its description, spaced as Textual's footer spaces them; with
    ``words_only``, its description alone, drawn as a key is."""
    if words_only and key.description:
        yield Piece(f" {key.description} ", "key", key)
        return
    if not key.description:
        yield Piece(key.display, "key", key)
        return
    yield Piece(f" {key.display} ", "key", key)
    yield Piece(f"{key.description} ", "description", key)
