"""ServerConfig: where the server listens, where it keeps its data, its limits and pace."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import platformdirs

from .protocol import DEFAULT_MAX_FRAME

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
    max_frame: int = DEFAULT_MAX_FRAME
    messages_per_second: float = 20.0
    message_burst: int = 40
    idle_timeout: float = 300.0  # seconds without a message from the client
    hello_timeout: float = 15.0  # seconds to say hello after connecting
    output_buffer: int = 1024 * 1024  # bytes queued to a client before it is dropped
    chat_max_length: int = 300
    chat_burst: int = 5  # chat lines at once, refilled at chat_per_second
    chat_per_second: float = 0.5
    max_mutes: int = 200  # players one player may mute (each is stored)
    name_max_length: int = 20
    turn_timer_min: int = 5
    turn_timer_max: int = 600

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
        }


@dataclass(frozen=True, slots=True)
class Pace:
    """How fast tables move on their own (all 0 in tests)."""

    bot_delay: float = 0.8  # seconds between a bot's moves, so people can follow
    grace_period: float = 60.0  # seconds a table waits for a dropped player
    between_rounds: float = 30.0  # seconds before the next round starts anyway
    empty_table: float = 300.0  # seconds a table not in play stays with nobody at it
    abandon_after: float = 3600.0  # seconds a game in play stays with nobody at it
    standin_level: str = ""  # the bot that plays for away players ("": the strongest)


@dataclass(frozen=True, slots=True)
class ServerConfig:
    host: str | None = None  # an address or name to listen on; None: every interface, IPv4 and IPv6
    port: int = 7777
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

