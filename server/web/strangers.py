"""What the browser door refuses from strangers, said without flooding the log.

Anyone on the Internet can open the door's port and send anything: a bad
request, a TLS hello on the HTTP port, a message nested 30,000 deep,
thousands of idle connections.  Each is refused cheaply, and none writes a
traceback: a ``RefusalLog`` counts them and says so in one WARNING line at
most once a minute (with the count since the last one), so a scanner or a
flood costs the log a line a minute, not a line a request.
"""

from __future__ import annotations

import logging
from typing import Any

from aiohttp.http_exceptions import HttpProcessingError

from ..ratelog import RefusalLog


class HttpErrorLog(logging.LoggerAdapter[logging.Logger]):
    """aiohttp's server logger for the door (``AppRunner(logger=...)``).

    aiohttp logs every request it cannot parse (a control character in a
    header, a header over 8 KiB, garbage) with its traceback at ERROR, then
    answers 400 itself.  Those are a stranger's, not the server's: they go to
    ``bad_requests``.  Any other exception (one of the door's own handlers
    failing) is still logged as aiohttp logs it.
    """

    def __init__(self, logger: logging.Logger, bad_requests: RefusalLog) -> None:
        super().__init__(logger, {})
        self.bad_requests = bad_requests

    def exception(self, msg: object, *args: Any, exc_info: Any = True, **kwargs: Any) -> None:
        if isinstance(exc_info, HttpProcessingError):
            remote = args[0] if args else "?"
            self.bad_requests.refused(f"{remote}: {_reason(exc_info)}")
            return
        super().exception(msg, *args, exc_info=exc_info, **kwargs)


def _reason(exc: HttpProcessingError) -> str:
    """The error's words, short and on one line (they may quote the stranger's bytes)."""
    words = " ".join(str(exc.message or type(exc).__name__).split())
    return ascii(words[:120])


__all__ = ["HttpErrorLog", "RefusalLog"]
