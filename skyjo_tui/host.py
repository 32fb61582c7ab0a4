"""What a screen may ask of the app, as typed protocols: screens import these, not the app.

``Host`` is the app as the screens and the command palette see it: its words, the
player's keys and preferences, requests to the server, what the server said (``Heard``),
and ``Navigation``: every screen a screen may open, opened by the navigator
(``navigator.py``, the one module that imports screen classes). ``SkyjoApp`` is one
(checked by mypy where the app hands itself to the navigator).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Protocol

from textual.worker import Worker

from server.bots.review import Review
from server.config import Pace
from server.engine import PlayerView

from .heard import Heard
from .i18n import Translator
from .link import Connector, LinkChanged, ServerLink
from .local_game import LocalSetup
from .names import SeatInfo
from .preferences import Preferences
from .replay import Recording
from .sheet import ScoreSheet, SheetShown
from .summary import RoundSummary


@dataclass(frozen=True)
class ClientOptions:
    """How one app runs; see ``app.build_app``."""

    connect: Connector | None = None
    server_label: str = ""
    name: str | None = None
    lang: str | None = None
    environ: Mapping[str, str] = field(default_factory=dict)
    data_dir: Path | None = None
    replay: Path | None = None
    pace: str | None = None
    local_pace: Pace | None = None
    instant_login: bool = False


class Unsaved(Enum):
    """What to do with a form's changes, asked on leaving it (``Navigation.unsaved``): each
    answer is a button's id and a key's action."""

    SAVE = "save"
    DISCARD = "discard"
    KEEP_EDITING = "keep-editing"


class Board(Protocol):
    """The table's board as the dialogs over it (the round's summary, the game's end) see it."""

    score_sheet: ScoreSheet

    @property
    def tr(self) -> Translator: ...
    @property
    def game_id(self) -> int | None: ...
    @property
    def ready_for_round(self) -> bool: ...
    @property
    def next_round_at(self) -> float | None: ...
    def ready_for_next_round(self) -> None: ...
    def sheet_shown(self) -> SheetShown: ...


class Navigation(Protocol):
    """The screens a screen may open (each opened by the navigator, over the one on top)."""

    def help(self) -> None: ...
    def settings(self) -> None: ...
    def keys(self) -> None: ...
    def replay(self, recordings: list[Recording]) -> None: ...
    async def prompt(
        self,
        title: str,
        value: str = "",
        reason: str = "",
        *,
        max_length: int = 0,
        placeholder: str = "",
    ) -> str | None: ...
    def review(
        self,
        record: Mapping[str, Any],
        seat: int,
        done: Callable[[int | None, Review | None], None],
    ) -> None: ...
    def review_then_replay(self, record: dict[str, Any], seeded: bool, seat: int) -> None: ...
    def setup(self) -> None: ...
    def join(self) -> None: ...
    def stats(self) -> None: ...
    def create_table(self) -> None: ...
    def confirm(self, question: str, answered: Callable[[bool | None], None]) -> None: ...
    def unsaved(self, question: str, answered: Callable[[Unsaved | None], None]) -> None: ...
    def round_over(self, summary: RoundSummary, board: Board) -> None: ...
    def game_over(self, summary: RoundSummary, board: Board) -> None: ...
    def totals(self, view: PlayerView, seats: list[SeatInfo], board: Board) -> None: ...
    def close_summaries(self) -> None: ...


class Host(Protocol):
    """The app, as a screen sees it."""

    options: ClientOptions
    tr: Translator
    keymap: dict[str, str]
    prefs: Preferences
    session: ServerLink | None
    heard: Heard
    touch: bool
    in_page: bool
    page: str

    @property
    def nav(self) -> Navigation: ...
    @property
    def player_id(self) -> int | None: ...
    @property
    def quick_game(self) -> bool: ...
    @property
    def chat_max_length(self) -> int: ...

    async def call(
        self, message: dict[str, Any], *, quiet: bool = False
    ) -> dict[str, Any] | None: ...
    async def call_in_dialog(
        self, message: dict[str, Any]
    ) -> tuple[dict[str, Any] | None, str]: ...
    def save_prefs(self, prefs: Preferences) -> None: ...
    def set_keys(self, keymap: Mapping[str, str]) -> None: ...
    def set_theme(self, theme: str) -> None: ...
    def set_language(self, lang: str) -> Worker[None]: ...
    def remember_server(self, label: str, name: str | None) -> None: ...
    def go_online(self, connect: Connector, label: str, name: str | None) -> Worker[None]: ...
    def leave_table(self) -> Worker[None]: ...
    def disconnect(self) -> Worker[None]: ...
    async def ensure_local_session(self) -> bool: ...
    def start_local_game(self, setup: LocalSetup) -> Worker[None]: ...
    def return_words(self, key: str) -> str: ...
    def reconnecting_words(self, change: LinkChanged) -> str: ...
    def session_server_name(self) -> str: ...
    def turn_is_mine(self, mine: bool) -> None: ...
    def check_size(self) -> None: ...
    def tell_page_about_typing(self) -> None: ...
    def action_help(self) -> None: ...
