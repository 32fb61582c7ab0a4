"""The browser door: an aiohttp server with the page, its assets and the game's WebSocket.

- ``GET /``: the page (``static/index.html``); it gives the browser its
  ``skyjo_id`` cookie, the secret that makes it the same player next time.
- ``GET /static/...``: xterm.js and its stylesheet and font, as the
  ``textual-serve`` package ships them (nothing is copied here); ``/door.js``
  and ``/door.css``: this door's own (reconnecting, font size).
- ``GET /healthz``: 200 while the server takes players (the page polls it to
  come back after the server went away).
- ``GET /ws``: the WebSocket of textual.js's protocol (docs/web.md): checked
  (Origin, caps) before the upgrade, then one terminal on the shared host.

Every response carries a strict Content-Security-Policy.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import logging
import re
import socket
from importlib import resources
from pathlib import Path
from typing import Any, Final

from aiohttp import WebSocketError, WSCloseCode, WSMsgType, web

from skyjo_tui.webpage import IN_PAGE_ENV, PAGE_ENV, TABLE_CODE, TABLE_ENV, TOUCH_ENV

from ..doors.game import InProcessServer, skyjo_app_factory
from ..doors.host import GameHost, HostOptions
from ..limits import ConnectionRegistry, Refusal
from ..listen import describe_listening, dual_stack_socket, peer_host
from ..termhost.hosted import DoorPlayer, HostedSession, SessionStart
from ..termhost.options import INPUT_SLICE
from .address import for_other_machines
from .options import WebOptions, web_options_from_args
from .pending import GuardedProtocol, PendingConnections
from .policy import (
    COOKIE_MAX_AGE,
    COOKIE_NAME,
    TERM_TYPE,
    ClientPlace,
    identity_of,
    is_trusted_proxy,
    new_cookie_value,
    origin_allowed,
    resolve_client,
    terminal_environment,
    terminal_size,
    valid_cookie,
)
from .strangers import HttpErrorLog, RefusalLog
from .transport import CLOSE_GOING_AWAY, CLOSE_POLICY, CLOSE_TRY_LATER, WebSocketTransport

logger = logging.getLogger(__name__)

OWN_STATIC: Final = Path(__file__).with_name("static")
#: What the page loads from textual-serve's static directory, by URL under /static/.
TERMINAL_ASSETS: Final = {
    "js/textual.js": "application/javascript",
    "css/xterm.css": "text/css",
    "fonts/RobotoMono-VariableFont_wght.ttf": "font/ttf",
}
OWN_ASSETS: Final = {
    "door.js": "application/javascript",
    "door.css": "text/css",
    # "Add to Home screen": a full-screen Skyjo with its icon.
    "manifest.webmanifest": "application/manifest+json",
    "icon.svg": "image/svg+xml",
    "icon-192.png": "image/png",
    "icon-512.png": "image/png",
}
CONTENT_SECURITY_POLICY: Final = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        # xterm.js and textual.js's style loader add <style> elements and style attributes.
        "style-src 'self' 'unsafe-inline'",
        "font-src 'self'",
        "img-src 'self' data:",
        "manifest-src 'self'",
        "connect-src 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "form-action 'none'",
    )
)
SECURITY_HEADERS: Final = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}
_PLAIN_HOST: Final = re.compile(r"(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?")
STOP_TIMEOUT: Final = 5.0
CLOSE_BAD_DATA: Final = 1007
"""A message the door cannot read (JSON nested too deep to decode)."""


def terminal_assets_dir() -> Path:
    """textual-serve's static directory, where the installed package has it."""
    return Path(str(resources.files("textual_serve") / "static"))


OPENED_ELSEWHERE: Final = "This game was opened in another tab or window: it goes on there."
"""Said to a player's page when the same player opens the game again (close 1008)."""


class _Connection:
    """One open game WebSocket: what ``stop`` needs to send it away."""

    def __init__(self, identity: str | None) -> None:
        self.identity = identity
        """The player (None: a guest), whose newer connection replaces this one."""
        self.transport: WebSocketTransport | None = None
        self.session: HostedSession | None = None


