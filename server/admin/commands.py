"""What ``skyjo-server admin`` can do to the running server, on its lobby.

Each command takes the request's fields and returns a JSON-able result, or
raises ``AdminError`` with a message for the admin. Names and table names in
results are other people's words: data for the admin's terminal, never
instructions to it (``server.admin.cli`` prints them escaped).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Final

from ..lobby.bans import BanKind
from ..lobby.text import TextError, clean_chat, name_key
from ..protocol import ErrorCode, LeftReason, NoticePush
from ..ssh.naming import IDENTITY_PREFIX

if TYPE_CHECKING:
    from ..app import SkyjoServer
    from ..lobby.session import Session

Result = dict[str, Any]
Command = Callable[["SkyjoServer", dict[str, Any]], Awaitable[Result]]

#: An announcement may be longer than a chat line, not without end.
ANNOUNCE_MAX_LENGTH: Final = 500
KICKED_MESSAGE: Final = "the server's admin disconnected you"
BANNED_MESSAGE: Final = "the server's admin banned you"


class AdminError(Exception):
    """A request the server cannot do; the message says why."""


def _text(request: dict[str, Any], field: str) -> str:
    value = request.get(field)
    if not isinstance(value, str) or not value.strip():
        raise AdminError(f"{field!r} must be a non-empty string")
    return value.strip()


def _online(server: SkyjoServer) -> list[Session]:
    """Every connection that is its player's, named, in the order they came."""
    places = server.lobby.places
    sessions = [
        s for s in server.lobby.sessions if s.welcomed and not s.closed and places.current(s)
    ]
    return sorted(sessions, key=lambda s: s.id)


async def players(server: SkyjoServer, request: dict[str, Any]) -> Result:
    places = server.lobby.places
    listed = []
    for session in _online(server):
        place = places.place_of(session)
        where = (
            "lobby"
            if place is None
            else ("watching " if place.watching else "at ") + place.table.id
        )
        listed.append(
            {
                "name": session.name,
                "player_id": session.player_id,
                "where": where,
                "door": session.door,
                "door_host": session.door_host,  # "": this process's own doors (server.link)
                "identity": session.identity,
                "address": session.address,
            }
        )
    return {"players": listed}


async def tables(server: SkyjoServer, request: dict[str, Any]) -> Result:
    listed = []
    for table in sorted(server.lobby.tables.values(), key=lambda t: t.created):
        seats = table.filled()
        listed.append(
            {
                "table_id": table.id,
                "name": table.name,
                "status": table.status,
                "private": table.private,
                "seats": f"{len(seats)}/{table.capacity}",
                "players": [seat.name for _, seat in seats],
                "watchers": len(table.watchers()),
            }
        )
    return {"tables": listed}


async def announce(server: SkyjoServer, request: dict[str, Any]) -> Result:
    try:
        text = clean_chat(_text(request, "text"), ANNOUNCE_MAX_LENGTH)
    except TextError as exc:
        raise AdminError(f"the announcement is refused: {exc}") from None
    push = NoticePush(text, time.time()).to_wire()
    audience = [s for s in server.lobby.sessions if s.welcomed and not s.closed]
    for session in audience:
        session.send(push)
    return {"sent_to": len(audience)}


def _disconnect(
    server: SkyjoServer, wanted: Callable[[Session], bool], code: ErrorCode, message: str
) -> list[str]:
    """Close every open connection ``wanted`` picks (one still choosing its name too)."""
    gone = []
    for session in sorted(server.lobby.sessions, key=lambda s: s.id):
        if not session.closed and wanted(session):
            gone.append(session.name or "(no name yet)")
            session.close(code, message)  # their seat is kept, as for any dropped player
    return gone


async def kick(server: SkyjoServer, request: dict[str, Any]) -> Result:
    key = name_key(_text(request, "name"))
    gone = _disconnect(
        server,
        lambda s: s.name is not None and name_key(s.name) == key,
        ErrorCode.KICKED,
        KICKED_MESSAGE,
    )
    if not gone:
        raise AdminError(f"nobody called {request['name']!r} is online")
    return {"kicked": gone}


def _ban_target(request: dict[str, Any]) -> tuple[BanKind, str]:
    """``kind`` "key" (an SSH key's ``SHA256:...`` fingerprint) or "name"."""
    kind, value = request.get("kind"), _text(request, "value")
    if kind == "name":
        return BanKind.NAME, value
    if kind == "key":
        fingerprint = value.removeprefix(IDENTITY_PREFIX)
        if not fingerprint.startswith("SHA256:") or len(fingerprint) <= len("SHA256:"):
            raise AdminError(
                f"{value!r} is not a key fingerprint: give SHA256:... "
                "(as `ssh-keygen -lf KEY.pub` shows it, or `admin players` lists it)"
            )
        return BanKind.IDENTITY, IDENTITY_PREFIX + fingerprint
    raise AdminError(f"'kind' must be 'key' or 'name', not {kind!r}")


def _shown(kind: BanKind, value: str) -> str:
    return value.removeprefix(IDENTITY_PREFIX) if kind is BanKind.IDENTITY else value


async def ban(server: SkyjoServer, request: dict[str, Any]) -> Result:
    kind, value = _ban_target(request)
    added = await server.lobby.bans.ban(kind, value)  # stored before anyone is told
    if kind is BanKind.IDENTITY:
        gone = _disconnect(server, lambda s: s.identity == value, ErrorCode.BANNED, BANNED_MESSAGE)
    else:
        key = name_key(value)
        gone = _disconnect(
            server,
            lambda s: s.name is not None and name_key(s.name) == key,
            ErrorCode.KICKED,
            BANNED_MESSAGE,
        )
    return {"banned": _shown(kind, value), "new": added, "disconnected": gone}


async def unban(server: SkyjoServer, request: dict[str, Any]) -> Result:
    kind, value = _ban_target(request)
    if not await server.lobby.bans.unban(kind, value):
        raise AdminError(f"{_shown(kind, value)!r} is not banned")
    return {"unbanned": _shown(kind, value)}


async def bans(server: SkyjoServer, request: dict[str, Any]) -> Result:
    listed = server.lobby.bans.listing()
    kinds = {BanKind.IDENTITY.value: "key", BanKind.NAME.value: "name"}
    return {
        "bans": [
            {"kind": kinds[b["kind"]], "value": b["value"].removeprefix(IDENTITY_PREFIX)}
            for b in listed
        ]
    }


async def close(server: SkyjoServer, request: dict[str, Any]) -> Result:
    table_id = _text(request, "table_id")
    table = server.lobby.tables.get(table_id)
    if table is None:
        raise AdminError(f"no table {table_id!r} (`admin tables` lists them)")
    # As a host closing it: the client says "The table was closed."
    await server.lobby.close_table(table, LeftReason.CLOSED)
    return {"closed": table_id, "name": table.name}


COMMANDS: Final[dict[str, Command]] = {
    "players": players,
    "tables": tables,
    "announce": announce,
    "kick": kick,
    "ban": ban,
    "unban": unban,
    "bans": bans,
    "close": close,
}
