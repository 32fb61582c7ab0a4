"""THE wire protocol between Skyjo clients and the server.

Sans-I/O, like h11: this module knows the message catalogue, the error codes
and the framing, and does no networking. The server (``server.lobby`` via
``server.app``) and the client (``server.netclient``) both use it, so the two
sides cannot drift apart. ``docs/protocol.md`` describes the same thing for
someone writing a client in another language.

Framing: every frame is a 4-byte big-endian body length followed by one
msgpack map (the body). The map always holds ``type``. Because the length comes
first, a body that fails to decode is skipped whole and the stream stays in
step; only a length over the limit ends the connection (the peer could make
us read or buffer without bound otherwise).

Messages are plain maps; ``MESSAGES`` says, per type, who sends it and which
fields it has with their wire types. ``check_message`` validates a decoded map
against it (shapes only: the lobby and the engine check meaning).
"""

from __future__ import annotations

import struct
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields
from enum import Enum, StrEnum
from typing import Any, ClassVar, Final, Self

import msgpack

PROTOCOL_VERSION: Final = 1
#: The door-host link's own version (``door_claim``'s ``version``; docs/protocol.md,
#: "Door hosts"): a lobby refuses a claim of another version, whatever the player's
#: protocol version. Clients never see it.
DOOR_LINK_VERSION: Final = 1
DEFAULT_MAX_FRAME: Final = 64 * 1024
HEADER: Final = struct.Struct(">I")
HEADER_SIZE: Final = HEADER.size
MAX_ERROR_TEXT: Final = 200  # characters of an error's message
#: The longest name a server takes unless its operator set another (the welcome's
#: ``limits.name_max_length``, a ``too_long`` refusal's ``name_max_length``). The client
#: caps its name fields at it before any server has said its own.
DEFAULT_NAME_MAX_LENGTH: Final = 20
#: The longest chat line a server takes unless its operator set another (the welcome's
#: ``limits.chat_max_length``); the client's chat lines hold at most the server's.
DEFAULT_CHAT_MAX_LENGTH: Final = 300


class ErrorCode(str, Enum):
    """Every ``code`` an ``error`` or ``bye`` message can carry."""

    # The frame or message itself (the peer sent garbage).
    BAD_FRAME = "bad_frame"  # the body is not valid msgpack
    FRAME_TOO_LARGE = "frame_too_large"  # fatal: the length is over the limit
    BAD_MESSAGE = "bad_message"  # not a map, or no string "type"
    UNKNOWN_TYPE = "unknown_type"
    BAD_FIELD = "bad_field"  # a field is missing or has the wrong type
    RATE_LIMITED = "rate_limited"  # too many messages per second: this one was dropped
    # The handshake and names.
    VERSION_MISMATCH = "version_mismatch"  # fatal
    HELLO_FIRST = "hello_first"
    ALREADY_WELCOMED = "already_welcomed"
    NAME_REQUIRED = "name_required"  # choose a name with set_name first
    BAD_NAME = "bad_name"
    NAME_TAKEN = "name_taken"
    NAME_RESERVED = "name_reserved"
    BAD_TOKEN = "bad_token"
    BAD_RETURN_CODE = "bad_return_code"  # not that name's return code
    RETURN_CODE_TRIES = "return_code_tries"  # too many tried from this address lately
    # The lobby and tables.
    NOT_FOUND = "not_found"
    TABLE_FULL = "table_full"
    SEAT_TAKEN = "seat_taken"  # the seat asked for is someone else's
    ALREADY_AT_TABLE = "already_at_table"
    NOT_AT_TABLE = "not_at_table"
    NOT_HOST = "not_host"
    NOT_SEATED = "not_seated"
    BAD_SETTINGS = "bad_settings"
    BAD_SEATS = "bad_seats"
    BAD_TIMER = "bad_timer"
    BAD_SEED = "bad_seed"  # a seed is for private tables only
    BAD_LEVEL = "bad_level"
    TOO_MANY_TABLES = "too_many_tables"  # the server hosts as many tables as it may
    TABLES_PER_PLAYER = "tables_per_player"  # you created as many open tables as you may
    TABLES_PER_ADDRESS = "tables_per_address"  # so did your network address
    NOT_ENOUGH_PLAYERS = "not_enough_players"
    NOT_READY = "not_ready"
    WRONG_PHASE = "wrong_phase"
    # Playing.
    ILLEGAL_ACTION = "illegal_action"
    NOT_YOUR_SEAT = "not_your_seat"
    # The coach.
    HINTS_OFF = "hints_off"  # the table's host turned hints off
    NOT_YOUR_TURN = "not_your_turn"  # a hint is for a move you may make now
    # Chat.
    CHAT_TOO_LONG = "chat_too_long"
    BAD_TEXT = "bad_text"
    TOO_MANY_MUTES = "too_many_mutes"
    # Connection-level reasons, mostly in ``bye``.
    SERVER_FULL = "server_full"
    TOO_MANY_FROM_ADDRESS = "too_many_from_address"
    IDLE_TIMEOUT = "idle_timeout"
    SLOW_READER = "slow_reader"
    REPLACED = "replaced"  # the same player connected again elsewhere
    KICKED = "kicked"  # the server's admin disconnected this player
    BANNED = "banned"  # fatal: this identity (SSH key) is banned from the server
    SHUTTING_DOWN = "shutting_down"
    DOOR_REFUSED = "door_refused"  # fatal: a door host's claim failed (wrong secret...)
    INTERNAL = "internal"


