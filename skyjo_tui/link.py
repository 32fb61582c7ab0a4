"""The client's one link to a server: login, requests, pushes, and reconnecting.

No Textual here: ``ServerLink`` hands everything it hears to a ``notify``
callback (the app turns those into messages). When the connection drops it
reconnects by itself with the player's token, with a growing pause between
attempts, and says so through ``notify`` ("reconnecting...", then online
again). Its tasks are owned and cancelled by ``close``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, Final

from server.limits import TokenBucket
from server.netclient import ConnectionLost, ServerConnection, ServerError, Welcome
from server.printable import printable

logger = logging.getLogger(__name__)

Connector = Callable[[], Awaitable[ServerConnection]]

#: Pauses between reconnection attempts, in seconds (the last one repeats).
BACKOFF: Final[tuple[float, ...]] = (0.2, 0.5, 1.0, 2.0, 4.0)
TIMEOUT: Final = 10.0
#: ``bye`` codes after which coming back would be refused or undo the player's choice.
FINAL_BYE_CODES: Final = frozenset(
    {"replaced", "version_mismatch", "server_full", "too_many_from_address", "kicked", "banned"}
)
#: Codes after which connecting again with our token cannot bring this player back, or
#: would only take their seat from where they are now: the server forgot the token
#: (``bad_token``: another login of theirs replaced it, or the server was reset), or a
#: newer connection of theirs took over (``replaced``; a keyless guest's, or a key's, login
#: gives them a new token, so this one is dead too). Their way back is a new login.
NO_RECONNECT_CODES: Final = frozenset({"replaced", "bad_token", "version_mismatch", "banned"})
#: Login errors that mean "ask the player for a (different) name".
NAME_ERRORS: Final = frozenset(
    {
        "name_required",
        "bad_name",
        "name_taken",
        "name_reserved",
        "bad_return_code",
        "return_code_tries",
    }
)
#: The share of the server's rate (its welcome's ``messages_per_second`` and
#: ``message_burst``) that requests are paced to: under it, whatever the clocks do.
RATE_SHARE: Final = 0.8
#: Pushes that hold no words to show, only numbers and the protocol's own names (a move's
#: events and views, which the engine parses): the one push of every move, passed as it is
#: (but its ``standin``, a bot's level, which ``screens.table.standin_of`` makes printable).
#: Every other push and reply is shown through ``printable``: a server, or the player
#: behind a name it let through, may send what a terminal would obey.
NUMBERS_ONLY: Final = frozenset({"game"})


class Link(str, Enum):
    ONLINE = "online"
    RECONNECTING = "reconnecting"
    OFFLINE = "offline"  # given up, or never connected: ``reason`` says why


@dataclass(frozen=True, slots=True)
class LinkChanged:
    link: Link
    reason: str = ""
    code: str | None = None
    attempt: int = 0
    resumed: bool = False


@dataclass(frozen=True, slots=True)
class Pushed:
    message: dict[str, Any]


class NameNeeded(Exception):
    """The server wants a (different) name; ``message`` says why ("" for none yet), and
    ``details`` the error's other fields (a ``bad_name``'s ``reason``, ``name_max_length``)."""

    def __init__(self, message: str, code: str, details: Mapping[str, Any] | None = None) -> None:
        super().__init__(message or code)
        self.message, self.code = message, code
        self.details: Mapping[str, Any] = details or {}

    def __reduce__(self) -> tuple[Any, ...]:
        # Its arguments, not its ``args`` (the message alone): a pickled copy is made again.
        return type(self), (self.message, self.code, dict(self.details))


class ServerLink:
    def __init__(self, connect: Connector, notify: Callable[[object], None]) -> None:
        self._connect = connect
        self._notify = notify
        self._conn: ServerConnection | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False
        self.welcome: Welcome | None = None
        self.link = Link.OFFLINE
        self._pace: TokenBucket | None = None  # the server's rate, from its welcome

    @property
    def token(self) -> str | None:
        return self.welcome.token if self.welcome else None

    @property
    def player_id(self) -> int | None:
        return self.welcome.player_id if self.welcome else None

    @property
    def server_name(self) -> str:
        """The server's own name and version, from its welcome."""
        return self.welcome.server if self.welcome else ""

    @property
    def bot_levels(self) -> tuple[str, ...]:
        """The bot levels the server offers, weakest first."""
        return self.welcome.bot_levels if self.welcome else ()

    # -- logging in ----------------------------------------------------------------

    async def login(self, *, name: str | None = None, token: str | None = None) -> Welcome:
        """Connect and say hello: with ``token`` while it still works, else with ``name``.

        Without either, a trusted connection (SSH) may be known by its
        identity; raises ``NameNeeded`` when a name must be chosen first.
        """
        if token:
            try:
                return await self._open(token=token)
            except ServerError as exc:
                if exc.code != "bad_token":
                    raise
        return await self._open(name=name)

    async def choose_name(self, name: str, return_code: str | None = None) -> Welcome:
        """Answer ``NameNeeded``: on the same connection when the server waits for it.
        With the ``return_code`` a table showed: back as that name's player, to their seat."""
        conn = self._conn
        if conn is not None and not conn.closed and self.welcome and self.welcome.needs_name:
            try:
                welcome = await conn.set_name(name, return_code=return_code, timeout=TIMEOUT)
            except ServerError as exc:
                raise _name_needed(exc) from None
            return self._welcomed(conn, welcome)
        return await self._open(name=name, return_code=return_code)

    async def rename(self, name: str) -> Welcome:
        """The same player under another name (``set_name``, away from any table): their
        id, statistics and games stay theirs. Raises ``NameNeeded`` when it is refused."""
        conn = self._conn
        if conn is None or conn.closed or self.link is not Link.ONLINE:
            raise ConnectionLost("not connected")
        try:
            welcome = await conn.set_name(name, timeout=TIMEOUT)
        except ServerError as exc:
            if exc.code in NAME_ERRORS:
                raise _name_needed(exc) from None
            raise
        self.welcome = _shown(welcome)
        return self.welcome

    async def _open(
        self, *, name: str | None = None, token: str | None = None, return_code: str | None = None
    ) -> Welcome:
        await self._drop_connection()
        # Not wait_for: on Python 3.11 it drops a cancellation that comes with the
        # connection, and a cancelled login (the app quitting) would log in anyway.
        async with asyncio.timeout(TIMEOUT):
            conn = await self._connect()
        try:
            # The connection pings the server from now on and notices a dead link.
            welcome = await conn.hello(
                name=name, token=token, return_code=return_code, timeout=TIMEOUT
            )
        except BaseException as exc:
            await conn.close()
            if isinstance(exc, ServerError) and exc.code in NAME_ERRORS:
                raise _name_needed(exc) from None
            raise
        self._welcomed(conn, welcome)
        if welcome.needs_name:
            raise NameNeeded("", "name_required")
        return welcome

    def _welcomed(self, conn: ServerConnection, welcome: Welcome) -> Welcome:
        welcome = _shown(welcome)
        self._conn = conn
        self.welcome = welcome
        self._pace = _pace_of(welcome.limits)
        if not welcome.needs_name:
            self._set_link(LinkChanged(Link.ONLINE, resumed=welcome.resumed))
            self._spawn(self._pump(conn))
        return welcome

    # -- requests ------------------------------------------------------------------

    async def request(self, message: dict[str, Any], *, timeout: float = TIMEOUT) -> dict[str, Any]:
        """Send a request; raises ``ServerError``, or ``ConnectionLost`` while offline."""
        conn = self._conn
        if conn is None or conn.closed or self.link is not Link.ONLINE:
            raise ConnectionLost("not connected")
        if self._pace is not None:
            # Never faster than the server takes: past its rate it refuses requests, and
            # ends a connection that goes on (a held key, keys faster than its answers).
            wait = self._pace.spend(1)
            if wait > 0:
                await asyncio.sleep(wait)
        return printable(await conn.request(message, timeout=timeout))

    # -- pushes and reconnecting -----------------------------------------------------

    async def _pump(self, conn: ServerConnection) -> None:
        try:
            async for message in conn.pushes():
                kind = message.get("type")
                if kind in NUMBERS_ONLY:
                    self._notify(Pushed(message))
                elif kind != "bye":
                    self._notify(Pushed(printable(message)))
        except ConnectionLost as lost:
            if not self._closed and conn is self._conn:
                await self._reconnect(lost)

    async def reconnect(self) -> None:
        """Offline for good (see ``FINAL_BYE_CODES``), the player asks to connect again:
        tried as after a drop, until it works or the server refuses (said as ``OFFLINE``)."""
        if self.link is Link.OFFLINE and not self._closed:
            await self._reconnect(ConnectionLost("connecting again"))

    async def _reconnect(self, lost: ConnectionLost) -> None:
        if lost.code in FINAL_BYE_CODES or self.token is None:
            self._set_link(LinkChanged(Link.OFFLINE, lost.message, lost.code))
            return
        for attempt in range(1, 1_000_000):
            self._set_link(LinkChanged(Link.RECONNECTING, lost.message, lost.code, attempt))
            await asyncio.sleep(BACKOFF[min(attempt, len(BACKOFF)) - 1])
            try:
                await self._open(token=self.token)
                return
            except ServerError as exc:
                self._set_link(LinkChanged(Link.OFFLINE, exc.message, exc.code))
                return
            except (OSError, TimeoutError, ConnectionLost, NameNeeded) as exc:
                logger.info("reconnection attempt %d failed: %s", attempt, exc)
            except Exception as exc:  # e.g. a local server that cannot start again
                # Not a passing network trouble: say so rather than retry (or die) in silence.
                logger.warning("reconnecting failed", exc_info=True)
                self._set_link(LinkChanged(Link.OFFLINE, str(exc) or type(exc).__name__))
                return

    def _set_link(self, change: LinkChanged) -> None:
        change = replace(change, reason=printable(change.reason))  # the server's words, maybe
        self.link = change.link
        self._notify(change)

    # -- closing ----------------------------------------------------------------------

    def _spawn(self, coro: Awaitable[None]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _drop_connection(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            await conn.close()

    async def close(self) -> None:
        """Leave: cancel every task and close the connection (the seat is kept)."""
        self._closed = True
        current = asyncio.current_task()
        tasks = [t for t in self._tasks if t is not current]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self._drop_connection()
        self.link = Link.OFFLINE


def _pace_of(limits: Mapping[str, Any]) -> TokenBucket | None:
    """A bucket a little under the server's rate of requests (None: it says none)."""
    rate, burst = limits.get("messages_per_second"), limits.get("message_burst")
    numbers = (int, float)
    if not isinstance(rate, numbers) or not isinstance(burst, numbers) or rate <= 0 or burst < 2:
        return None
    return TokenBucket(rate * RATE_SHARE, burst * RATE_SHARE)


def _name_needed(exc: ServerError) -> NameNeeded:
    return NameNeeded(exc.message, exc.code, exc.details)


def _shown(welcome: Welcome) -> Welcome:
    """The welcome with the words it holds made safe to show (see ``NUMBERS_ONLY``)."""
    return replace(
        welcome,
        name=printable(welcome.name),
        server=printable(welcome.server),
        return_code=printable(welcome.return_code),
    )
