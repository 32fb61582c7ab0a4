"""The navigator: the one module that imports screen classes and opens them.

It opens the screens the app starts with, those a push leads to (the lobby, a table's
room or board, the round's summary and the game's end over it, the dialogs), and those a
screen asks for through ``host.Navigation``. What the server said reaches the screens
through it: ``Heard`` keeps a push and says what changed; the navigator opens the screen
that change calls for and posts the screens the typed messages of ``messages.py``.

A new screen is one file in ``screens/`` and a line here (a method that opens it, and
its place in ``keymap.declare_places`` if it has keys to remap).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import Any, Final, TypeVar

from textual.app import App
from textual.geometry import Size
from textual.screen import Screen

from server.bots.review import Review
from server.engine import PlayerView
from server.protocol import IN_GAME, IN_ROOM

from . import keymap
from .heard import Changed
from .host import Board, Host, Unsaved
from .link import LinkChanged
from .messages import (
    ChatHeard,
    GameUpdate,
    LinkState,
    LobbyChatHeard,
    ServerNews,
    TableChanged,
    TablesChanged,
    WhoHeard,
)
from .names import SeatInfo
from .replay import Recording, ReplayError, recording
from .screens.base import SkyjoScreen, SkyjoScreenMixin
from .screens.confirm import ConfirmScreen
from .screens.connecting import ConnectingScreen
from .screens.create_table import CreateTableScreen
from .screens.disconnected import RECONNECT, DisconnectedScreen
from .screens.game_over import GameOverScreen
from .screens.help import HelpScreen
from .screens.home import HomeScreen
from .screens.join import JoinScreen
from .screens.keys import KeysScreen
from .screens.lobby import LobbyScreen
from .screens.name import NameScreen, PromptScreen
from .screens.replay import ReplayScreen
from .screens.review import ReviewScreen
from .screens.room import RoomScreen
from .screens.round_summary import RoundSummaryScreen
from .screens.settings import SettingsScreen
from .screens.setup import SetupScreen
from .screens.stats import StatsScreen
from .screens.table import TableScreen
from .screens.too_small import cover_when_too_small
from .screens.unsaved import UnsavedChangesScreen
from .summary import RoundSummary
from .widgets.table_list import TableList

S = TypeVar("S", bound=Screen[Any])

NOTICE_SECONDS: Final = 30  # an announcement stays up long enough to be read mid-turn

# The places whose keys a player may remap, in the order the Keys screen lists them.
keymap.declare_places(
    ("home", (HomeScreen,)),
    ("lobby", (LobbyScreen, TableList)),
    ("room", (RoomScreen,)),
    ("table", (TableScreen,)),
    ("summary", (RoundSummaryScreen,)),
    ("over", (GameOverScreen,)),
    ("replay", (ReplayScreen,)),
    ("review", (ReviewScreen,)),
)


def find_screen(app: App[Any], kind: type[S]) -> S | None:
    """The topmost screen of type ``kind`` on ``app``'s stack."""
    for screen in reversed(app.screen_stack):
        if isinstance(screen, kind):
            return screen
    return None