class NameReason(str, Enum):
    """Why a name gets ``bad_name``: the error's ``reason`` field."""

    EMPTY = "empty"  # nothing visible once surrounding spaces are removed
    TOO_LONG = "too_long"  # the error's ``name_max_length`` says the limit
    UNPRINTABLE = "unprintable"  # a control, escape, format or private-use character
    SPACES = "spaces"  # two spaces in a row
    BANNED = "banned"  # the server's admin banned this name


class ProtocolError(Exception):
    """A message that breaks the protocol; ``code`` is an ``ErrorCode``, ``details`` more
    fields of the ``error`` saying why (``reason`` of a ``bad_name``...)."""

    def __init__(self, code: ErrorCode, message: str, **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details

    def __reduce__(self) -> tuple[Any, ...]:
        # Its arguments, not its ``args``: a pickled copy (a worker process's error)
        # is made again as it was made (``details`` with the rest of its fields).
        return type(self), (self.code, self.message), self.__dict__


# -- the message catalogue -----------------------------------------------------

# Wire types of fields. "int" is a signed 64-bit whole number (msgpack also
# carries unsigned ones up to 2**64 - 1, which SQLite cannot hold), never a
# bool; "number" is int or float.
STR, INT, BOOL, MAP, LIST, NUMBER = "str", "int", "bool", "map", "list", "number"
INT_MIN, INT_MAX = -(2**63), 2**63 - 1
_CHECKS: Final = {
    STR: lambda v: isinstance(v, str),
    INT: lambda v: type(v) is int and INT_MIN <= v <= INT_MAX,
    BOOL: lambda v: type(v) is bool,
    MAP: lambda v: isinstance(v, dict),
    LIST: lambda v: isinstance(v, list),
    NUMBER: lambda v: type(v) in (int, float),
}


@dataclass(frozen=True, slots=True)
class Field:
    kind: str
    required: bool = True
    nullable: bool = False

    def accepts(self, value: Any) -> bool:
        return (value is None and self.nullable) or _CHECKS[self.kind](value)


def opt(kind: str, nullable: bool = True) -> Field:
    """An optional field (absent or, by default, null)."""
    return Field(kind, required=False, nullable=nullable)


@dataclass(frozen=True, slots=True)
class MessageSpec:
    type: str
    sender: str  # "client" or "server"
    kind: str  # "request", "reply" or "push"
    fields: Mapping[str, Field] = field(default_factory=dict)


def _request(type_: str, **fields: Field) -> MessageSpec:
    return MessageSpec(type_, "client", "request", {"id": opt(INT), **fields})


def _push(type_: str, **fields: Field) -> MessageSpec:
    return MessageSpec(type_, "server", "push", fields)


_CATALOGUE: Final = (
    # Client requests. Each may carry an integer "id"; the reply echoes it as "re".
    _request(
        "hello",
        version=Field(INT),
        name=opt(STR),
        token=opt(STR),
        client=opt(STR),
        return_code=opt(STR),
    ),
    _request("set_name", name=Field(STR), return_code=opt(STR)),
    _request("ping"),
    _request(
        "list_tables",
        offset=opt(INT, nullable=False),
        limit=opt(INT, nullable=False),
        follow=opt(BOOL, nullable=False),
    ),
    _request(
        "create_table",
        name=Field(STR),
        seats=Field(INT),
        settings=opt(MAP),
        private=opt(BOOL),
        turn_timer=opt(INT),
        seat=opt(INT),  # the creator's seat (default 0)
        seed=opt(INT),  # private tables: the deals come from it (comparing bots)
        hints=opt(BOOL),
    ),
    _request("join_table", table_id=opt(STR), code=opt(STR), seat=opt(INT)),
    _request("spectate", table_id=opt(STR), code=opt(STR)),
    _request("leave_table"),
    _request("add_bot", level=Field(STR)),
    _request("remove_bot", seat=Field(INT)),
    _request("kick", seat=Field(INT)),
    _request("start_game"),
    _request("ready", ready=opt(BOOL, nullable=False)),
    _request("act", action=Field(MAP)),
    _request("hint"),  # the coach: the best move of this view (server/lobby/coach.py)
    _request("rematch"),
    _request("chat", text=Field(STR), scope=opt(STR, nullable=False)),
    _request("mute", player_id=Field(INT), muted=opt(BOOL, nullable=False)),
    _request("stats", name=opt(STR)),
    _request("leaderboard", limit=opt(INT)),
    _request("recent_games", limit=opt(INT)),
    # standins: the record's moves a bot chose for a person say so (docs/records.md);
    # without it they do not, as before the mark existed.
    _request("game_record", game_id=Field(INT), standins=opt(BOOL, nullable=False)),
    _request("who", offset=opt(INT, nullable=False), limit=opt(INT, nullable=False)),
    # Door hosts only (server/link; docs/protocol.md, "Door hosts"), before hello: the
    # link over TLS, a nonce, then the claim of a player (or of the link itself)
    # proved with the door secret; the banned keys, for the SSH door's authentication.
    _request("door_tls"),
    _request("door_challenge"),
    _request(
        "door_claim",
        version=Field(INT),
        proof=Field(STR),
        host=Field(STR),
        door=Field(STR),
        identity=Field(STR, nullable=True),
        address=Field(STR),
        link=opt(BOOL, nullable=False),
    ),
    _request("door_bans"),
    # Server replies: "re" is the request's "id" (null when it had none).
    MessageSpec("ok", "server", "reply", {"re": Field(INT, nullable=True)}),
    MessageSpec(
        "error",
        "server",
        "reply",
        {
            "re": Field(INT, nullable=True),
            "code": Field(STR),
            "message": Field(STR),
            # bad_name only: why (a NameReason), and the limit when the name is too long.
            "reason": opt(STR, nullable=False),
            "name_max_length": opt(INT, nullable=False),
        },
    ),
    # Server pushes: sent whenever something changes, never in answer to a request.
    # "removed", in the push of that change only: whom the host removed, and by whom;
    # "chat", to whoever arrives at the table only: its chat so far.
    # "log", to whoever arrives at a table where a game has begun: its story so far.
    _push(
        "table",
        table=Field(MAP),
        removed=opt(MAP, nullable=False),
        chat=opt(LIST, nullable=False),
        log=opt(LIST, nullable=False),
    ),
    _push(
        "game",
        table_id=Field(STR),
        seq=Field(INT),
        events=Field(LIST),
        catch_up=Field(BOOL),
        view=Field(MAP),
        timer=Field(MAP, nullable=True),
        earlier_scores=opt(LIST, nullable=False),  # catch-up only: the earlier rounds' scores
        standin=opt(MAP, nullable=False),  # a bot chose this move for the seat's person
    ),
    _push(
        "game_over",
        table_id=Field(STR),
        game_id=Field(INT, nullable=True),
        names=Field(LIST),
        totals=Field(LIST),
        winners=Field(LIST),
    ),
    # The lobby's list, one page of it: whole ("tables"), or what changed since
    # the page was last sent ("tables_changed", for clients that follow).
    _push("tables", tables=Field(LIST), total=opt(INT, nullable=False)),
    _push(
        "tables_changed",
        offset=Field(INT),
        total=Field(INT),
        order=Field(LIST),
        changed=Field(LIST),
    ),
    _push(
        "chat",
        scope=Field(STR),
        table_id=Field(STR, nullable=True),
        from_id=Field(INT),
        from_name=Field(STR),
        text=Field(STR),
        at=Field(NUMBER),
    ),
    _push("lobby_chat", lines=Field(LIST)),  # on arriving in the lobby: its latest chat
    _push("left_table", table_id=Field(STR), reason=Field(STR)),
    _push("notice", text=Field(STR), at=Field(NUMBER)),  # from the server's admin, to everyone
    _push("who", players=Field(LIST), total=Field(INT), offset=Field(INT)),  # after a who request
    _push("bye", code=Field(STR), message=Field(STR)),
    _push("door_bans", identities=Field(LIST)),  # to a door host's link: the banned keys now
)

#: Every message type, by sender ("client" or "server") then name. A name may be
#: used by both sides ("chat" is a request and a push).
MESSAGES: Final[dict[str, dict[str, MessageSpec]]] = {
    sender: {spec.type: spec for spec in _CATALOGUE if spec.sender == sender}
    for sender in ("client", "server")
}
REQUESTS: Final = frozenset(MESSAGES["client"])
#: The requests of a door host's link, answered by ``server.link.gate`` before hello.
DOOR_REQUESTS: Final = frozenset({"door_tls", "door_challenge", "door_claim", "door_bans"})

#: Scopes of a chat message.
CHAT_LOBBY: Final = "lobby"
CHAT_TABLE: Final = "table"


class TableStatus(StrEnum):
    """A table's ``status``, in ``table`` pushes and table summaries: the one word both
    sides use. A ``StrEnum``: on the wire (and in the stored tables) it is the plain
    string, and a status read off the wire compares equal to its member.

    The server derives it from the table's game (``server.lobby.table.status_of``)."""

    WAITING = "waiting"  # no game yet: players gather, sit down, get ready
    PLAYING = "playing"  # a round is being played
    BETWEEN_ROUNDS = "between_rounds"  # a round is scored; the next is dealt shortly
    FINISHED = "finished"  # the game is over (and stored): a rematch may follow


#: The statuses of a table with a game on: no one sits down (``join_table``: ``wrong_phase``).
IN_GAME: Final = frozenset({TableStatus.PLAYING, TableStatus.BETWEEN_ROUNDS})
#: The statuses where the table is a room (seats change, bots come and go), not a board.
IN_ROOM: Final = frozenset({TableStatus.WAITING, TableStatus.FINISHED})


def check_message(message: Any, sender: str) -> dict[str, Any]:
    """Validate a decoded message sent by ``sender`` ("client" or "server").

    Returns the message; raises ``ProtocolError`` naming the first problem.
    Unknown extra fields are allowed (newer peers may add fields).
    """
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "a message is a map with a string 'type'")
    spec = MESSAGES[sender].get(message["type"])
    if spec is None:
        raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"unknown message type {message['type']!r}")
    for name, rule in spec.fields.items():
        if name not in message:
            if rule.required:
                raise ProtocolError(ErrorCode.BAD_FIELD, f"{spec.type}: missing field {name!r}")
        elif not rule.accepts(message[name]):
            expected = rule.kind + (" or null" if rule.nullable else "")
            raise ProtocolError(
                ErrorCode.BAD_FIELD, f"{spec.type}: field {name!r} must be {expected}"
            )
    return message


