"""The Prometheus endpoint (``skyjo-server --metrics-port``): what the server is doing now.

Loaded only when the endpoint is on, so ``prometheus-client`` is needed only
then. The figures are read from the structures that own them at the moment
of a scrape (``SkyjoCollector``), never counted on the side:

- ``skyjo_players_online{door}``: players connected now, by their
  connection's door (``Session.door``: tcp, local, ssh, web);
- ``skyjo_tables{phase}``: tables by status (waiting, playing, between_rounds,
  finished);
- ``skyjo_terminal_sessions{door}``: screens served by the shared host
  (``SessionHost.sessions``), by ``DoorPlayer.door`` (ssh, web);
- ``skyjo_worker_processes``: the worker processes running those screens.

Events are counted as they happen: ``skyjo_moves_total`` (``rate()`` of it
is moves per second), ``skyjo_move_broadcast_seconds`` (a histogram: from a
move's arrival to its push to everyone at the table, its commit included) and
``skyjo_database_write_seconds`` (a histogram: each transaction of the
database's writer, one fsync). The ``process_*`` figures are the library's.

The endpoint is a small HTTP/1.1 server on the event loop (``GET /metrics``),
so a scrape reads the lobby on the loop's own thread, as every request does.
Like a front door it starts after the lobby is loaded and stops before the
store closes.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import logging
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Protocol

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from .lobby.session import LOCAL, TCP
from .protocol import TableStatus

if TYPE_CHECKING:
    from .app import SkyjoServer
    from .termhost.hosted import SessionHost

logger = logging.getLogger(__name__)

#: Doors shown even when nobody came in by them (a series that appears from nowhere
#: is harder to graph); a door not listed here is shown once someone uses it.
TERMINAL_DOORS = ("ssh", "web")
DOORS = (TCP, LOCAL, *TERMINAL_DOORS)
PHASES = tuple(TableStatus)
REQUEST_TIMEOUT = 5.0  # seconds a scraper has to send its request
MAX_REQUEST = 8192  # bytes of request line and headers
#: Seconds: a move is pushed in about a millisecond, a commit waits on an fsync.
BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class HostsScreens(Protocol):
    """What serves the terminal doors' screens (``server.doors.host.GameHost``)."""

    @property
    def host(self) -> SessionHost | None: ...


class SkyjoCollector(Collector):
    """The server's state, read when scraped (on the event loop's thread)."""

    def __init__(self, server: SkyjoServer, screens: HostsScreens | None) -> None:
        self._server = server
        self._screens = screens

    def collect(self) -> Iterator[Metric]:
        # Per role (server.link): a lobby's tables and players, a door host's screens and
        # link, ``skyjo-server``'s all of them.
        lobby = getattr(self._server, "lobby", None)
        if lobby is not None:
            yield from self._lobby(lobby)
        gate = getattr(self._server, "gate", None)
        if gate is not None:
            yield GaugeMetricFamily(
                "skyjo_door_hosts_linked", "Door hosts linked to this lobby", value=len(gate.links)
            )
        link = getattr(self._server, "link", None)
        if link is not None:
            yield GaugeMetricFamily(
                "skyjo_lobby_linked",
                "1 while this door host is linked to its lobby",
                value=1 if link.linked.is_set() else 0,
            )
        yield from self._screens_metrics()

    @staticmethod
    def _lobby(lobby: Any) -> Iterator[Metric]:
        yield _by_label(
            "skyjo_players_online",
            "Players connected now, by the door they came in by",
            "door",
            DOORS,
            collections.Counter(session.door for session in lobby.places.online()),
        )
        yield _by_label(
            "skyjo_tables",
            "Tables, by phase",
            "phase",
            PHASES,
            collections.Counter(table.status for table in lobby.tables.values()),
        )

    def _screens_metrics(self) -> Iterator[Metric]:
        host = None if self._screens is None else self._screens.host
        sessions = [] if host is None else host.sessions
        yield _by_label(
            "skyjo_terminal_sessions",
            "Terminal screens served now (SSH, browser), by door",
            "door",
            TERMINAL_DOORS,
            collections.Counter(session.player.door for session in sessions),
        )
        pool = None if host is None else host.pool
        yield GaugeMetricFamily(
            "skyjo_worker_processes",
            "Worker processes running players' screens",
            value=0 if pool is None else len(pool.workers),
        )


def _by_label(
    name: str, text: str, label: str, always: tuple[str, ...], counts: collections.Counter[str]
) -> GaugeMetricFamily:
    gauge = GaugeMetricFamily(name, text, labels=[label])
    for value in sorted(set(always) | set(counts)):
        gauge.add_metric([value], counts[value])
    return gauge


