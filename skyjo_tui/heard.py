"""``Heard``: what the server said to this client, kept in one place (no Textual here).

The session's pushes come here first: ``Heard.hear`` keeps what a push says (the table we
are at, the lobby's page of tables, the chat, who is on line, the pushes held while we log
in, why we were sent from our last table) and returns what changed, as a ``Changed`` record.
The navigator (``navigator.py``) turns that record into screens opened and messages posted;
the screens read what they show from here. Testable without an app: a push in, a record out.

The server's table ``status`` decides the screen: ``waiting`` is the room where players
gather, ``playing`` and ``between_rounds`` the table itself (which shows the round summary
and the end of the game in turn).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from server.netclient import LobbyTables
from server.protocol import (
    ChatPush,
    LeftReason,
    LeftTablePush,
    LobbyChatPush,
    NoticePush,
    ProtocolError,
    TablePush,
)

CHAT_KEPT: Final = 200  # the chat lines kept, the lobby's and the table's
#: The pushes held while logging in (``Heard.hold``): a seat we come back to opens over the
#: lobby, not over the Connecting screen.
HELD_KINDS: Final = frozenset({"table", "game", "game_over", "left_table"})
#: Why the server sent us from a table, when it was not our choice: said in the lobby until
#: we sit somewhere again (``left.<reason>`` in the catalogs).
LASTING_LEFT: Final = frozenset(LeftReason)


class HeardChat(NamedTuple):
    """A chat line as the server sent it: where it was said, who said it, what, and when
    (the server's clock: the same line told again on arriving at a table is known by it)."""

    scope: str
    name: str
    text: str
    at: float


@dataclass(frozen=True, slots=True)
class Changed:
    """What one push changed, for the navigator to show. ``kind``: the push's type."""

    kind: str
    held: bool = False  # kept for later (``Heard.release``): nothing is shown now
    tables: bool = False  # the lobby's page of tables (``Heard.lobby_tables``)
    who: dict[str, Any] | None = None  # a page of who is on line
    table: dict[str, Any] | None = None  # the table we are at, as it is now
    removed: dict[str, Any] | None = None  # whom the host removed (with ``table``)
    story: list[Any] | None = None  # arrived at the table: the story of its game so far
    game: dict[str, Any] | None = None  # a game update (a view and the events to it)
    chat: tuple[HeardChat, ...] = ()  # lines for the screens that show chat, to add
    lobby_chat: bool = False  # the lobby's chat was replaced: shown again whole
    left: str | None = None  # we were sent from our table: the server's reason ("" if none)
    notice: str | None = None  # the server's admin speaks to everyone


def heard_chat(line: ChatPush) -> HeardChat:
    return HeardChat(line.scope, line.from_name, line.text, float(line.at))


def lines_heard(said: list[Any]) -> list[HeardChat]:
    """The chat lines told again on arriving (each a ``chat`` push as it was sent); a line
    that is not one is left out, as a push that is not one is (``ServerConnection``)."""
    heard = []
    for line in said:
        if not isinstance(line, dict):
            continue
        try:
            heard.append(heard_chat(ChatPush.from_wire(line)))
        except ProtocolError:
            continue
    return heard


class Heard:
    """What the server said, as far as the screens need it; see the module's docstring."""

    def __init__(self) -> None:
        self.table: dict[str, Any] | None = None
        #: The story of the table we arrived at (``log`` in its ``table`` push) while no
        #: board shows it yet: at a finished table the board opens with the ``game`` push
        #: after it (``take_story``).
        self.arrival_story: list[Any] | None = None
        self.lobby_tables = LobbyTables()  # the page of public tables the lobby shows
        self.chat_lines: list[HeardChat] = []  # the lobby's and the table's, as heard
        self.who: dict[str, Any] | None = None  # the last page of who is on line
        #: Why the server sent us from our last table, when not our choice ("kicked",
        #: "closed"; "" otherwise): the lobby says it until we are at a table again.
        self.left_reason = ""
        self.holding = False  # while True, table pushes wait in ``held``
        self.held: list[dict[str, Any]] = []

    # -- holding table pushes while logging in ----------------------------------------

    def hold(self) -> None:
        """Keep table pushes aside (while logging in) instead of showing them."""
        self.holding, self.held = True, []

    def release(self) -> list[dict[str, Any]]:
        """Stop holding; the pushes held meanwhile, in order (to be heard again)."""
        held, self.holding, self.held = self.held, False, []
        return held

    def leave_table(self) -> None:
        """We are at no table (left it, or logged out)."""
        self.table = None

    def take_story(self) -> list[Any] | None:
        """The arrival story, for the board that opens now to tell (it is told once)."""
        story, self.arrival_story = self.arrival_story, None
        return story

    # -- a push --------------------------------------------------------------------------

    def hear(self, message: dict[str, Any]) -> Changed:
        """Keep what ``message`` (a push) says; what changed, for the screens."""
        kind = str(message.get("type", ""))
        if self.holding and kind in HELD_KINDS:
            self.held.append(message)
            return Changed(kind, held=True)
        if kind in ("tables", "tables_changed"):
            self.lobby_tables.apply(message)
            return Changed(kind, tables=True)
        if kind == "table":
            return self._table(message)
        if kind == "game":
            return Changed(kind, game=message)
        if kind == "chat":
            line = heard_chat(ChatPush.from_wire(message))
            self.chat_lines = [*self.chat_lines[-(CHAT_KEPT - 1) :], line]
            return Changed(kind, chat=(line,))
        if kind == "lobby_chat":
            return self._lobby_chat(message)
        if kind == "left_table":
            reason = LeftTablePush.from_wire(message).reason
            self.left_reason = reason if reason in LASTING_LEFT else ""
            self.table = None
            return Changed(kind, left=reason)
        if kind == "notice":
            return Changed(kind, notice=NoticePush.from_wire(message).text)
        if kind == "who":
            self.who = message
            return Changed(kind, who=message)
        # "game_over": the table push that follows it says the stored game's id (``game_id``)
        return Changed(kind)

    def _table(self, message: dict[str, Any]) -> Changed:
        push = TablePush.from_wire(message)
        table = push.table
        removed = push.removed  # the server's word: the host removed someone
        if self.table is None or self.table.get("table_id") != table.get("table_id"):
            # Another table's chat was said there: its lines are not shown at this one.
            self.chat_lines = [line for line in self.chat_lines if line.scope != "table"]
            self.arrival_story = None  # nor its story
        # Arrived at this table: what was said here so far, and the story of its game.
        missed = self._table_chat_so_far(push.chat) if push.chat is not None else ()
        story = push.log
        if story is not None:
            # Kept for a board yet to open (``take_story``); one that shows the table
            # already is given it with this change.
            self.arrival_story = story
        self.table = table
        self.left_reason = ""  # at a table again: why we left the last one is old news
        return Changed("table", table=table, removed=removed, story=story, chat=missed)

    def _table_chat_so_far(self, said: list[Any]) -> tuple[HeardChat, ...]:
        """Arrived at a table (sat down, came to watch, came back after a drop or a restart):
        the server's chat so far replaces the table lines we had. The lines to show are only
        those said since the last one we had (a screen showing the table has the rest)."""
        earlier = lines_heard(said)
        newest = max((line.at for line in self.chat_lines if line.scope == "table"), default=None)
        missed = tuple(line for line in earlier if newest is None or line.at > newest)
        others = [line for line in self.chat_lines if line.scope != "table"]
        self.chat_lines = [*others, *earlier][-CHAT_KEPT:]
        return missed

    def _lobby_chat(self, message: dict[str, Any]) -> Changed:
        """Arrived in the lobby: its chat so far replaces the lobby lines we had."""
        earlier = lines_heard(LobbyChatPush.from_wire(message).lines)
        others = [line for line in self.chat_lines if line.scope != "lobby"]
        self.chat_lines = [*others, *earlier][-CHAT_KEPT:]
        return Changed("lobby_chat", lobby_chat=True)