# -- typed records: one codec for the messages both sides build and read ----------


@dataclass(frozen=True, slots=True)
class Record:
    """A message as a typed record: its fields are its catalogue entry's (``MESSAGES``), so
    ``to_wire`` and ``from_wire`` are the one codec of that message, for either side.

    An optional field (absent from the message, or null where the catalogue allows it)
    is None in the record; ``to_wire`` leaves out an optional field that is None, and
    sends a required one as null. Maps and lists inside stay as the wire has them.
    """

    TYPE: ClassVar[str]
    SENDER: ClassVar[str]

    def to_wire(self) -> dict[str, Any]:
        message: dict[str, Any] = {"type": self.TYPE}
        for name, required in _layout(type(self)):
            value = getattr(self, name)
            if value is not None or required:
                message[name] = value
        return message

    @classmethod
    def from_wire(cls, message: Mapping[str, Any]) -> Self:
        """The record of a message of this type; raises ``ProtocolError`` naming what
        is missing or of the wrong type (as ``check_message``; unknown fields are left)."""
        checked = check_message(dict(message), cls.SENDER)
        if checked["type"] != cls.TYPE:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE, f"a {cls.TYPE} message, not {checked['type']}"
            )
        return cls(**{item.name: checked.get(item.name) for item in fields(cls)})


