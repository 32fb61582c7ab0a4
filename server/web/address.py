"""Where a phone on the same network finds this machine's page (standard library only).

A page opened on the host's own machine says ``localhost`` in its address, which
means the phone itself on a phone: the tables' links and QR codes name this
machine's network address instead.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket

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
        if not is_loopback(address) and address != "0.0.0.0":
            return address
    return None


def is_loopback(host: str) -> bool:
    """``localhost``, 127.0.0.0/8, ``::1`` (brackets allowed): names only this machine."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def page_address(host: str | None, port: int) -> str:
    """The page's address for another machine: the listening host if one was given,
    else this machine's network address (else its name)."""
    if not host:
        host = lan_address() or socket.gethostname()
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def for_other_machines(host_and_port: str) -> str:
    """A page's ``host[:port]`` as another machine reaches it: a loopback host becomes this
    machine's network address (when it has one)."""
    host, port = _split(host_and_port)
    if not is_loopback(host):
        return host_and_port
    address = lan_address()
    if address is None:
        return host_and_port
    return f"{address}:{port}" if port else address


def _split(host_and_port: str) -> tuple[str, str]:
    if host_and_port.startswith("["):
        host, _, rest = host_and_port.partition("]")
        return host + "]", rest.removeprefix(":")
    host, _, port = host_and_port.partition(":")
    return host, port
