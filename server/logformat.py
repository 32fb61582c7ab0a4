"""How ``skyjo-server`` writes its log: text for people, or JSON lines for a collector.

``--log-format json`` writes one JSON object per line, so a log shipper
(journald's ``-o cat``, Loki, Vector...) takes each record whole, a traceback
included, without guessing where a multi-line message ends.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Final

TEXT_FORMAT: Final = "%(asctime)s %(levelname)s %(name)s: %(message)s"
LOG_FORMATS: Final = ("text", "json")


class JsonLineFormatter(logging.Formatter):
    """One record, one line: ``{"time", "level", "logger", "message"}``, plus
    ``"exception"`` (the traceback's text) and ``"stack"`` when the record has them."""

    def __init__(self, prefix: str = "") -> None:
        super().__init__()
        self.prefix = prefix
        """Put before every message (a worker process's ``worker 1234: ``)."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, str] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": self.prefix + record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        # ensure_ascii: a name or a table name never breaks the line (every newline is escaped)
        return json.dumps(entry, ensure_ascii=True)


def current_log_format() -> str:
    """The format this process logs in ("json" once ``configure_logging`` chose it):
    what its worker processes must write too, into the same stderr."""
    handlers = logging.getLogger().handlers
    return "json" if any(isinstance(h.formatter, JsonLineFormatter) for h in handlers) else "text"


def configure_worker_logging(level: int, log_format: str, label: str) -> None:
    """A worker process's root logger: the server's format, each line saying which worker."""
    handler = logging.StreamHandler(sys.stderr)
    if log_format == "json":
        handler.setFormatter(JsonLineFormatter(prefix=f"{label}: "))
    else:
        handler.setFormatter(
            logging.Formatter(f"%(asctime)s {label} %(levelname)s %(name)s: %(message)s")
        )
    logging.basicConfig(level=level, handlers=[handler])


def configure_logging(level: str, log_format: str) -> None:
    """The root logger on stderr at ``level``, in ``log_format`` ("text" or "json")."""
    handler = logging.StreamHandler(sys.stderr)
    if log_format == "json":
        handler.setFormatter(JsonLineFormatter())
    else:
        handler.setFormatter(logging.Formatter(TEXT_FORMAT))
    logging.basicConfig(level=level.upper(), handlers=[handler])