#: Each record's fields in order, and whether the catalogue requires each (``_layout``).
_LAYOUTS: dict[type[Record], tuple[tuple[str, bool], ...]] = {}


def _layout(kind: type[Record]) -> tuple[tuple[str, bool], ...]:
    """A record's fields and whether each is required: worked out once per record type
    (a ``game`` push is built for every seat of every move)."""
    layout = _LAYOUTS.get(kind)
    if layout is None:
        spec = MESSAGES[kind.SENDER][kind.TYPE].fields
        layout = _LAYOUTS[kind] = tuple((f.name, spec[f.name].required) for f in fields(kind))
    return layout


@dataclass(frozen=True, slots=True)
class Push(Record):
    SENDER: ClassVar[str] = "server"


@dataclass(frozen=True, slots=True)
class TablePush(Push):
    """How a table looks now (``table``: a map, as docs/protocol.md says); ``removed``: whom
    the host removed in this change; ``chat`` and ``log``: to whoever just arrived only."""

    TYPE: ClassVar[str] = "table"
    table: dict[str, Any]
    removed: dict[str, Any] | None = None
    chat: list[Any] | None = None
    log: list[Any] | None = None


@dataclass(frozen=True, slots=True)
class GamePush(Push):
    """A change of the game (``catch_up``: the round so far, to someone arriving)."""

    TYPE: ClassVar[str] = "game"
    table_id: str
    seq: int
    events: list[Any]
    catch_up: bool
    view: dict[str, Any]
    timer: dict[str, Any] | None
    earlier_scores: list[Any] | None = None
    standin: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class TablesPush(Push):
    """One page of the lobby's list, whole (``total``: how many public tables in all)."""

    TYPE: ClassVar[str] = "tables"
    tables: list[Any]
    total: int | None = None