class WebFrontDoor:
    """The browser way in, as a ``server.app.FrontDoor``: ``start(server)``, ``stop()``.

    Its players' apps run on ``host``, the ``GameHost`` shared with the other
    doors (attached to the server before this door); without one, the door
    runs a host of its own, in-process (tests, tools).
    """

    def __init__(self, options: WebOptions, *, host: GameHost | None = None) -> None:
        self.options = options
        self._own_host = host is None
        self.game_host = host or GameHost(
            HostOptions(limits=options.limits, gc_policy=None),
            game_app_factory=functools.partial(skyjo_app_factory, **options.app_options),
        )
        self.connections: ConnectionRegistry[_Connection] = ConnectionRegistry(
            options.max_connections, options.max_connections_per_address
        )
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.Server | None = None
        self._host: str | None = None
        """The address listened on (None: every interface), once bound."""
        self._closing = False
        self.bad_requests = RefusalLog(logger, "bad HTTP requests answered 400")
        # A stranger can do each of these again and again: a line each at INFO, and one
        # counted WARNING a minute at most a kind.
        self.too_deep = RefusalLog(
            logger, "web connections closed (1007) for a message nested too deep to read"
        )
        self.bad_messages = RefusalLog(logger, "web connections closed (1008) for bad messages")
        self.foreign_origins = RefusalLog(logger, "web connections refused (403): foreign origin")
        self.over_caps = RefusalLog(logger, "web connections refused (1013): over a cap")
        self.non_readers = RefusalLog(
            logger, "web connections dropped: no answer to a ping (they do not read)"
        )
        self.pending = PendingConnections(
            options.max_pending,
            options.max_pending_per_address,
            RefusalLog(logger, "web connections closed before their request (over a cap)"),
            uncapped=functools.partial(is_trusted_proxy, trusted=options.trusted_proxies),
        )
        self._assets = terminal_assets_dir()
        self._page = (OWN_STATIC / "index.html").read_bytes()

    @property
    def port(self) -> int:
        """The port listened on (the real one when configured as 0)."""
        sockets = self.sockets
        return sockets[0].getsockname()[1] if sockets else self.options.port

    @property
    def sockets(self) -> list[socket.socket]:
        return list(self._listener.sockets) if self._listener is not None else []

    async def bind(self, server: InProcessServer) -> None:
        """Bind the port (nobody can connect yet); raises ``OSError`` when it is
        unusable or the browser terminal's files are missing."""
        if self._listener is not None:
            return
        for name in TERMINAL_ASSETS:
            if not (self._assets / name).is_file():
                raise OSError(
                    f"the browser terminal is missing: {self._assets / name} "
                    "(is textual-serve installed?)"
                )
        app = web.Application(client_max_size=4096)
        app.on_response_prepare.append(_secure_headers)
        app.router.add_get("/", self._page_handler)
        # A table's link: the same page, which opens that table (door.js).
        app.router.add_get("/t/{code:[A-Za-z]{6}}", self._page_handler)
        app.router.add_get("/healthz", self._health)
        app.router.add_get("/ws", self._websocket)
        for name, kind in TERMINAL_ASSETS.items():
            app.router.add_get(f"/static/{name}", _file(self._assets / name, kind))
        for name, kind in OWN_ASSETS.items():
            app.router.add_get(f"/{name}", _file(OWN_STATIC / name, kind))
        options = self.options
        runner = web.AppRunner(
            app,
            handle_signals=False,
            access_log=None,
            # A request aiohttp cannot parse is a stranger's: counted, no traceback.
            logger=HttpErrorLog(logging.getLogger("aiohttp.server"), self.bad_requests),
            # aiohttp arms this when a connection opens and does not push it
            # back for bytes that arrive: a request (a WebSocket upgrade
            # included) must be complete by then, slow headers or not.
            keepalive_timeout=options.handshake_timeout,
            shutdown_timeout=STOP_TIMEOUT,
        )
        await runner.setup()
        host = options.host if options.host is not None else server.config.host
        host = host or None
        loop = asyncio.get_running_loop()
        make_handler = runner.server
        assert make_handler is not None  # set by runner.setup()
        pending = self.pending

        def protocol_factory() -> GuardedProtocol:
            return GuardedProtocol(make_handler, pending)

        sock = None
        try:
            sock = dual_stack_socket(host, options.port)
            if sock is not None:
                self._listener = await loop.create_server(
                    protocol_factory, sock=sock, start_serving=False
                )
            else:
                self._listener = await loop.create_server(
                    protocol_factory, host, options.port, reuse_address=True, start_serving=False
                )
        except BaseException:
            if sock is not None and self._listener is None:
                sock.close()  # asyncio never took it
            await runner.cleanup()
            raise
        self._runner = runner
        self._host = host

    async def start(self, server: InProcessServer) -> None:
        """Serve (binding first if ``bind`` was not called); raises ``OSError``
        when the port is unusable."""
        await self.bind(server)
        if self._own_host:
            await self.game_host.start(server)
        if self.game_host.host is None:
            raise RuntimeError("the browser door's GameHost must start before the door")
        assert self._listener is not None
        await self._listener.start_serving()
        logger.info(
            "Browser door on %s; in a browser, open %s",
            describe_listening(self.sockets),
            self._url(self._host),
        )

    def _url(self, host: str | None) -> str:
        """What to open: this machine's name too when every interface listens."""
        if host is None:
            return (
                f"http://localhost:{self.port}/ here, or "
                f"http://{socket.gethostname()}:{self.port}/ from another machine"
            )
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{self.port}/"

    @property
    def _everywhere(self) -> bool:
        """Whether the door listens on every interface (a wildcard address)."""
        return any(sock.getsockname()[0] in ("0.0.0.0", "::") for sock in self.sockets)

    async def stop(self) -> None:
        """Send every page away with 1001 (they reconnect by themselves), then stop."""
        if self._runner is None:
            return
        self._closing = True
        for connection in self.connections:
            if connection.transport is not None:
                connection.transport.close(CLOSE_GOING_AWAY, "server shutting down")
            if connection.session is not None:
                connection.session.transport_lost()
        if self._own_host:
            await self.game_host.stop(timeout=STOP_TIMEOUT)
        runner, self._runner = self._runner, None
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.close()
        await runner.cleanup()

    close = stop

    # -- handlers ----------------------------------------------------------------

    def _place(self, request: web.BaseRequest) -> ClientPlace:
        return resolve_client(
            peer_host(request.transport.get_extra_info("peername") if request.transport else None),
            request.headers,
            direct_scheme="https" if request.secure else "http",
            trusted=self.options.trusted_proxies,
        )

    async def _page_handler(self, request: web.Request) -> web.Response:
        place = self._place(request)
        response = web.Response(
            body=self._page,
            content_type="text/html",
            charset="utf-8",
            headers={
                "Cache-Control": "no-cache",
                "Content-Security-Policy": page_policy(place.host),
            },
        )
        if not valid_cookie(request.cookies.get(COOKIE_NAME)):
            response.set_cookie(
                COOKIE_NAME,
                new_cookie_value(),
                max_age=COOKIE_MAX_AGE,
                path="/",
                httponly=True,
                samesite="Strict",
                secure=place.secure,
            )
        return response

    async def _health(self, request: web.Request) -> web.Response:
        if self._closing:
            return web.Response(status=503, text="stopping\n")
        return web.Response(text="ok\n", headers={"Cache-Control": "no-store"})

    async def _websocket(self, request: web.Request) -> web.StreamResponse:
        options = self.options
        place = self._place(request)
        origin = request.headers.get("Origin")
        if not origin_allowed(origin, place, options.origins):
            why = (
                f"foreign origin {origin[:100] if origin else origin!r}{_proxy_hint(origin, place)}"
            )
            logger.info("web connection from %s refused: %s", place.address, why)
            self.foreign_origins.refused(f"{place.address}: {why}")
            return web.Response(status=403, text="This page may not open a game here.\n")
        if self._closing or self.game_host.host is None:
            return web.Response(status=503, text="The server is shutting down.\n")
        ws = web.WebSocketResponse(
            # aiohttp refuses a message of max_msg_size bytes itself: one more
            # lets a message of exactly ``max_message`` through.
            max_msg_size=options.max_message + 1,
            # Pings are answered and the heartbeat kept by the transport, within
            # the budgets: aiohttp's would answer every ping outside them, and
            # its heartbeat restarts on any byte received.
            autoping=False,
            heartbeat=None,
            compress=False,  # a deflate context per player costs more memory than it saves
        )
        if not ws.can_prepare(request).ok:
            return web.Response(status=400, text="This is the game's WebSocket: open / instead.\n")
        connection = _Connection(identity_of(request.cookies.get(COOKIE_NAME)))
        refusal = self.connections.admit(place.address, connection)
        if refusal is not None:
            logger.info("web connection from %s refused: %s", place.address, refusal.value)
            self.over_caps.refused(f"{place.address}: {refusal.value}")
            return await self._refuse(request, ws, refusal.value)
        try:
            await ws.prepare(request)
            if request.transport is not None:
                self.pending.upgraded(request.transport)  # the WebSocket caps hold it now
            tcp = request.transport
            connection.transport = WebSocketTransport(
                ws,
                tcp if isinstance(tcp, asyncio.Transport) else None,
                heartbeat=options.heartbeat,
                peer=place.address,
                non_readers=self.non_readers,
            )
            self._send_away_older(connection, place)
            await self._serve(ws, connection, request, place)
        finally:
            self.connections.release(place.address, connection)
        return ws

    def _error_words(self, error: object) -> str:
        """What ended a connection, for the log: a message too big in the door's own
        limit (aiohttp's words name ``max_msg_size``, one byte over it: see ``_websocket``)."""
        if isinstance(error, WebSocketError) and error.code == WSCloseCode.MESSAGE_TOO_BIG:
            return f"a message over {self.options.max_message} bytes (1009)"
        return str(error)

    def _send_away_older(self, newer: _Connection, place: ClientPlace) -> None:
        """The player opened the game again (another tab, another window): their
        older page is told so and closed (1008: the page shows why, with Try
        again, and does not reconnect by itself), as the lobby replaces its
        connection.  Two pages would otherwise play the same seat."""
        if newer.identity is None:
            return
        for older in self.connections:
            if older is newer or older.identity != newer.identity or older.transport is None:
                continue
            logger.info(
                "web connection of %s... closed: opened again from %s",
                newer.identity[:16],
                place.address,
            )
            # On its screen too, for a client that shows no close reason.
            older.transport.write(b"\x1b[2J\x1b[H" + OPENED_ELSEWHERE.encode() + b"\r\n")
            older.transport.close(CLOSE_POLICY, OPENED_ELSEWHERE)

    @staticmethod
    async def _refuse(
        request: web.Request, ws: web.WebSocketResponse, refusal: str
    ) -> web.WebSocketResponse:
        """Over a cap: say why, in the terminal and as the close reason, and close
        with 1013 ("try again later"), which the page shows with a Try again
        button instead of reconnecting in a loop.  A browser is never shown
        an HTTP error's body for a WebSocket, so the refusal is upgraded first."""
        await ws.prepare(request)
        try:
            await ws.send_bytes(refusal.encode() + b"\r\n")
            await ws.close(code=CLOSE_TRY_LATER, message=refusal.encode()[:120])
        except (ConnectionError, RuntimeError):
            pass  # gone already
        return ws

    async def _serve(
        self,
        ws: web.WebSocketResponse,
        connection: _Connection,
        request: web.Request,
        place: ClientPlace,
    ) -> None:
        transport = connection.transport
        assert transport is not None
        identity = connection.identity
        start = SessionStart(
            player=DoorPlayer(door="web", identity=identity, peer=place.address),
            term_type=TERM_TYPE,
            size=terminal_size(request.query),
            env={
                **terminal_environment(request.headers.get("Accept-Language", "")),
                **page_environment(
                    place,
                    request.query.get("table", ""),
                    touch=request.query.get("touch") == "1",
                    everywhere=self._everywhere,
                ),
            },
        )
        logger.info(
            "web connection from %s (%s)",
            place.address,
            identity[:16] + "..." if identity else "guest",
        )
        host = self.game_host.host
        assert host is not None
        session = host.open(transport, start)
        if session is None:  # every screen of the server is taken
            transport.refused(Refusal.FULL.value)
        connection.session = session
        bad = 0
        try:
            while True:
                await transport.readable()
                if transport.aborted:
                    # Dropped (not reading, over the cap): the messages aiohttp
                    # still holds would be read at the budget's pace, for nothing.
                    break
                message = await ws.receive()
                # Every message costs input budget, whatever it is: keys the
                # characters they carry (the host charges those), any other its
                # length; each at least REQUEST_COST.
                if message.type is WSMsgType.TEXT:
                    try:
                        handled = self._handle(message.data, session, transport)
                    except RecursionError:  # JSON nested deeper than Python's stack
                        self.too_deep.refused(place.address)
                        transport.close(CLOSE_BAD_DATA, "message nested too deep")
                        break
                    if isinstance(handled, str):
                        if session is not None:
                            session.charge(0)
                            await _feed(session, transport, handled)
                        continue
                    if session is not None:
                        session.charge(len(message.data))
                    if handled:
                        continue
                elif message.type is WSMsgType.PONG:
                    transport.pong_received()
                    if session is not None:
                        session.charge(len(message.data))
                    continue
                elif message.type is WSMsgType.PING:
                    if session is not None:
                        session.charge(len(message.data))
                        session.output_queued(transport.ws_pong(message.data))
                    continue
                elif message.type in (
                    WSMsgType.CLOSE,
                    WSMsgType.CLOSING,
                    WSMsgType.CLOSED,
                    WSMsgType.ERROR,
                ):
                    if message.type is WSMsgType.ERROR:
                        logger.info(
                            "web connection from %s closed: %s",
                            place.address,
                            self._error_words(message.data),
                        )
                    break
                elif session is not None:  # binary: not textual.js's
                    session.charge(len(message.data))
                bad += 1
                if bad >= self.options.max_bad_messages:
                    logger.info(
                        "web connection from %s closed: %d bad messages", place.address, bad
                    )
                    self.bad_messages.refused(f"{place.address}: {bad} bad messages")
                    transport.close(CLOSE_POLICY, "too many bad messages")
                    break
        finally:
            if session is not None:
                session.transport_lost()
            if transport.is_closing() and not ws.closed:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(transport.closed(), STOP_TIMEOUT)
            transport.cancel()

    @staticmethod
    def _handle(
        data: str, session: HostedSession | None, transport: WebSocketTransport
    ) -> str | bool:
        """Act on one of textual.js's messages: the input to feed (str), True when
        handled, False when it is not one of them."""
        try:
            message = json.loads(data)
        except ValueError:
            return False
        if not isinstance(message, list) or not message or not isinstance(message[0], str):
            return False
        kind, args = message[0], message[1:]
        if kind == "stdin" and len(args) == 1 and isinstance(args[0], str):
            return args[0]
        if kind == "resize" and len(args) == 1 and isinstance(args[0], dict):
            width, height = args[0].get("width"), args[0].get("height")
            if not (isinstance(width, int) and isinstance(height, int)):
                return False
            if not (_small_int(width) and _small_int(height)):
                return False
            if session is not None:
                session.resize(width, height)
            return True
        if kind == "ping" and len(args) == 1 and isinstance(args[0], str) and len(args[0]) <= 32:
            queued = transport.pong(args[0])
            if session is not None:
                session.output_queued(queued)
            return True
        # xterm.js reports focus to the app itself (CSI I / CSI O) once the app asks.
        return kind in ("focus", "blur") and not args


