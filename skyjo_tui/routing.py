"""Where each server push goes: which screen shows it, and which screen to open.

The server's table ``status`` decides the screen: ``waiting`` is the room
where players gather, ``playing`` and ``between_rounds`` the table itself
(which shows the round summary and the end of the game in turn).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from textual.screen import Screen

from server.protocol import (
    IN_GAME,
    IN_ROOM,
    ChatPush,
    LeftReason,
    LeftTablePush,
    LobbyChatPush,
    NoticePush,
    ProtocolError,
    TablePush,
)

if TYPE_CHECKING:
    from .app import SkyjoApp
    from .screens.base import SkyjoScreen

S = TypeVar("S", bound=Screen[Any])

NOTICE_SECONDS = 30  # an announcement stays up long enough to be read mid-turn
CHAT_KEPT = 200  # the chat lines the app keeps, the lobby's and the table's


class HeardChat(NamedTuple):
    """A chat line as the server sent it: where it was said, who said it, what, and when
    (the server's clock: the same line told again on arriving at a table is known by it)."""

    scope: str
    name: str
    text: str
    at: float


def find_screen(app: SkyjoApp, kind: type[S]) -> S | None:
    for screen in reversed(app.screen_stack):
        if isinstance(screen, kind):
            return screen
    return None


def route_push(app: SkyjoApp, message: dict[str, Any]) -> None:
    kind = message.get("type")
    if app.holding_tables and kind in ("table", "game", "game_over", "left_table"):
        app.held_pushes.append(message)
        return
    if kind in ("tables", "tables_changed"):
        _tables(app, message)
    elif kind == "table":
        _table(app, message)
    elif kind == "game":
        _game(app, message)
    elif kind == "game_over":
        pass  # the table push that follows it says the stored game's id (``game_id``)
    elif kind == "chat":
        _chat(app, message)
    elif kind == "lobby_chat":
        _lobby_chat(app, message)
    elif kind == "left_table":
        _left_table(app, message)
    elif kind == "notice":
        _notice(app, message)
    elif kind == "who":
        _who(app, message)


def _who(app: SkyjoApp, message: dict[str, Any]) -> None:
    from .screens.lobby import LobbyScreen

    lobby = find_screen(app, LobbyScreen)
    if lobby is not None:
        lobby.show_who(message)


def _tables(app: SkyjoApp, message: dict[str, Any]) -> None:
    from .screens.lobby import LobbyScreen

    app.lobby_tables.apply(message)
    lobby = find_screen(app, LobbyScreen)
    if lobby is not None:
        lobby.show_tables()


def _table(app: SkyjoApp, message: dict[str, Any]) -> None:
    from .screens.room import RoomScreen
    from .screens.round_summary import RoundSummaryScreen
    from .screens.table import TableScreen

    push = TablePush.from_wire(message)
    table = push.table
    removed = push.removed  # the server's word: the host removed someone
    if app.table is None or app.table.get("table_id") != table.get("table_id"):
        # Another table's chat was said there: its lines are not shown at this one.
        app.chat_lines = [line for line in app.chat_lines if line.scope != "table"]
        app.arrival_story = None  # nor its story
    if push.chat is not None:  # arrived at this table: what was said here so far
        _table_chat_so_far(app, push.chat)
    story = push.log  # arrived at this table: the story of its game so far
    app.table = table
    app.left_note = ""  # at a table again: why we left the last one is old news
    status = table.get("status")
    board = find_screen(app, TableScreen)
    room = find_screen(app, RoomScreen)
    if story is not None and board is None:
        # Kept for the board: at a finished table, the game push after this one opens it
        # (for whoever played or watches the game), and its log is told from the story.
        app.arrival_story = story
    if board is not None:
        board.update_table(table, removed, story)
        summary = find_screen(app, RoundSummaryScreen)
        if summary is not None and summary.table_screen is board:
            summary.table_changed()  # the next round's countdown comes after the round's end
    if room is not None:
        room.update_table(table, removed)
    if status in IN_GAME and board is None:
        _open_table(app, table, story)
    elif status in IN_ROOM and board is None and room is None and not app.quick_game:
        app.return_to_base()  # close the dialog that led here (new table, code...)
        take_a_seat_screen(app, RoomScreen(table))


def _open_table(app: SkyjoApp, table: dict[str, Any], story: list[Any] | None = None) -> None:
    from .screens.table import TableScreen

    app.arrival_story = None  # told by this board, or of a game before this one
    take_a_seat_screen(app, TableScreen(table, story))


def take_a_seat_screen(app: SkyjoApp, screen: SkyjoScreen[Any]) -> None:
    """Open a table's room or board.

    It takes the place of the room it follows, and of the lobby it was opened
    from: nobody sees the lobby from a table, and a lobby kept underneath would
    hold its list of every public table for as long as the game lasts (memory
    that counts when a server hosts hundreds of sessions). Leaving the table
    opens a fresh lobby (``SkyjoApp.return_to_base``).
    """
    from .screens.lobby import LobbyScreen
    from .screens.room import RoomScreen

    top = app.screen
    if isinstance(top, (LobbyScreen, RoomScreen)):
        screen.stands_for_lobby = isinstance(top, LobbyScreen) or top.stands_for_lobby
        app.switch_screen(screen)
    else:
        app.push_screen(screen)


def _game(app: SkyjoApp, message: dict[str, Any]) -> None:
    from .screens.table import TableScreen

    board = find_screen(app, TableScreen)
    if board is None and app.table is not None:
        _open_table(app, app.table, app.arrival_story)
        board = find_screen(app, TableScreen)
    if board is not None:
        board.feed_game(message)


def _chat(app: SkyjoApp, message: dict[str, Any]) -> None:
    line = _heard(ChatPush.from_wire(message))
    app.chat_lines = [*app.chat_lines[-(CHAT_KEPT - 1) :], line]
    _show_chat(app, [line])


def _show_chat(app: SkyjoApp, lines: list[HeardChat]) -> None:
    """Each screen that shows chat is given ``lines`` (each keeps the scope it shows)."""
    for screen in app.screen_stack:
        handler = getattr(screen, "add_chat", None)
        if handler is not None:
            for line in lines:
                handler(line.scope, line.name, line.text)


def _heard(line: ChatPush) -> HeardChat:
    return HeardChat(line.scope, line.from_name, line.text, float(line.at))


def _lines_heard(said: list[Any]) -> list[HeardChat]:
    """The chat lines told again on arriving (each a ``chat`` push as it was sent); a line
    that is not one is left out, as a push that is not one is (``ServerConnection``)."""
    heard = []
    for line in said:
        try:
            heard.append(_heard(ChatPush.from_wire(line)))
        except ProtocolError:
            continue
    return heard


def _table_chat_so_far(app: SkyjoApp, said: list[Any]) -> None:
    """Arrived at a table (sat down, came to watch, came back after a drop or a restart):
    the server's chat so far replaces the table lines we had. A screen showing the table
    already (back after a drop) is given only the lines said since the last it had."""
    earlier = _lines_heard(said)
    newest = max((line.at for line in app.chat_lines if line.scope == "table"), default=None)
    missed = [line for line in earlier if newest is None or line.at > newest]
    others = [line for line in app.chat_lines if line.scope != "table"]
    app.chat_lines = [*others, *earlier][-CHAT_KEPT:]
    _show_chat(app, missed)


def _lobby_chat(app: SkyjoApp, message: dict[str, Any]) -> None:
    """Arrived in the lobby: its chat so far replaces the lobby lines we had."""
    from .screens.lobby import LobbyScreen

    earlier = _lines_heard(LobbyChatPush.from_wire(message).lines)
    others = [line for line in app.chat_lines if line.scope != "lobby"]
    app.chat_lines = [*others, *earlier][-CHAT_KEPT:]
    lobby = find_screen(app, LobbyScreen)
    if lobby is not None:
        lobby.show_chat()


def _notice(app: SkyjoApp, message: dict[str, Any]) -> None:
    """The server's admin speaks to everyone: shown on whatever screen is up, for a while."""
    app.notify(
        NoticePush.from_wire(message).text,
        title=app.tr("notice.title"),
        severity="warning",
        timeout=NOTICE_SECONDS,
    )


def _left_table(app: SkyjoApp, message: dict[str, Any]) -> None:
    reason = LeftTablePush.from_wire(message).reason
    known = reason in tuple(LeftReason)  # a newer server's other reason: said in general
    why = app.tr(f"left.{reason}") if known else app.tr("left.other")
    app.notify(why)
    app.left_note = why if known else ""  # not our choice: it lasts
    app.table = None
    app.return_to_base()
