"""Chat in the lobby and at each table, with limits and mutes."""

from __future__ import annotations

import time
from collections import deque
from typing import TYPE_CHECKING, Any, Protocol

from ..protocol import CHAT_LOBBY, CHAT_TABLE, ChatPush, ErrorCode, LobbyChatPush, ProtocolError
from .needs import Limited, Seated, Storing
from .table import CHAT_HISTORY
from .text import TextError, TextTooLong, clean_chat

if TYPE_CHECKING:
    from .session import Session

Reply = dict[str, Any]
#: Lobby chat lines kept (in the store, across restarts), and sent to whoever
#: arrives in the lobby.
LOBBY_HISTORY = 30


class Chatting(Seated, Limited, Storing, Protocol):
    """What chat needs of the lobby: where the speaker is, the limits, the store, and the
    lobby's chat so far."""

    @property
    def lobby_chat(self) -> deque[dict[str, Any]]: ...


async def chat(lobby: Chatting, session: Session, message: dict[str, Any]) -> Reply:
    at_table = lobby.places.table_of(session)
    scope = message.get("scope") or (CHAT_TABLE if at_table is not None else CHAT_LOBBY)
    if scope not in (CHAT_LOBBY, CHAT_TABLE):
        raise ProtocolError(ErrorCode.BAD_FIELD, "scope is 'lobby' or 'table'")
    if scope == CHAT_TABLE and at_table is None:
        raise ProtocolError(ErrorCode.NOT_AT_TABLE, "you are not at a table")
    max_length = lobby.limits.chat_max_length
    if len(message["text"]) > max_length * 4:  # refuse huge text before normalising it
        raise ProtocolError(ErrorCode.CHAT_TOO_LONG, f"at most {max_length} characters")
    try:
        text = clean_chat(message["text"], max_length)
    except TextTooLong as exc:
        raise ProtocolError(ErrorCode.CHAT_TOO_LONG, str(exc)) from None
    except TextError as exc:
        raise ProtocolError(ErrorCode.BAD_TEXT, str(exc)) from None
    if not session.chat.take():
        raise ProtocolError(ErrorCode.RATE_LIMITED, "you are chatting too fast: wait a little")
    table = at_table if scope == CHAT_TABLE else None
    assert session.player_id is not None and session.name is not None  # named: a player
    push = ChatPush(
        scope=scope,
        table_id=None if table is None else table.id,
        from_id=session.player_id,
        from_name=session.name,
        text=text,
        at=time.time(),
    ).to_wire()
    # Stored before anyone hears it: a line someone read survives a restart, and is told
    # again to whoever arrives (the lobby's to the lobby, a table's to that table).
    if table is None:
        await lobby.store.add_lobby_chat(push, LOBBY_HISTORY)
        lobby.lobby_chat.append(push)
    else:
        await lobby.store.add_table_chat(table.id, push, CHAT_HISTORY)
        table.chat.append(push)
        table.story.said(push)
    audience = table.sessions() if table is not None else list(lobby.places.lobby_sessions())
    for listener in audience:
        if session.player_id not in listener.muted:
            listener.send(push)
    return {}


async def load_lobby_history(lobby: Chatting) -> None:
    """Bring back the lobby chat so far (after a restart or a crash)."""
    lobby.lobby_chat.extend(await lobby.store.lobby_chat(LOBBY_HISTORY))


def lobby_history(lobby: Chatting, session: Session) -> dict[str, Any]:
    """The ``lobby_chat`` push for ``session``: the latest lobby chat, but what it muted."""
    lines = [line for line in lobby.lobby_chat if line["from_id"] not in session.muted]
    return LobbyChatPush(lines).to_wire()


async def mute(lobby: Chatting, session: Session, message: dict[str, Any]) -> Reply:
    assert session.player_id is not None
    target, muted = message["player_id"], message.get("muted", True)
    if target == session.player_id:
        raise ProtocolError(ErrorCode.BAD_FIELD, "you cannot mute yourself")
    if muted and target not in session.muted:
        # Every mute is stored: only real players, and not without end.
        most = lobby.limits.max_mutes
        if len(session.muted) >= most:
            raise ProtocolError(ErrorCode.TOO_MANY_MUTES, f"you may mute at most {most} players")
        if await lobby.store.player_by_id(target) is None:
            raise ProtocolError(ErrorCode.NOT_FOUND, "no such player")
    await lobby.store.set_mute(session.player_id, target, muted)
    if muted:
        session.muted.add(target)
    else:
        session.muted.discard(target)
    return {"muted": sorted(session.muted)}


HANDLERS = {"chat": chat, "mute": mute}
