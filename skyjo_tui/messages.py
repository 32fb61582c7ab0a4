"""The typed messages a screen is sent about what the server said (``navigator.py`` sends them).

A screen that shows something of it handles the message (``on_table_changed``,
``on_chat_heard``...); one that does not ignores it. None bubbles up to the app: each is
posted to the screens that may show it, not to be heard twice.
"""

from __future__ import annotations

from typing import Any

from textual.message import Message

from .heard import HeardChat
from .link import LinkChanged


class ServerNews(Message, bubble=False):
    """What every message of this module is: news from the server for one screen."""


class TableChanged(ServerNews):
    """The table we are at, as the server says it is now."""

    def __init__(
        self,
        table: dict[str, Any],
        removed: dict[str, Any] | None = None,
        story: list[Any] | None = None,
    ) -> None:
        super().__init__()
        self.table = table
        self.removed = removed  # whom the host removed, if that is the change
        self.story = story  # the game's story, when we just came back to the table


class TableShown(ServerNews):
    """The board ``board`` shows a change of its table (for the dialogs over it)."""

    def __init__(self, board: object) -> None:
        super().__init__()
        self.board = board


class GameUpdate(ServerNews):
    """A ``game`` push: a view of the game and the events that led to it."""

    def __init__(self, message: dict[str, Any]) -> None:
        super().__init__()
        self.message = message


class ChatHeard(ServerNews):
    """A chat line to add (each screen keeps to the scope it shows)."""

    def __init__(self, line: HeardChat) -> None:
        super().__init__()
        self.line = line


class LobbyChatHeard(ServerNews):
    """The lobby's chat so far replaced the lines we had: show it again whole."""


class TablesChanged(ServerNews):
    """The lobby's page of public tables changed (``Heard.lobby_tables``)."""


class WhoHeard(ServerNews):
    """A page of who is on line."""

    def __init__(self, page: dict[str, Any]) -> None:
        super().__init__()
        self.page = page


class LinkState(ServerNews):
    """The connection to the server changed: online, reconnecting, offline."""

    def __init__(self, change: LinkChanged) -> None:
        super().__init__()
        self.change = change
