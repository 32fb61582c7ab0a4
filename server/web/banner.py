"""``skyjo-server``'s start banner: the page's address as a QR code, for phones' cameras.

Printed on standard output (the log is on standard error, and a log file
never gets it) when that is a terminal, or with ``--qr``; ``--no-qr`` never.
"""

from __future__ import annotations

import contextlib
import socket
import sys
from typing import Any, TextIO

from skyjo_tui.qr import ansi_qr

#: An address of TEST-NET-1 (RFC 5737): a UDP socket "connected" there learns which of
#: this machine's addresses leads out, and sends nothing.
_OUTSIDE = ("192.0.2.1", 9)


def lan_address() -> str | None:
    """This machine's address on its network, as a phone on the same Wi-Fi reaches it
    (None offline: no route out)."""
    with (
        contextlib.suppress(OSError),
        socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe,
    ):
        probe.connect(_OUTSIDE)
        address = str(probe.getsockname()[0])
        if not address.startswith("127.") and address != "0.0.0.0":
            return address
    return None


def page_address(host: str | None, port: int) -> str:
    """The page's address for another machine: the listening host if one was given,
    else this machine's network address (else its name)."""
    if not host:
        host = lan_address() or socket.gethostname()
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


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
