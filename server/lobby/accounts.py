"""Who is who: the hello handshake, names, resume tokens, SSH identities, statistics."""

from __future__ import annotations

import asyncio
import secrets
from typing import TYPE_CHECKING, Any, Protocol

from ..bots import BOT_LEVELS
from ..engine import MAX_PLAYERS, MIN_PLAYERS, OPTIONS
from ..engine.records import without_standins
from ..protocol import PROTOCOL_VERSION, ErrorCode, NameReason, ProtocolError
from ..store import PlayerRow
from ..version import installed_version
from .guests import new_return_code, normal_return_code
from .needs import Limited, Seated, Storing
from .session import LOCAL
from .text import TextError, TextTooLong, clean_name, name_key

if TYPE_CHECKING:
    from .bans import Bans
    from .guests import ReturnTries
    from .session import Session

Reply = dict[str, Any]
LIST_LIMIT = 100


class Accounts(Seated, Limited, Storing, Protocol):
    """What the requests about who is who need of the lobby: the players' store, who is
    online and where, the bans, the limits, and the one connection of each player."""

    @property
    def bans(self) -> Bans: ...

    @property
    def return_tries(self) -> ReturnTries: ...

    @property
    def names_lock(self) -> asyncio.Lock: ...

    def go_offline(self, session: Session) -> None: ...

    async def come_online(self, session: Session) -> bool: ...


SERVER_NAME = " ".join(filter(None, ["skyjo-server", installed_version()]))


def new_token() -> str:
    return secrets.token_urlsafe(24)


async def hello(lobby: Accounts, session: Session, message: dict[str, Any]) -> Reply:
    if message["version"] != PROTOCOL_VERSION:
        raise ProtocolError(
            ErrorCode.VERSION_MISMATCH,
            f"this server speaks protocol version {PROTOCOL_VERSION}, "
            f"the client version {message['version']}: please update",
        )
    if lobby.bans.identity_banned(session.identity):
        raise ProtocolError(ErrorCode.BANNED, "this key is banned from this server")
    token, name = message.get("token"), message.get("name")
    if token is not None:
        player = await lobby.store.player_by_token(token)
        if player is None:
            raise ProtocolError(ErrorCode.BAD_TOKEN, "this token is unknown: choose a name")
        welcome = await login(lobby, session, player, token)
    elif name is not None:
        welcome = await _claim(lobby, session, name, message.get("return_code"))
    else:
        welcome = await _nameless_login(lobby, session)
    session.welcomed = True  # no await from here to the reply: it is the first message
    return welcome


async def _nameless_login(lobby: Accounts, session: Session) -> Reply:
    """No name, no token: the player a trusted identity last was, else "choose a name".

    Everyone without a name is asked for one the same way (``needs_name``):
    a guest, a TCP client, or a key that has not chosen one yet.
    """
    player = None
    if session.identity is not None:
        player = await lobby.store.player_by_identity(session.identity)
    if player is None:
        return welcome_reply(lobby, session, token=None)
    return await _owner_login(lobby, session, player)


async def _owner_login(lobby: Accounts, session: Session, player: PlayerRow) -> Reply:
    """The identity that owns ``player`` logs in as them: back to their seat,
    replacing a connection of theirs still open elsewhere."""
    assert session.identity is not None
    token = new_token()
    await lobby.store.new_token(player.id, token)
    await lobby.store.remember_identity(session.identity, player.id)
    return await login(lobby, session, player, token)


async def set_name(lobby: Accounts, session: Session, message: dict[str, Any]) -> Reply:
    if (
        lobby.places.table_of(session) is not None
    ):  # seated or watching: the table knows you by this name
        raise ProtocolError(ErrorCode.WRONG_PHASE, "leave your table to change your name")
    return await _claim(lobby, session, message["name"], message.get("return_code"))


