"""``SkyjoApp``: the Textual client, built by ``build_app`` for the CLI, the tests and SSH.

The app is the controller between the screens and one ``ServerLink``: screens
call its methods (start a local game, connect, send a request, play a
move) through ``host.Host``, and everything the server pushes comes back as a
``SessionNews`` message: ``Heard`` keeps what it says, and the ``Navigator``
shows it (the screens it opens, the messages it posts them). The app touches no
process-wide state: no signal handlers, no environment writes, no files
outside its data directory, so many can run in one process (one per SSH
session).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar

from textual import events, work
from textual.binding import Binding, BindingType
from textual.command import CommandPalette, Provider
from textual.css.query import NoMatches
from textual.filter import Monochrome, NoColor
from textual.geometry import Size
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.screen import Screen

from server.config import Pace
from server.netclient import ConnectionLost, ServerError, Welcome
from server.printable import printable
from server.protocol import DEFAULT_CHAT_MAX_LENGTH
from server.termhost.keyturns import InputInTurnApp

from . import preferences
from .bindings import localize_bindings
from .commands import SkyjoCommands
from .errors import describe_error, refusal_words
from .heard import Heard
from .host import ClientOptions
from .i18n import Translator, detect_language
from .keymap import APP_BINDINGS, key_display
from .link import (
    BACKOFF,
    NO_RECONNECT_CODES,
    Connector,
    Link,
    LinkChanged,
    NameNeeded,
    Pushed,
    ServerLink,
)
from .local import LocalServer
from .local_game import LocalSetup, default_name
from .navigator import Navigator
from .preferences import Preferences
from .terminal import TerminalTitle
from .theme import OWN_THEMES, chosen_theme
from .webpage import in_page, keyboard_sequence, page_address, table_to_open, touch_screen
from .widgets.text import Input

logger = logging.getLogger(__name__)

LOCAL_LABEL = "local"  # the key of the in-process server's resume token
#: How long a door's player waits on the Connecting screen for a server out of reach (a
#: door host's lobby starting or restarting) before it says so, with Retry, in seconds.
SERVER_PATIENCE = 300.0


def out_of_reach(exc: BaseException) -> bool:
    """Whether ``exc`` says the server could not be reached (no answer, refused, dropped),
    not that it answered: a ``bye`` with its code (banned, full) is its word."""
    if isinstance(exc, ConnectionLost):
        return exc.code is None
    return isinstance(exc, (OSError, TimeoutError))


def build_app(
    connect: Connector | None = None,
    *,
    name: str | None = None,
    lang: str | None = None,
    environ: Mapping[str, str] | None = None,
    data_dir: Path | None = None,
    replay: Path | None = None,
    server_label: str = "",
    pace: str | None = None,
    local_pace: Pace | None = None,
    instant_login: bool = False,
) -> SkyjoApp:
    """The one way to make the client.

    - ``connect``: opens a new connection to a server (called again to
      reconnect); None plays locally, starting with the home screen.
    - ``name``: the player's name (asked for when needed and not given).
    - ``lang``: "en" or "fr"; None reads the locale from ``environ`` (the
      player's environment: for SSH, what their client sent).
    - ``data_dir``: where preferences, resume tokens and local games are
      kept; None keeps nothing on disk (a temporary local server).
    - ``replay``: a game record file to step through instead of playing.
    - ``server_label``: "host:port", the key of the saved resume token; shown as the
      server's name, printable (an address given with a terminal's controls in it).
    - ``pace``: "off", "fast", "normal" or "slow" (others' moves); None: the saved choice.
    - ``local_pace``: the in-process server's pace (tests use zero delays).
    - ``instant_login``: the server is on this machine (a door's player) and
      answers a login at once: no Connecting screen is built to flash by (a
      third of a hosted player's start, in CPU time, before the lobby is drawn).
    """
    options = ClientOptions(
        connect=connect,
        server_label=printable(server_label),
        name=name,
        lang=lang,
        environ=MappingProxyType(dict(environ or {})),
        data_dir=data_dir,
        replay=replay,
        pace=pace,
        local_pace=local_pace,
        instant_login=instant_login,
    )
    return SkyjoApp(options)


class SessionNews(Message):
    """Something the session heard: a push or a change of the connection."""

    def __init__(self, news: object) -> None:
        super().__init__()
        self.news = news


class SkyjoApp(InputInTurnApp[None]):
    """Takes its keys in turn (``keyturns``), whichever driver reads them."""

    CSS_PATH = "app.tcss"
    TITLE = "Skyjo"
    COMMANDS: ClassVar[set[type[Provider] | Callable[[], type[Provider]]]] = {SkyjoCommands}
    BINDINGS: ClassVar[list[BindingType]] = list(APP_BINDINGS)

    def __init__(self, options: ClientOptions) -> None:
        super().__init__()
        for theme in OWN_THEMES:
            self.register_theme(theme)
        self.options = options
        self.prefs = preferences.load(options.data_dir)
        self.theme = chosen_theme(self.prefs.theme)
        if options.pace:
            self.prefs = replace(self.prefs, pace=options.pace)
        lang = detect_language(options.lang or self.prefs.lang or None, options.environ)
        self.tr = Translator(lang)
        self._respect_no_color(options.environ)
        #: Binding id -> key(s), from the preferences: players may remap any key.
        self.keymap: dict[str, str] = dict(self.prefs.keys)
        self.session: ServerLink | None = None
        self.local: LocalServer | None = None
        self.heard = Heard()  # what the server said: the table, the lobby's, the chat...
        self.nav = Navigator(self, self)  # opens the screens (checks that we are a ``Host``)
        self._quick_game = False
        self._reconnecting = False
        self.terminal_title = TerminalTitle(self.write_to_terminal)
        self._my_turn = False
        #: In the browser door's page; the page's address (for the tables' links: the SSH
        #: door gives it too); whether the page was last told that a text field has the
        #: focus (its on-screen keyboard).
        self.in_page = in_page(options.environ)
        self.page = page_address(options.environ)
        #: The page is on a touch screen (a phone, a tablet): the table's prompts say what
        #: to tap rather than which keys to press (a tablet's keyboard plays all the same).
        self.touch = touch_screen(options.environ)
        self._page_typing: bool | None = None
        if self.in_page and options.data_dir is None:
            # The page rings no bell: it vibrates a phone whose tab is hidden (in a pocket).
            self.prefs = replace(self.prefs, turn_bell=True)
        self._language_lock = asyncio.Lock()  # one change of language at a time

    def _respect_no_color(self, environ: Mapping[str, str]) -> None:
        """NO_COLOR from the environment we were given (Textual reads only the process's)."""
        if "NO_COLOR" in environ and not self.no_color:
            self.no_color = True
            self._filters.append(NoColor() if self.native_ansi_color else Monochrome())

    # -- start and stop ------------------------------------------------------------

    def on_mount(self) -> None:
        localize_bindings(self, self.tr)  # the app's keys too (the footer shows Ctrl+P's)
        self.set_keymap(self.keymap)
        options = self.options
        self.nav.start(options.replay, online=options.connect is not None)
        if options.replay is None and options.connect is not None:
            self.go_online(options.connect, options.server_label, options.name)
        elif options.replay is None:
            self.resume_local_game()

    async def on_unmount(self) -> None:
        self.terminal_title.restore()
        if self.session is not None:
            await self.session.close()
        if self.local is not None:
            await self.local.stop()

    # -- preferences -----------------------------------------------------------------

    def save_prefs(self, prefs: Preferences) -> None:
        self.prefs = prefs
        try:
            preferences.save(self.options.data_dir, prefs)
        except OSError as exc:
            error = f"{exc.strerror}: {exc.filename}" if exc.strerror and exc.filename else str(exc)
            self.notify(self.tr("error.save_prefs", error=error), severity="warning")

    def set_keys(self, keymap: Mapping[str, str]) -> None:
        """The player's keys (binding id -> keys): kept, and in force on every screen at once."""
        self.keymap = dict(keymap)
        self.set_keymap(self.keymap)
        self.save_prefs(replace(self.prefs, keys=dict(keymap)))

    def get_key_display(self, binding: Binding) -> str:
        """How a key is named wherever it is shown (footers, Help, the Keys screen, the
        palette, the prompts' ``{..._key}``): in the player's language."""
        return binding.key_display or key_display(binding.key, self.tr)

    def set_theme(self, theme: str) -> None:
        """Show every screen in ``theme`` (one of ``theme.THEMES``) and keep the choice."""
        self.theme = chosen_theme(theme)
        self.save_prefs(replace(self.prefs, theme=self.theme))

    def remember_server(self, label: str, name: str | None) -> None:
        self.save_prefs(replace(self.prefs, last_server=label, name=name or self.prefs.name))

    @work(group="language")
    async def set_language(self, lang: str) -> None:
        """Switch language and draw every open screen again in it."""
        # One change at a time: a second one while screens are being composed again found
        # them half built.
        async with self._language_lock:
            if lang == self.tr.lang:
                return  # nothing to redraw
            self.tr = Translator(lang)
            localize_bindings(self, self.tr)
            for screen in self.nav.retranslatable():
                await screen.retranslate()

    # -- the terminal: its title, its bell -----------------------------------------------

    def write_to_terminal(self, data: str) -> None:
        """Escape sequences for the player's terminal (none in a headless test run)."""
        if self._driver is not None and not self.is_headless:
            self._driver.write(data)

    def turn_is_mine(self, mine: bool) -> None:
        """Tell the player, even in another window, when it becomes their turn (Settings:
        the terminal's title, its bell); the title goes back once the turn is played."""
        if mine == self._my_turn:
            return
        self._my_turn = mine
        if mine and self.prefs.turn_title:
            self.terminal_title.show(self.tr("turn.title"))
        elif not mine and self.terminal_title.shown is not None:
            self.terminal_title.show(self.title)
        if mine and self.prefs.turn_bell:
            self.bell()

    # -- the browser door's page: its on-screen keyboard ------------------------------

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self.tell_page_about_typing()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self.tell_page_about_typing()

    def tell_page_about_typing(self) -> None:
        """Tell the page whether a text field has the focus (``webpage``): a phone's
        keyboard comes up for the name, the chat, a code, and not for a tap on a card."""
        if not self.in_page:
            return
        typing = isinstance(self.focused, Input)  # every field of the app is one
        if typing != self._page_typing:
            self._page_typing = typing
            self.write_to_terminal(keyboard_sequence(typing))

    # -- the terminal's size ---------------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        # This runs before Textual's own handler records the new size: use the event's.
        self.check_size(event.size)

    def check_size(self, size: Size | None = None) -> None:
        """Cover the screen with a clear message while the terminal is too small for it."""
        self.nav.check_size(size)

    # -- going online ------------------------------------------------------------------

    @work(exclusive=True, group="login")
    async def go_online(self, connect: Connector, label: str, name: str | None) -> None:
        """Log in (asking for a name if needed), then show the lobby or our table.

        Meanwhile the Connecting screen says so, unless the login is instant (a
        door's player: the server is on this machine); it also says why a login
        failed, with a way to retry.
        """
        await self._close_session()
        self._quick_game = False
        session = ServerLink(connect, self._session_news)
        self.session = session
        waiting = self.nav.connecting(label, retry=lambda: self.go_online(connect, label, name))
        token = self.prefs.tokens.get(label) if label else None
        self.heard.hold()  # a seat we come back to opens over the lobby, not over this screen
        if not self.options.instant_login:
            await self.push_screen(waiting)

        async def say_out_of_reach() -> None:
            await self._show(waiting)
            waiting.out_of_reach()

        try:
            try:
                welcome = await self._log_in(session, name, token, say_out_of_reach)
            except NameNeeded as needed:
                welcome = await self._ask_name(session, needed, name)
                if welcome is None:
                    await self._show(waiting)  # under the name prompt, as for any server
                    await self._leave_connecting(waiting)
                    return
        except (OSError, TimeoutError, ConnectionLost, ServerError) as exc:
            await self._show(waiting)
            # A door's player is not shown where the door reaches the server (an address
            # inside the host's network), only that it cannot be reached.
            hosted = self.options.instant_login and out_of_reach(exc)
            waiting.failed(self.tr("connect.unreachable") if hosted else self.describe_error(exc))
            return
        finally:
            held = self.heard.release()
        if label:
            self.save_prefs(self.prefs.with_token(label, welcome.token))
        await self.nav.lobby_after(waiting)
        for message in held:
            self._pushed(message)
        linked = table_to_open(self.options.environ)
        if linked is not None and self.heard.table is None:
            await self.go_to_linked_table(linked)

    async def _log_in(
        self,
        session: ServerLink,
        name: str | None,
        token: str | None,
        say_out_of_reach: Callable[[], Awaitable[None]],
    ) -> Welcome:
        """``session.login``. A door's player whose server is out of reach (a door host's
        lobby not up yet, or restarting) waits on the Connecting screen while the login is
        tried again, with a dropped link's pauses, for ``SERVER_PATIENCE`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SERVER_PATIENCE
        attempt = 0
        while True:
            try:
                return await session.login(name=name, token=token)
            except (OSError, TimeoutError) as exc:
                if not (self.options.instant_login and out_of_reach(exc)):
                    raise
                if loop.time() >= deadline:
                    raise
            attempt += 1
            if attempt == 1:
                await say_out_of_reach()
            await asyncio.sleep(BACKOFF[min(attempt, len(BACKOFF)) - 1])

    async def go_to_linked_table(self, code: str) -> None:
        """The page was opened from a table's link: sit there if a seat is free, else watch
        (a game on, a full table); a table that is gone is said, from the lobby."""
        reply, words = await self.call_in_dialog({"type": "join_table", "code": code})
        if reply is not None or not words:
            return  # seated (the table's push opens it), or the connection is lost (said)
        if await self.call({"type": "spectate", "code": code}, quiet=True) is None:
            self.notify(words, severity="warning", timeout=8)

    async def _show(self, screen: Screen[Any]) -> None:
        """Push ``screen`` unless it is on the stack already."""
        if not screen.is_attached:
            await self.push_screen(screen)

    async def _ask_name(self, session: ServerLink, needed: NameNeeded, name: str | None) -> Any:
        reason = self.describe_error(needed) if needed.message else ""
        limit = self._name_limit(session, needed, 0)
        while True:
            chosen, return_code = await self.nav.ask_name(name or self.prefs.name, reason, limit)
            if chosen is None:
                return None
            try:
                welcome = await session.choose_name(chosen, return_code)
            except NameNeeded as again:
                reason, name = self.describe_error(again), chosen
                limit = self._name_limit(session, again, limit)
                continue
            if not self.options.connect or not self.prefs.name:
                self.save_prefs(replace(self.prefs, name=chosen))
            return welcome

    @staticmethod
    def _name_limit(session: ServerLink, needed: NameNeeded, known: int) -> int:
        """The server's longest name, as far as we know (0: not known): from the refusal of a
        name too long, else its welcome, else what an earlier refusal said."""
        welcome = session.welcome.limits if session.welcome is not None else {}
        for limit in (needed.details.get("name_max_length"), welcome.get("name_max_length")):
            if type(limit) is int and limit > 0:
                return limit
        return known

    async def _leave_connecting(self, waiting: Any) -> None:
        await self._close_session()
        if waiting.is_current and len(self.screen_stack) > 2:
            self.pop_screen()
        elif self.options.connect is not None:
            self.exit()

    async def _close_session(self) -> None:
        session, self.session = self.session, None
        self.heard.leave_table()
        if session is not None:
            await session.close()

    def session_server_name(self) -> str:
        """The server's own name and version, from its welcome."""
        return self.session.server_name if self.session is not None else ""

    def local_server(self) -> LocalServer:
        if self.local is None:
            local_dir = self.options.data_dir / "local" if self.options.data_dir else None
            self.local = LocalServer(local_dir, self.options.local_pace)
        return self.local

    # -- local games ---------------------------------------------------------------------

    async def ensure_local_session(self) -> bool:
        """Log in to the in-process server unless already there; False (said) on failure.

        A seat kept from an earlier visit is left (it goes to a bot): a new game is
        asked for. Only the launch goes back to it (``resume_local_game``).
        """
        name = self.prefs.name or default_name(self.options.environ, self.tr)
        session = self.session
        if (
            session is not None
            and session.link is Link.ONLINE
            and self._quick_game
            and session.welcome is not None
            and session.welcome.name == name
        ):
            return True
        return await self._local_login(name, resume=False) is not None

    async def _local_login(self, name: str, *, resume: bool) -> list[dict[str, Any]] | None:
        """A new session on the in-process server with the saved token; None (said unless
        resuming) on failure. Resuming keeps the seat the token holds and returns the
        table pushes the login brought; otherwise that seat is left and none are."""
        await self._close_session()
        self.session = ServerLink(self.local_server().connect, self._session_news)
        self.heard.hold()
        held: list[dict[str, Any]] = []
        try:
            welcome = await self.session.login(name=name, token=self.prefs.tokens.get(LOCAL_LABEL))
            if resume and welcome.table_id is not None:
                held = self.heard.release()  # the game, as it is now
            elif welcome.table_id is not None:
                await self.call({"type": "leave_table"}, quiet=True)
            if welcome.name != name and not resume:
                # Settings changed the name: the saved token's player (the one person who
                # plays here, with their games) takes it; a resumed seat keeps the name it
                # has at its table: the next new game takes the new one
                welcome = await self.session.rename(name)
            self._quick_game = True
            self.save_prefs(self.prefs.with_token(LOCAL_LABEL, welcome.token))
        except ConnectionError as exc:  # ConnectionLost included: the in-process server went away
            failure: tuple[str, float | None] = (self.describe_error(exc), None)
        except OSError as exc:  # its data directory, most likely
            where = f"{exc.strerror}: {exc.filename}" if exc.strerror and exc.filename else str(exc)
            failure = (self.tr("error.local", reason=where), 10)
        except (NameNeeded, TimeoutError, ServerError) as exc:
            failure = (self.describe_error(exc), None)
        else:
            return held
        finally:
            if self.heard.holding:  # not resumed: the game left behind is not shown
                self.heard.leave_table()
                self.heard.release()
        if not resume:  # a new game says why it cannot start; a launch stays quiet
            reason, timeout = failure
            self.notify(reason, severity="error", timeout=timeout)
        return None

    @work(exclusive=True, group="login")
    async def resume_local_game(self) -> None:
        """At launch, back to the local game that quitting the app interrupted.

        Its seat was kept (only leaving with ``q`` gives it to a bot): a player who
        closed the terminal or pressed Ctrl+Q mid-game finds the game again, as a
        server's player finds their seat. Quiet when there is none, or on failure
        (a new game says why it cannot start).
        """
        if self.options.data_dir is None or LOCAL_LABEL not in self.prefs.tokens:
            return  # no local game was ever played here: the server need not start
        name = self.prefs.name or default_name(self.options.environ, self.tr)
        for message in await self._local_login(name, resume=True) or ():
            self._pushed(message)

    @work(exclusive=True, group="login")
    async def start_local_game(self, setup: LocalSetup) -> None:
        """A private table on the in-process server, with the bots, started at once."""
        if not await self.ensure_local_session():
            return
        await self.call({"type": "leave_table"}, quiet=True)
        if await self.call(setup.create_request(self.tr("local.table_name"))) is None:
            return
        for level in setup.levels:
            if await self.call({"type": "add_bot", "level": level}) is None:
                return
        await self.call({"type": "start_game"})

    @property
    def player_id(self) -> int | None:
        """Who we are on the server we are logged in to (None before its welcome)."""
        return self.session.player_id if self.session is not None else None

    def return_words(self, key: str) -> str:
        """``key``'s words with our ``name`` and the ``code`` that, given with it, brings
        us back to our seat; "" where nothing is to be said: only a door's guest without
        a key is told (their app keeps no token once it ends, and the server knows them
        by nothing else)."""
        welcome = self.session.welcome if self.session is not None else None
        if welcome is None or welcome.return_code is None or self.options.data_dir is not None:
            return ""
        return self.tr(key, name=welcome.name or "", code=welcome.return_code)

    @property
    def quick_game(self) -> bool:
        """True while playing on the in-process server (no waiting room)."""
        return self._quick_game

    @work(group="leave")
    async def leave_table(self) -> None:
        await self.call({"type": "leave_table"}, quiet=True)
        self.heard.leave_table()
        self.nav.return_to_base()

    @work(group="leave")
    async def disconnect(self) -> None:
        """Leave the server (the seat is kept for a while): home, or quit when started online."""
        await self._close_session()
        if self.options.connect is not None:
            self.exit()
            return
        self.nav.back_home()

    # -- requests --------------------------------------------------------------------------

    async def call(self, message: dict[str, Any], *, quiet: bool = False) -> dict[str, Any] | None:
        """Send a request; on an error, say so plainly and return None."""
        session = self.session
        try:
            if session is None:
                raise ConnectionLost("not connected")
            return await session.request(message)
        except (ServerError, ConnectionLost, TimeoutError) as exc:
            if not quiet:
                words = self.describe_error(exc, message.get("type"))
                self.notify(words, severity="error", timeout=6)
            return None

    async def call_in_dialog(self, message: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
        """``call`` for a dialog: the server's refusal comes back in words, for the dialog
        to say beside what it asked (and keep what was typed); a lost connection is said
        as ``call`` says it. (reply, "") on success, (None, words) on a refusal."""
        session = self.session
        try:
            if session is None:
                raise ConnectionLost("not connected")
            return await session.request(message), ""
        except ServerError as exc:
            return None, self.describe_error(exc, message.get("type"))
        except (ConnectionLost, TimeoutError) as exc:
            self.notify(self.describe_error(exc), severity="error", timeout=6)
            return None, ""

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Textual's notification, always as literal text: messages carry names and the
        server's words (``markup`` is ignored; see ``widgets.text``)."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    def _handle_exception(self, error: Exception) -> None:
        """Textual's crash, but for a widget that lost what it looked for to the
        app's own end.

        Once the app is asked to exit (its player's connection ended, its
        window closed), Textual takes the screens down widget by widget while
        messages already on their way are still handled: a room screen
        mounting then finds no ``#seats``, a select no overlay.  Whatever
        moment the connection ends at, that is the end it asked for, not a
        crash (which would be logged and shown as one)."""
        if isinstance(error, NoMatches) and self._exit:  # set by exit() (private.py)
            logger.debug("a widget was gone as the app ended: %s", error)
            return
        super()._handle_exception(error)

    def describe_error(self, exc: BaseException, request: str | None = None) -> str:
        """``exc`` in the player's words; ``request``: the type of the request it refused."""
        return describe_error(exc, self.tr, request=request, limits=self._server_limits())

    def _server_limits(self) -> dict[str, Any]:
        """The limits the server said in its welcome ({} before it)."""
        welcome = self.session.welcome if self.session is not None else None
        return welcome.limits if welcome is not None else {}

    def reconnecting_words(self, change: LinkChanged) -> str:
        """Why we are reconnecting: the server said it is shutting down (an admin's stop or
        restart: it will be back), or the connection was lost."""
        if change.code == "shutting_down":
            return self.tr("link.reconnecting.shutting_down")
        return self.tr("link.reconnecting")

    @property
    def chat_max_length(self) -> int:
        """The longest chat line the server takes (its welcome says; a default before it)."""
        limit = self._server_limits().get("chat_max_length")
        return limit if isinstance(limit, int) and limit > 0 else DEFAULT_CHAT_MAX_LENGTH

    def _offline_words(self, change: LinkChanged) -> str:
        """Why we are offline: the server's ``bye`` code in our words, or else the words
        the connection ended with (a newer server's, or the network's)."""
        limits = self._server_limits()
        ours = refusal_words(change.code, self.tr, None, limits) if change.code else None
        if ours is not None:
            return self.tr("link.closed", reason=ours)
        return self.tr("link.lost", reason=change.reason or self.tr("error.unknown"))

    # -- what the session heard --------------------------------------------------------------

    def _session_news(self, news: object) -> None:
        self.post_message(SessionNews(news))

    def on_session_news(self, message: SessionNews) -> None:
        if not self.is_running or not self.screen_stack:
            # The app is closing: news still on its way has nowhere to go.  Textual
            # stops running before it takes the screens down, widget by widget: a
            # push fed to a table whose board had lost its prompt ended in NoMatches.
            return
        news = message.news
        if isinstance(news, LinkChanged):
            self._link_changed(news)
        elif isinstance(news, Pushed):
            self._pushed(news.message)

    def _link_changed(self, change: LinkChanged) -> None:
        if change.link is Link.RECONNECTING and not self._reconnecting:
            self._reconnecting = True
            # Not for long: the table keeps saying it (status and prompt lines).
            self.notify(self.reconnecting_words(change), severity="warning", timeout=10)
        elif change.link is Link.ONLINE and self._reconnecting:
            self._reconnecting = False
            self.clear_notifications()
            self.notify(self.tr("link.back"))
        elif change.link is Link.OFFLINE:
            self._reconnecting = False
            self.clear_notifications()
            self._disconnected(
                self._offline_words(change), reconnect=change.code not in NO_RECONNECT_CODES
            )
        self.nav.link_changed(change)

    def _disconnected(self, why: str, *, reconnect: bool = True) -> None:
        """The link is down for good (the app will not try again by itself): say so, and
        ask whether to connect again (unless ``reconnect`` is false: it could not work) or
        quit, over whatever is on screen (which cannot work without it: a leave it would
        send, say, would never reach the server)."""

        def answered(again: bool) -> None:
            if again:
                self.reconnect()
            else:
                self.disconnect()

        home = self.options.connect is None
        self.nav.disconnected(why, home=home, reconnect=reconnect, answered=answered)

    @work(exclusive=True, group="login")
    async def reconnect(self) -> None:
        """Connect again with our token, after the link was down for good: back where we
        were (the lobby, our seat), as after a drop; said again if it fails."""
        if self.session is not None:
            await self.session.reconnect()

    def _pushed(self, message: dict[str, Any]) -> None:
        self.nav.show(self.heard.hear(message))

    # -- actions -------------------------------------------------------------------------------

    def action_command_palette(self) -> None:
        """Textual's command palette, in the player's language, with the app's commands."""
        if self.use_command_palette and not CommandPalette.is_open(self):  # type: ignore[arg-type]  # App[object] is App[None] at run time
            self.push_screen(
                CommandPalette(placeholder=self.tr("palette.placeholder"), id="--command-palette")
            )

    def action_help(self) -> None:
        self.nav.help()