@dataclass(frozen=True, slots=True)
class TablesChangedPush(Push):
    """What changed in the page of the lobby's list a following client was sent last:
    ``order``, the page's table ids now; ``changed``, the summaries new or changed."""

    TYPE: ClassVar[str] = "tables_changed"
    offset: int
    total: int
    order: list[Any]
    changed: list[Any]


@dataclass(frozen=True, slots=True)
class GameOverPush(Push):
    """The game at ``table_id`` ended (``game_id``: its stored record, once stored)."""

    TYPE: ClassVar[str] = "game_over"
    table_id: str
    game_id: int | None
    names: list[Any]
    totals: list[Any]
    winners: list[Any]


@dataclass(frozen=True, slots=True)
class ChatPush(Push):
    """A chat line, as it was said (also each line of ``lobby_chat`` and of a table's
    ``chat`` so far)."""

    TYPE: ClassVar[str] = "chat"
    scope: str
    table_id: str | None
    from_id: int
    from_name: str
    text: str
    at: float


@dataclass(frozen=True, slots=True)
class LobbyChatPush(Push):
    """On arriving in the lobby: its latest chat, each line a ``chat`` push as it was sent."""

    TYPE: ClassVar[str] = "lobby_chat"
    lines: list[Any]


@dataclass(frozen=True, slots=True)
class WhoPush(Push):
    """A page of who is here, to whoever asked (``who``) while it changes."""

    TYPE: ClassVar[str] = "who"
    players: list[Any]
    total: int
    offset: int


class LeftReason(StrEnum):
    """Why the server took someone from a table (``left_table``'s ``reason``)."""

    KICKED = "kicked"  # the table's host removed them
    CLOSED = "closed"  # the table closed (its host left it empty, or the admin closed it)


@dataclass(frozen=True, slots=True)
class LeftTablePush(Push):
    """The server took you from a table; ``reason``: a ``LeftReason`` (a newer server's
    other word is kept as it came)."""

    TYPE: ClassVar[str] = "left_table"
    table_id: str
    reason: str