async def _claim(
    lobby: Accounts, session: Session, raw_name: str, return_code: str | None = None
) -> Reply:
    """Become the player called ``raw_name`` (new, or a free existing one); with the
    ``return_code`` their table showed them: that player, wherever they are."""
    try:
        name = clean_name(raw_name, lobby.limits.name_max_length)
    except TextError as exc:
        details = {"name_max_length": exc.max_length} if isinstance(exc, TextTooLong) else {}
        raise ProtocolError(
            ErrorCode.BAD_NAME, str(exc), reason=exc.reason.value, **details
        ) from None
    _check_not_banned(lobby, name)
    key = name_key(name)
    if return_code is not None:
        return await _come_back(lobby, session, name, key, return_code)
    async with lobby.names_lock:  # two people may not claim one new name at once
        existing = await lobby.store.player_by_name_key(key)
        if existing is not None and _owns(session, existing) and existing.id != session.player_id:
            # The owner of a name gets it back however they come in (``ssh bob@host``
            # as well as ``ssh skyjo@host``): their seat, as it is, under its name.
            if session.player_id is not None:
                lobby.go_offline(session)
            return await _owner_login(lobby, session, existing)
        if existing is not None:
            _check_free(lobby, session, existing)
        token = new_token()
        player = await lobby.store.claim_name(session.player_id, name, key, token, session.identity)
    if session.player_id is not None and session.player_id != player.id:
        lobby.go_offline(session)
    return await login(lobby, session, player, token)


async def _come_back(
    lobby: Accounts, session: Session, name: str, key: str, typed_code: str
) -> Reply:
    """A guest with no key comes back as ``name`` with its return code (``guests``):
    to their seat as it is, replacing a connection of theirs still open elsewhere."""
    if not lobby.return_tries.take(session.address):
        raise ProtocolError(
            ErrorCode.RETURN_CODE_TRIES,
            "too many return codes were tried from your address: try again in a minute",
        )
    code = normal_return_code(typed_code)
    player = await lobby.store.player_by_name_key(key)
    if code is None or player is None or not await lobby.store.return_code_matches(player.id, code):
        # The same words whether the name exists or not: a code says nothing of a name.
        raise ProtocolError(ErrorCode.BAD_RETURN_CODE, f"that is not {name!r}'s return code")
    if session.player_id is not None and session.player_id != player.id:
        lobby.go_offline(session)
    token = new_token()
    await lobby.store.new_token(player.id, token)
    return await login(lobby, session, player, token, return_code=code)


def _owns(session: Session, player: PlayerRow) -> bool:
    """``session`` carries the identity that reserved ``player``'s name."""
    return session.identity is not None and player.reserved_by == session.identity


def _check_free(lobby: Accounts, session: Session, player: PlayerRow) -> None:
    if player.reserved_by is not None and player.reserved_by != session.identity:
        raise ProtocolError(ErrorCode.NAME_RESERVED, f"{player.name!r} is reserved by its owner")
    if player.id == session.player_id:
        return
    if lobby.places.is_online(player.id):
        raise ProtocolError(ErrorCode.NAME_TAKEN, f"{player.name!r} is playing now")
    place = lobby.places.where(player.id)
    if place is not None and not place.watching:
        raise ProtocolError(ErrorCode.NAME_TAKEN, f"{player.name!r} is keeping a seat at a table")


def _check_not_banned(lobby: Accounts, name: str) -> None:
    if lobby.bans.name_banned(name):
        raise ProtocolError(
            ErrorCode.BAD_NAME,
            f"{name!r} is banned on this server: choose another",
            reason=NameReason.BANNED.value,
        )