class MetricsEndpoint:
    """A ``server.app.FrontDoor``-shaped part: ``start(server)``, ``stop()``.

    ``port`` 0 takes a free port: ``port`` holds the real one once started.
    """

    def __init__(self, host: str, port: int, screens: HostsScreens | None = None) -> None:
        self.host = host
        self.port = port
        self._screens = screens
        self.registry = CollectorRegistry(auto_describe=False)
        self.moves = Counter(
            "skyjo_moves", "Moves played (rate() gives moves per second)", registry=self.registry
        )
        self.move_latency = Histogram(
            "skyjo_move_broadcast_seconds",
            "Seconds from a move's arrival to its push to everyone at the table",
            buckets=BUCKETS,
            registry=self.registry,
        )
        self.database_writes = Histogram(
            "skyjo_database_write_seconds",
            "Seconds each database transaction took, BEGIN to COMMIT",
            buckets=BUCKETS,
            registry=self.registry,
        )
        ProcessCollector(registry=self.registry)
        self._server: SkyjoServer | None = None
        self._listener: asyncio.base_events.Server | None = None
        self._requests: set[asyncio.Task[None]] = set()

    def _moved(self, seconds: float) -> None:
        self.moves.inc()
        self.move_latency.observe(seconds)

    async def bind(self, server: SkyjoServer) -> None:
        """Bind the port (nobody can connect yet); raises ``OSError`` when the
        address or port is unusable."""
        if self._listener is not None:
            return
        self._listener = await asyncio.start_server(
            self._serve, self.host, self.port, limit=MAX_REQUEST, start_serving=False
        )
        self.port = self._listener.sockets[0].getsockname()[1]

    async def start(self, server: SkyjoServer) -> None:
        """Listen; raises ``OSError`` when the address or port is unusable."""
        await self.bind(server)
        assert self._listener is not None
        await self._listener.start_serving()
        self.registry.register(SkyjoCollector(server, self._screens))
        self._server = server
        if hasattr(server, "store"):  # a door host (server.link) has no lobby, no store
            server.lobby.move_observers.append(self._moved)
            server.store.write_observers.append(self.database_writes.observe)
        logger.info("metrics on http://%s:%d/metrics", _url_host(self.host), self.port)

    async def stop(self) -> None:
        server, self._server = self._server, None
        if server is not None and hasattr(server, "store"):
            with contextlib.suppress(ValueError):
                server.lobby.move_observers.remove(self._moved)
            with contextlib.suppress(ValueError):
                server.store.write_observers.remove(self.database_writes.observe)
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.close()
        for task in list(self._requests):
            task.cancel()
        await asyncio.gather(*self._requests, return_exceptions=True)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._requests.add(task)
        try:
            async with asyncio.timeout(REQUEST_TIMEOUT):  # to ask, and to take the answer
                head = await reader.readuntil(b"\r\n\r\n")
                writer.write(self._answer(head.split(b"\r\n", 1)[0]))
                await writer.drain()
        except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, OSError):
            pass  # a scraper that does not finish its request, or goes away, gets nothing
        finally:
            self._requests.discard(task)
            writer.close()

    def _answer(self, request_line: bytes) -> bytes:
        parts = request_line.decode("latin-1").split(" ")
        if len(parts) != 3:
            return _response(400, "text/plain", b"bad request\n")
        method, target, _ = parts
        if target.split("?", 1)[0] not in ("/", "/metrics"):
            return _response(404, "text/plain", b"the metrics are at /metrics\n")
        if method not in ("GET", "HEAD"):
            return _response(405, "text/plain", b"GET only\n")
        body = generate_latest(self.registry)
        return _response(200, CONTENT_TYPE_LATEST, b"" if method == "HEAD" else body, len(body))


REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed"}


def _response(status: int, content_type: str, body: bytes, length: int | None = None) -> bytes:
    head = (
        f"HTTP/1.1 {status} {REASONS[status]}\r\nContent-Type: {content_type}\r\n"
        f"Content-Length: {len(body) if length is None else length}\r\nConnection: close\r\n\r\n"
    )
    return head.encode("latin-1") + body


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def attach_metrics(
    server: SkyjoServer, args: argparse.Namespace, screens: HostsScreens | None
) -> None:
    """``skyjo-server``: the endpoint, after the doors (it starts last, stops first)."""
    server.add_front_door(MetricsEndpoint(args.metrics_host, args.metrics_port, screens))


__all__ = ["MetricsEndpoint", "SkyjoCollector", "attach_metrics"]
