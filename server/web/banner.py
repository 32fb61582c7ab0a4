"""``skyjo-server``'s start banner: the page's address as a QR code, for phones' cameras.

Printed on standard output (the log is on standard error, and a log file
never gets it) when that is a terminal, or with ``--qr``; ``--no-qr`` never.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from skyjo_tui.qr import ansi_qr

from .address import page_address


def show_page_qr(server: Any, wanted: bool | None, out: TextIO | None = None) -> None:
    """Print the started browser door's address as a QR code, and the address, on ``out``
    (standard output); ``wanted`` None: only when that is a terminal."""
    from .door import WebFrontDoor

    out = out or sys.stdout
    if wanted is None:
        wanted = out.isatty()
    door = next((d for d in server.front_doors if isinstance(d, WebFrontDoor)), None)
    if not wanted or door is None:
        return
    host = door.options.host if door.options.host is not None else server.config.host
    address = page_address(host, door.port)
    out.write(f"{ansi_qr(address)}On a phone, scan this or open {address}\n")
    out.flush()