class Navigator:
    """Opens screens on ``app`` (``host`` is the same app, as the screens see it)."""

    def __init__(self, app: App[Any], host: Host) -> None:
        self.app = app
        self.host = host

    # -- the screens the app starts with, and comes back to -------------------------------

    def start(self, replay: Path | None, *, online: bool) -> None:
        """The first screen: a game record to step through, or home (unless online: the
        login opens the Connecting screen or the lobby)."""
        if replay is not None:
            self.app.push_screen(ReplayScreen.from_file(replay))
        elif not online:
            self.app.push_screen(HomeScreen())

    def connecting(self, label: str, retry: Callable[[], object]) -> ConnectingScreen:
        """The screen that says we are connecting to ``label`` (not opened yet)."""
        return ConnectingScreen(label, retry=retry)

    async def lobby_after(self, waiting: Screen[Any]) -> None:
        """Logged in: the lobby, in the Connecting screen's place (or pushed, when the login
        was instant and none was opened)."""
        if waiting.is_current:
            await self.app.switch_screen(LobbyScreen())
        elif not waiting.is_attached:  # an instant login: the lobby comes straight up
            await self.app.push_screen(LobbyScreen())

    async def ask_name(
        self, name: str, reason: str, max_length: int
    ) -> tuple[str | None, str | None]:
        """Ask for a name; (the name or None, the return code the player gave with it)."""
        asked = NameScreen(name, reason, max_length=max_length)
        chosen = await self.app.push_screen_wait(asked)
        return chosen, asked.return_code

    def return_to_base(self) -> None:
        """Back to the lobby when online, else to the first screen (home)."""
        app = self.app
        while not isinstance(app.screen, LobbyScreen):
            screen = app.screen
            if isinstance(screen, SkyjoScreenMixin) and screen.stands_for_lobby:
                app.switch_screen(LobbyScreen())
                break
            if len(app.screen_stack) <= 2:
                break
            app.pop_screen()
        self.check_size()

    def back_home(self) -> None:
        """Close every screen above the first one (home)."""
        app = self.app
        while len(app.screen_stack) > 2 and not isinstance(app.screen, HomeScreen):
            app.pop_screen()

    def check_size(self, size: Size | None = None) -> None:
        """Cover the screen with a clear message while the terminal is too small for it."""
        cover_when_too_small(self.app, size or self.app.size)

    def disconnected(
        self, why: str, *, home: bool, reconnect: bool, answered: Callable[[bool], None]
    ) -> None:
        """Say that the link is down for good, over whatever is on screen; ``answered`` is
        called with True to connect again, False to leave."""
        if isinstance(self.app.screen, DisconnectedScreen):
            return
        self.app.push_screen(
            DisconnectedScreen(why, home=home, reconnect=reconnect),
            lambda answer: answered(answer == RECONNECT),
        )

    def retranslatable(self) -> list[SkyjoScreenMixin]:
        """The open screens that draw themselves again in a new language."""
        return [s for s in self.app.screen_stack if isinstance(s, SkyjoScreenMixin)]

    # -- what a screen may open (``host.Navigation``) ------------------------------------

    def help(self) -> None:
        if not isinstance(self.app.screen, HelpScreen):
            self.app.push_screen(HelpScreen())

    def settings(self) -> None:
        self.app.push_screen(SettingsScreen())

    def keys(self) -> None:
        self.app.push_screen(KeysScreen())

    def replay(self, recordings: list[Recording]) -> None:
        self.app.push_screen(ReplayScreen(recordings))

    async def prompt(
        self,
        title: str,
        value: str = "",
        reason: str = "",
        *,
        max_length: int = 0,
        placeholder: str = "",
    ) -> str | None:
        """Ask for a line of text (from a worker: it waits for the answer); None: backed out."""
        asked = PromptScreen(title, value, reason, max_length=max_length, placeholder=placeholder)
        return await self.app.push_screen_wait(asked)

    def review(
        self,
        record: Mapping[str, Any],
        seat: int,
        done: Callable[[int | None, Review | None], None],
    ) -> None:
        """A game's review from ``seat``'s moves; ``done`` is given the record step chosen
        in it (Enter on a move; None: closed) and the review worked out (None: none yet)."""
        screen = ReviewScreen(record, seat)
        self.app.push_screen(screen, lambda step: done(step, screen.review))

    def review_then_replay(
        self,
        record: dict[str, Any],
        seeded: bool,
        seat: int,
        *,
        known: Mapping[int, Review] | None = None,
        at_step: int | None = None,
    ) -> None:
        """A finished game's review; Enter on a move opens the game's replay on it, and
        closing the replay comes back to the review, on that move (the reviews kept)."""
        review = ReviewScreen(record, seat, known=known, at_step=at_step)

        def replay_at(step: int | None) -> None:
            if step is None or review.review is None:
                return
            try:
                shown = recording(record, seeded=seeded)
            except ReplayError as exc:
                self.app.notify(self.host.tr("replay.error", reason=str(exc)), severity="error")
                return

            def back(_: None) -> None:
                self.review_then_replay(
                    record, seeded, review.seat, known=review.reviews, at_step=step
                )

            self.app.push_screen(ReplayScreen([shown], reviewed=(review.review, step)), back)

        self.app.push_screen(review, replay_at)

    def setup(self) -> None:
        self.app.push_screen(SetupScreen())

    def join(self) -> None:
        self.app.push_screen(JoinScreen())

    def stats(self) -> None:
        self.app.push_screen(StatsScreen())

    def create_table(self) -> None:
        self.app.push_screen(CreateTableScreen())

    def confirm(self, question: str, answered: Callable[[bool | None], None]) -> None:
        self.app.push_screen(ConfirmScreen(question), answered)

    def unsaved(self, question: str, answered: Callable[[Unsaved | None], None]) -> None:
        self.app.push_screen(UnsavedChangesScreen(question), answered)

    def round_over(self, summary: RoundSummary, board: Board) -> None:
        self.app.push_screen(RoundSummaryScreen(summary, board))

    def game_over(self, summary: RoundSummary, board: Board) -> None:
        self.app.push_screen(GameOverScreen(summary, board))

    def totals(self, view: PlayerView, seats: list[SeatInfo], board: Board) -> None:
        self.app.push_screen(RoundSummaryScreen.totals_only(view, seats, board))

    def close_summaries(self) -> None:
        """Close the round's summary and the game's end (a new round has begun)."""
        for screen in self.app.screen_stack[::-1]:
            if isinstance(screen, (RoundSummaryScreen, GameOverScreen)):
                screen.pop_until_active()  # dismiss() pops the top screen, whichever it is
                screen.dismiss()

    # -- what the server said --------------------------------------------------------------

    def link_changed(self, change: LinkChanged) -> None:
        self._tell_all(partial(LinkState, change))

    def show(self, changed: Changed) -> None:
        """Show what a push changed (``Heard.hear``): the screens to open, the messages."""
        host = self.host
        if changed.held:
            return
        for line in changed.chat:
            self._tell_all(partial(ChatHeard, line))
        if changed.tables:
            self._tell(LobbyScreen, TablesChanged())
        elif changed.who is not None:
            self._tell(LobbyScreen, WhoHeard(changed.who))
        elif changed.lobby_chat:
            self._tell(LobbyScreen, LobbyChatHeard())
        elif changed.table is not None:
            self._table(changed.table, changed)
        elif changed.game is not None:
            board = find_screen(self.app, TableScreen)
            if board is None and host.heard.table is not None:
                board = self._open_table(host.heard.table)
            if board is not None:
                board.post_message(GameUpdate(changed.game))
        elif changed.left is not None:
            reason = changed.left
            known = reason in ("kicked", "closed")
            self.app.notify(host.tr(f"left.{reason}") if known else host.tr("left.other"))
            self.return_to_base()
        elif changed.notice is not None:
            # The server's admin speaks to everyone: on whatever screen is up, for a while.
            self.app.notify(
                changed.notice,
                title=host.tr("notice.title"),
                severity="warning",
                timeout=NOTICE_SECONDS,
            )

    def _table(self, table: dict[str, Any], changed: Changed) -> None:
        status = table.get("status")
        board = find_screen(self.app, TableScreen)
        room = find_screen(self.app, RoomScreen)
        if board is not None:
            # The board shows the story now; no other is to open with it.
            story = self.host.heard.take_story() if changed.story is not None else None
            board.post_message(TableChanged(table, changed.removed, story))
        if room is not None:
            room.post_message(TableChanged(table, changed.removed))
        if status in IN_GAME and board is None:
            self._open_table(table)
        elif status in IN_ROOM and board is None and room is None and not self.host.quick_game:
            self.return_to_base()  # close the dialog that led here (new table, code...)
            self.take_a_seat(RoomScreen(table))

    def _open_table(self, table: dict[str, Any]) -> TableScreen:
        # The story is told by this board (or was of a game before this one).
        board = TableScreen(table, self.host.heard.take_story())
        self.take_a_seat(board)
        return board

    def take_a_seat(self, screen: SkyjoScreen[Any]) -> None:
        """Open a table's room or board.

        It takes the place of the room it follows, and of the lobby it was opened
        from: nobody sees the lobby from a table, and a lobby kept underneath would
        hold its list of every public table for as long as the game lasts (memory
        that counts when a server hosts hundreds of sessions). Leaving the table
        opens a fresh lobby (``return_to_base``).
        """
        top = self.app.screen
        if isinstance(top, (LobbyScreen, RoomScreen)):
            screen.stands_for_lobby = isinstance(top, LobbyScreen) or top.stands_for_lobby
            self.app.switch_screen(screen)
        else:
            self.app.push_screen(screen)

    def _tell(self, kind: type[Screen[Any]], news: ServerNews) -> None:
        """Post ``news`` to the topmost screen of type ``kind``, if one is open."""
        screen = find_screen(self.app, kind)
        if screen is not None:
            screen.post_message(news)

    def _tell_all(self, news: Callable[[], ServerNews]) -> None:
        """Post every open screen its own copy of ``news()`` (a message is posted once);
        those that show nothing of it ignore it."""
        for screen in self.app.screen_stack:
            screen.post_message(news())