@dataclass(frozen=True, slots=True)
class NoticePush(Push):
    """The server's admin says ``text`` to everyone (at unix time ``at``)."""

    TYPE: ClassVar[str] = "notice"
    text: str
    at: float


@dataclass(frozen=True, slots=True)
class ActRequest(Record):
    """The one way to send a move: ``action`` is an entry of the view's
    ``legal_actions`` (``Action.to_dict()``, its ``player`` may be left out)."""

    TYPE: ClassVar[str] = "act"
    SENDER: ClassVar[str] = "client"
    action: dict[str, Any]


# -- building messages ---------------------------------------------------------


def ok(re: int | None, **fields: Any) -> dict[str, Any]:
    return {"type": "ok", "re": re, **fields}


def error(re: int | None, code: ErrorCode, message: str, **details: Any) -> dict[str, Any]:
    """An ``error`` reply; ``details``: its fields beyond the code and message."""
    return {"type": "error", "re": re, "code": code.value, "message": clip(message), **details}


def clip(message: str, limit: int = MAX_ERROR_TEXT) -> str:
    """An error's text stays short even when it quotes what the client sent.

    The middle goes: messages start by saying what is wrong and end by saying
    what is allowed, and a long quote sits in between.
    """
    if len(message) <= limit:
        return message
    head = (limit - 1) // 2
    return message[:head] + "…" + message[-(limit - 1 - head) :]


def bye(code: ErrorCode, message: str) -> dict[str, Any]:
    return {"type": "bye", "code": code.value, "message": message}


# -- framing -------------------------------------------------------------------


def encode_body(message: Mapping[str, Any]) -> bytes:
    return msgpack.packb(message, use_bin_type=True)


def frame(body: bytes) -> bytes:
    """Prefix an encoded body with its length."""
    return HEADER.pack(len(body)) + body


def encode_frame(message: Mapping[str, Any]) -> bytes:
    """One whole frame for ``message``: length, then the msgpack map."""
    return frame(encode_body(message))


def decode_body(body: bytes) -> Any:
    """Decode one frame's body; raises ``ProtocolError(BAD_FRAME)`` on garbage."""
    try:
        return msgpack.unpackb(body, raw=False, strict_map_key=True, use_list=True)
    except Exception as exc:  # noqa: BLE001 - msgpack raises many types for bad input
        detail = str(exc) or type(exc).__name__
        raise ProtocolError(ErrorCode.BAD_FRAME, f"undecodable frame: {detail}") from None


@dataclass(frozen=True, slots=True)
class BadFrame:
    """A frame that could not be decoded. ``fatal``: the stream cannot go on."""

    error: ProtocolError
    fatal: bool


class FrameDecoder:
    """Streaming decoder: ``feed`` bytes as they arrive, then iterate.

    Iteration yields each complete frame's decoded body (any msgpack value:
    pass it to ``check_message``) or a ``BadFrame``. The decoder never buffers
    more than one header plus ``max_frame`` bytes: a header announcing a
    larger body yields a fatal ``BadFrame`` and the decoder stops.
    """

    def __init__(self, max_frame: int = DEFAULT_MAX_FRAME) -> None:
        self.max_frame = max_frame
        self._buffer = bytearray()
        self._failed = False

    @property
    def failed(self) -> bool:
        return self._failed

    def feed(self, data: bytes) -> None:
        if not self._failed:
            self._buffer += data

    def __iter__(self) -> Iterator[Any]:
        while not self._failed and len(self._buffer) >= HEADER_SIZE:
            (length,) = HEADER.unpack_from(self._buffer)
            if length > self.max_frame:
                self._failed = True
                self._buffer.clear()
                message = f"frame of {length} bytes is over the {self.max_frame}-byte limit"
                yield BadFrame(ProtocolError(ErrorCode.FRAME_TOO_LARGE, message), fatal=True)
                return
            end = HEADER_SIZE + length
            if len(self._buffer) < end:
                return
            body = bytes(self._buffer[HEADER_SIZE:end])
            del self._buffer[:end]
            yield _decode_or_bad(body)


def _decode_or_bad(body: bytes) -> Any:
    try:
        return decode_body(body)
    except ProtocolError as exc:
        return BadFrame(exc, fatal=False)