async def login(
    lobby: Accounts,
    session: Session,
    player: PlayerRow,
    token: str,
    *,
    return_code: str | None = None,
) -> Reply:
    """``session`` is now ``player``: replace an older connection, return to the seat.

    A guest without a key is given a new return code (``guests``), unless they came
    back with one (``return_code``): it stays theirs, as they noted it.
    """
    _check_not_banned(lobby, player.name)  # with its token or its owner's key: banned all the same
    if not await lobby.store.touch_player(player.id):
        # Forgotten (an unused guest, see guests.py) since it was looked up.
        raise ProtocolError(ErrorCode.BAD_TOKEN, "this token is unknown: choose a name")
    if not _needs_return_code(session, player):
        return_code = None
    elif return_code is None:
        return_code = new_return_code()
        await lobby.store.set_return_code(player.id, return_code)
    session.muted = await lobby.store.mutes_of(player.id)
    session.player_id, session.name = player.id, player.name
    resumed = await lobby.come_online(session)
    return welcome_reply(lobby, session, token, resumed=resumed, return_code=return_code)


def _needs_return_code(session: Session, player: PlayerRow) -> bool:
    """Nothing else would bring ``player`` back through this connection's door: no key
    owns the name, and it is not the local game (whose server keeps its token)."""
    return session.identity is None and player.reserved_by is None and session.door != LOCAL


def welcome_reply(
    lobby: Accounts,
    session: Session,
    token: str | None,
    *,
    resumed: bool = False,
    return_code: str | None = None,
) -> Reply:
    table = lobby.places.table_of(session)
    return {
        "player_id": session.player_id,
        "name": session.name,
        "token": token,
        "return_code": return_code,
        "needs_name": session.player_id is None,
        "resumed": resumed,
        "table_id": None if table is None else table.id,
        "server": SERVER_NAME,
        "bot_levels": list(BOT_LEVELS),
        "settings": dict(OPTIONS),
        "limits": {
            **lobby.limits.to_wire(),
            "min_seats": MIN_PLAYERS,
            "max_seats": MAX_PLAYERS,
        },
    }


# -- statistics ----------------------------------------------------------------------


def _limit(message: dict[str, Any]) -> int:
    limit = message.get("limit")
    if limit is None:
        return 20
    if not 1 <= limit <= LIST_LIMIT:
        raise ProtocolError(ErrorCode.BAD_FIELD, f"limit must be 1..{LIST_LIMIT}")
    return int(limit)


async def stats(lobby: Accounts, session: Session, message: dict[str, Any]) -> Reply:
    name = message.get("name")
    if name is None:
        assert session.player_id is not None
        return {"stats": await lobby.store.stats(session.player_id)}
    player = await lobby.store.player_by_name_key(name_key(name))
    if player is None:
        raise ProtocolError(ErrorCode.NOT_FOUND, f"no player is called {name!r}")
    return {"stats": await lobby.store.stats(player.id)}


async def leaderboard(lobby: Accounts, session: Session, message: dict[str, Any]) -> Reply:
    entries = await lobby.store.leaderboard(_limit(message))
    return {"entries": entries, "bots": lobby.store.bot_ratings()}


async def recent_games(lobby: Accounts, session: Session, message: dict[str, Any]) -> Reply:
    assert session.player_id is not None
    return {"games": await lobby.store.recent_games(_limit(message), session.player_id)}


async def game_record(lobby: Accounts, session: Session, message: dict[str, Any]) -> Reply:
    # A private table's game is for those who were there: to anyone else it does not exist.
    assert session.player_id is not None
    stored = await lobby.store.game_record(message["game_id"], session.player_id)
    if stored is None:
        raise ProtocolError(ErrorCode.NOT_FOUND, "no such game")
    record, seeded = stored
    if not message.get("standins", False):  # a client from before stand-ins were marked
        record = without_standins(record)
    return {"record": record, "seeded": seeded}


async def ping(lobby: Accounts, session: Session, message: dict[str, Any]) -> Reply:
    return {}


HANDLERS = {
    "hello": hello,
    "set_name": set_name,
    "ping": ping,
    "stats": stats,
    "leaderboard": leaderboard,
    "recent_games": recent_games,
    "game_record": game_record,
}