async def _feed(session: HostedSession, transport: WebSocketTransport, text: str) -> None:
    """Hand input to the host a slice at a time, waiting whenever it paused us.

    The host's input budget pauses the door once a feed goes over it, but
    what it was fed is processed at once: a whole 64 KiB message would be
    64 Ki key events in one go, seconds of one event loop for every player
    on it.  In slices, the budget holds within a message too."""
    for start in range(0, len(text), INPUT_SLICE):
        await transport.readable()
        if transport.is_closing():
            return
        session.feed(text[start : start + INPUT_SLICE].encode("utf-8", "replace"))


def _proxy_hint(origin: str | None, place: ClientPlace) -> str:
    """A page served over https by a proxy this door does not trust looks like
    another origin (https:// against the http:// it sees): say what to do."""
    if origin and origin.lower().startswith("https://") and not place.secure:
        return " (behind a TLS reverse proxy? start with --web-trust-proxy PROXY_ADDRESS)"
    return ""


def _small_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10_000


async def _secure_headers(request: web.Request, response: web.StreamResponse) -> None:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)  # the page sets its own policy


def page_policy(host: str) -> str:
    """The page's Content-Security-Policy: ``CONTENT_SECURITY_POLICY`` with its
    own WebSocket spelled out (browsers that predate CSP 3 do not count
    ``ws:``/``wss:`` as 'self'); a Host that is not a plain host[:port] adds nothing."""
    if not _PLAIN_HOST.fullmatch(host):
        return CONTENT_SECURITY_POLICY
    return CONTENT_SECURITY_POLICY.replace(
        "connect-src 'self'", f"connect-src 'self' ws://{host} wss://{host}"
    )


