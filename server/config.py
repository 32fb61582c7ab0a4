"""ServerConfig: where the server listens, where it keeps its data, its limits and pace."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import platformdirs

from .listen import IPNetwork
from .protocol import DEFAULT_CHAT_MAX_LENGTH, DEFAULT_MAX_FRAME, DEFAULT_NAME_MAX_LENGTH

APP_NAME = "skyjo"
DATABASE_NAME = "skyjo.sqlite3"


def default_data_dir() -> Path:
    """The platform's user data directory (e.g. ~/.local/share/skyjo on Linux)."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


@dataclass(frozen=True, slots=True)
class Limits:
    """Caps that keep one client from hurting the server or anyone else."""

    max_connections: int = 2000
    max_connections_per_address: int = 32
    max_tables: int = 500
    # Open tables one person, and one network address, may have created (those
    # still open count, their creator seated or not): one address cannot fill
    # the server. In-process connections (the local game, SSH) have no address
    # of their own here, so only the per-person cap applies to them.
    tables_per_player: int = 3
    tables_per_address: int = 10
    tables_page: int = 50  # table summaries in one list_tables reply or lobby push, at most
    max_frame: int = DEFAULT_MAX_FRAME
    messages_per_second: float = 20.0
    message_burst: int = 40
    idle_timeout: float = 300.0  # seconds without a message from the client
    hello_timeout: float = 15.0  # seconds to say hello after connecting
    output_buffer: int = 1024 * 1024  # bytes queued to a client before it is dropped
    chat_max_length: int = DEFAULT_CHAT_MAX_LENGTH
    chat_burst: int = 5  # chat lines at once, refilled at chat_per_second
    chat_per_second: float = 0.5
    max_mutes: int = 200  # players one player may mute (each is stored)
    name_max_length: int = DEFAULT_NAME_MAX_LENGTH
    turn_timer_min: int = 5
    turn_timer_max: int = 600
    # A name that never finished a game and is not reserved is forgotten (its
    # row deleted, the name free again) once unused this long: every drive-by
    # name does not stay in the database for ever.
    forget_guests_after: float = 7 * 24 * 3600.0

    def to_wire(self) -> dict[str, Any]:
        """What a client is told in the welcome."""
        return {
            "max_frame": self.max_frame,
            "messages_per_second": self.messages_per_second,
            "message_burst": self.message_burst,
            "idle_timeout": self.idle_timeout,
            "chat_max_length": self.chat_max_length,
            "max_mutes": self.max_mutes,
            "name_max_length": self.name_max_length,
            "turn_timer_min": self.turn_timer_min,
            "turn_timer_max": self.turn_timer_max,
            "tables_per_player": self.tables_per_player,
            "tables_per_address": self.tables_per_address,
            "tables_page": self.tables_page,
        }


@dataclass(frozen=True, slots=True)
class Pace:
    """How fast tables move on their own (all 0 in tests)."""

    bot_delay: float = 0.8  # seconds between a bot's moves, so people can follow
    grace_period: float = 60.0  # seconds a table waits for a dropped player
    between_rounds: float = 30.0  # seconds before the next round starts anyway
    # Seconds a table with nobody connected at it (no person seated and connected,
    # nobody watching) keeps its seats for them before it closes, in a game or not:
    # long enough to come back after a network blip or a server restart.
    empty_table: float = 120.0
    standin_level: str = ""  # the bot that plays for away players ("": the strongest)


@dataclass(frozen=True, slots=True)
class ServerConfig:
    host: str | None = None  # an address or name to listen on; None: every interface, IPv4 and IPv6
    port: int = 7777
    trusted_proxies: tuple[IPNetwork, ...] = ()
    """TCP load balancers in front of ``port`` whose connections start with a PROXY
    protocol header giving the client's address (``server.proxyheader``)."""
    data_dir: Path | None = None  # None: default_data_dir()
    limits: Limits = field(default_factory=Limits)
    pace: Pace = field(default_factory=Pace)
    # WAL + synchronous=FULL: an acknowledged action survives a power cut too.
    # "normal" survives a killed process (the WAL is in the OS cache) but may
    # lose the last commits on power loss; it is cheaper per commit.
    sync: Literal["full", "normal"] = "full"

    @property
    def data_path(self) -> Path:
        return self.data_dir if self.data_dir is not None else default_data_dir()

    @property
    def database_path(self) -> Path:
        return self.data_path / DATABASE_NAME
