"""The command palette's commands (Ctrl+P): the app's real commands, and the themes.

A command is offered only where it applies: each is a key binding of the screen
the palette was opened over (new game, join, leave, settings, help, statistics),
found by its id among that screen's active bindings and run as that key would
run it, so the palette can never do what the screen would refuse. Their names
are the bindings' own words, in the player's language; the help line shows the
key. The themes are offered everywhere.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, cast

from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Matcher, Provider
from textual.content import Content
from textual.dom import DOMNode

from .host import Host
from .theme import THEMES

#: The palette's commands: the ids of the bindings that are that command on some screen.
COMMANDS: Final[tuple[tuple[str, frozenset[str]], ...]] = (
    ("new_game", frozenset({"home.local", "lobby.create"})),
    ("join", frozenset({"home.join", "lobby.code", "list.choose"})),
    ("leave", frozenset({"table.leave", "room.leave", "over.leave"})),
    ("settings", frozenset({"home.settings", "lobby.settings", "table.settings"})),
    ("stats", frozenset({"home.stats", "lobby.stats"})),
    ("help", frozenset({"home.help", "lobby.help", "room.help", "table.help", "app.help"})),
)


@dataclass(frozen=True)
class Command:
    name: str  # what the palette lists (and matches)
    help: str
    run: Callable[[], Any]

    def shown(self) -> Content:
        return Content(self.name)

    def help_shown(self) -> Content:
        return Content(self.help)  # the palette reads a str as markup: a key "[" would break it


class SkyjoCommands(Provider):
    """The commands of the screen under the palette, then one per theme."""

    @property
    def skyjo(self) -> Host:
        return cast(Host, self.app)

    def commands(self) -> list[Command]:
        return [*self._screen_commands(), *self._theme_commands()]

    def _screen_commands(self) -> list[Command]:
        active = self.screen.active_bindings
        found: list[Command] = []
        for _, ids in COMMANDS:
            for key, held in active.items():
                binding = held.binding
                if binding.id in ids and held.enabled:
                    found.append(self._binding_command(binding, key, held.node))
                    break
        return found

    def _binding_command(self, binding: Binding, key: str, node: DOMNode) -> Command:
        shown = self.app.get_key_display(Binding(key, ""))
        # The binding's description is already in the player's language (screens.base).
        name = binding.description

        async def run() -> None:
            await self.app.run_action(binding.action, node)

        return Command(name, self.skyjo.tr("palette.key", key=shown), run)

    def _theme_commands(self) -> list[Command]:
        tr = self.skyjo.tr
        return [
            Command(
                tr("palette.theme", theme=tr(f"theme.{theme}")),
                tr("palette.theme_help"),
                functools.partial(self.skyjo.set_theme, theme),
            )
            for theme in THEMES
            if theme != self.app.theme
        ]

    async def discover(self) -> Hits:
        for command in self.commands():
            yield DiscoveryHit(
                command.shown(),
                command.run,
                text=command.name,
                help=command.help_shown(),  # type: ignore[arg-type]
            )

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for command in self.commands():
            score = matcher.match(command.name)
            if score > 0:
                yield Hit(
                    score,
                    _highlight(matcher, command.name),
                    command.run,
                    text=command.name,
                    help=command.help_shown(),  # type: ignore[arg-type]
                )


def _highlight(matcher: Matcher, name: str) -> Content:
    """``Matcher.highlight`` without reading ``name`` as markup."""
    content = Content(name)
    _, offsets = matcher.fuzzy_search.match(matcher.query, name)
    for offset in offsets:
        if not name[offset].isspace():
            content = content.stylize(matcher.match_style, offset, offset + 1)
    return content