def page_environment(
    place: ClientPlace, table: str, *, touch: bool = False, everywhere: bool
) -> dict[str, str]:
    """What the app learns of the page (``skyjo_tui.webpage``): its address for other
    machines (the tables' links), the table whose link opened it, and whether it is on a
    touch screen (``touch``: the page says so, ``touch=1``).  ``everywhere``:
    the door listens on every interface, so a page opened on this machine (localhost)
    gives the others this machine's network address."""
    env = {IN_PAGE_ENV: "1"}
    if _PLAIN_HOST.fullmatch(place.host):
        host = for_other_machines(place.host) if everywhere else place.host
        env[PAGE_ENV] = f"{'https' if place.secure else 'http'}://{host}"
    if TABLE_CODE.fullmatch(table):
        env[TABLE_ENV] = table.upper()
    if touch:
        env[TOUCH_ENV] = "1"
    return env


def _file(path: Path, content_type: str) -> Any:
    async def handler(request: web.Request) -> web.FileResponse:
        return web.FileResponse(
            path, headers={"Content-Type": content_type, "Cache-Control": "public, max-age=3600"}
        )

    return handler


def attach_web_front_door(server: Any, args: argparse.Namespace, host: GameHost) -> None:
    """``skyjo-server``'s hook (``--no-web`` never gets here): the browser door on ``host``."""
    server.add_front_door(WebFrontDoor(web_options_from_args(args), host=host))
