"""A Textual driver that talks to one player's terminal (an SSH channel, a
browser's WebSocket, a relay to a worker) instead of the process terminal.

Textual's stock drivers (``LinuxDriver`` and friends) assume they own the
process: they read ``sys.__stdin__``, write ``sys.__stderr__``, call
``termios`` on the server's own tty and install process-wide signal handlers
(SIGTSTP, SIGCONT, SIGWINCH...).  With many apps in one server process each of
those is wrong, so this driver does none of it:

* output goes to ``ChannelTerminal.write`` (the door's transport, with a cap on
  its write buffer and a deadline for it to drain, so a client that stops
  reading is dropped), a frame in one write;
* input arrives from the door's callback on the event loop and is parsed with
  Textual's own ``XTermParser`` (minus its leaky cache, see ``SessionXTermParser``),
  then handed to the app, which takes the keys of one read in turn if it is an
  ``InputInTurnApp`` (``keyturns``: Textual would apply them out of order);
* window-change requests become ``events.Resize``, clamped to sane bounds,
  coalesced and budgeted (each costs input budget; a few are applied at once,
  then one a second, the last size winning).

Everything here runs on the event loop thread; there are no helper threads.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import logging
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import (
    TYPE_CHECKING,
    Any,
    BinaryIO,
    Final,
    Literal,
    Protocol,
    TextIO,
)

from textual import constants, events
from textual._xterm_parser import XTermParser
from textual.driver import Driver
from textual.geometry import Size
from textual.message import Message

from ..limits import TokenBucket
from ..ratelog import RefusalLog
from .keyturns import InputInTurnApp
from .options import (
    DEFAULT_PENDING_INPUT_CAP,
    DEFAULT_WRITE_BUFFER_CAP,
    INPUT_SLICE,
    MAX_SIZE,
    MIN_SIZE,
    REQUEST_COST,
)

if TYPE_CHECKING:
    from textual.app import App

logger = logging.getLogger(__name__)

NON_READERS: Final = RefusalLog(logger, "sessions dropped: their client did not read")
"""Each door's clients that stop reading (any stranger can): one WARNING a minute."""

RESIZE_INTERVAL: Final = 0.1
"""Seconds between two layouts for window changes at least (a flood of them is
coalesced); the resize budget spaces them further."""

# Progressive enhancement flags for the kitty keyboard protocol; same set as
# Textual's LinuxDriver (disambiguate | report all keys | associated text).
_KITTY_FLAGS: Final = 0b00001 | 0b01000 | 0b10000
FRAME_START: Final = "\x1b[?2026h"
FRAME_END: Final = "\x1b[?2026l"
"""A synchronized update's start and end: the terminal shows the frame between at once."""
# asyncio may run a timer up to one clock tick early; the parser's own clock
# must have passed its escape deadline when we tick it.
_TICK_MARGIN: Final = 0.01


def clamp_size(
    width: int,
    height: int,
    min_size: tuple[int, int] = MIN_SIZE,
    max_size: tuple[int, int] = MAX_SIZE,
) -> tuple[int, int]:
    """Clamp a client-reported terminal size into ``[min_size, max_size]``.

    Clients may report 0x0 (no size known) or absurd sizes; both would break
    layout or cost a lot of rendering, so every size goes through here.
    """
    min_w, min_h = min_size
    max_w, max_h = max_size
    return (min(max(int(width), min_w), max_w), min(max(int(height), min_h), max_h))


class SessionXTermParser(XTermParser):
    """``XTermParser`` without the class-level ``lru_cache`` on key parsing.

    Textual decorates ``XTermParser._parse_extended_key`` with
    ``functools.lru_cache(maxsize=1024)``.  That cache is shared by every
    parser in the process and is keyed on ``self``: it keeps up to 1024 dead
    parsers alive, and the cached ``events.Key`` objects hold ``_sender`` -
    whatever message pump was active when they were created, which for an
    in-process driver can be the app itself.  In a long-running server that
    means finished apps are never freed.  Parsing one key sequence is a regex
    match, so we simply call the undecorated function.
    """

    _parse_extended_key = getattr(
        XTermParser._parse_extended_key,  # noqa: SLF001 - (private.py)
        "__wrapped__",
        XTermParser._parse_extended_key,  # noqa: SLF001 - (private.py)
    )

    def __init__(self) -> None:
        # debug=False always: debug mode appends every keystroke of every
        # player to ./keys.log on the server.
        super().__init__(debug=False)


class ChannelLike(Protocol):
    """What the terminal needs from a door's connection (``session.TerminalTransport``)."""

    def write(self, data: bytes) -> None: ...

    def get_write_buffer_size(self) -> int: ...

    def is_closing(self) -> bool: ...

    def abort(self) -> None: ...

    def pause_reading(self) -> None: ...

    def resume_reading(self) -> None: ...


class InputReceiver(Protocol):
    """Where a terminal sends input and window sizes: the app's ``TerminalDriver``,
    or ``relay.RemoteApp`` when the app runs in a worker process."""

    def feed(self, text: str) -> None: ...

    def resize(self, width: int, height: int) -> None: ...

    def _cancel_tick(self) -> None: ...


class ChannelTerminal:
    """The door's side of one session's terminal: channel, size and input routing.

    It outlives individual drivers: input that arrives before the app's driver
    is running is buffered (bounded) and handed over on ``attach``.  When the
    driver stops, ``detach`` drops the reference so a finished app is not kept
    alive by the session.  With an ``input_budget``, a client typing faster
    than the budget allows has its channel paused (flow control: SSH windows, TCP backpressure) until
    the budget refills.

    Every byte queued to the client counts, whoever queued it: the app's output
    through ``write``, the door's own (a pong, a ping) through ``output_queued``.
    Over ``write_buffer_cap`` queued, or with output queued and none of it sent
    for ``write_deadline`` seconds, the client is dropped.  Likewise every
    request counts against the input budget: keys (``feed``), window changes
    (``resize``) and the door's other requests (``charge``).
    """

    def __init__(
        self,
        channel: ChannelLike,
        size: tuple[int, int],
        *,
        env: dict[str, str] | None = None,
        write_buffer_cap: int = DEFAULT_WRITE_BUFFER_CAP,
        pending_input_cap: int = DEFAULT_PENDING_INPUT_CAP,
        min_size: tuple[int, int] = MIN_SIZE,
        max_size: tuple[int, int] = MAX_SIZE,
        on_close: Callable[[str], None] | None = None,
        input_budget: TokenBucket | None = None,
        resize_budget: TokenBucket | None = None,
        write_deadline: float | None = None,
    ) -> None:
        self._channel = channel
        self._input_budget = input_budget
        self._resize_budget = resize_budget
        self._write_deadline = write_deadline
        self._written = 0
        """Bytes queued to the channel so far (the app's and the door's)."""
        self._drain_handle: asyncio.TimerHandle | None = None
        self._drain_mark = (0, 0)
        """``_written`` and the channel's buffered bytes when the drain timer was armed."""
        self._resume_handle: asyncio.TimerHandle | None = None
        self._resize_handle: asyncio.TimerHandle | None = None
        self._last_resize = 0.0
        self.last_input = time.monotonic()
        """``time.monotonic()`` of the last input (or of creation): for idle checks."""
        self.input_pauses = 0
        """How often the client was paused for sending too fast."""
        self._min_size = min_size
        self._max_size = max_size
        self.size = clamp_size(*size, min_size, max_size)
        self.env: dict[str, str] = dict(env or {})
        self._write_buffer_cap = write_buffer_cap
        self._pending_input_cap = pending_input_cap
        self._on_close = on_close
        self._decode = codecs.getincrementaldecoder("utf-8")(errors="replace").decode
        self._pending: list[str] = []
        self._pending_len = 0
        self._backlog: list[str] = []
        """Input received, not yet handed on (``INPUT_SLICE`` per turn of the loop)."""
        self._slice_handle: asyncio.Handle | None = None
        self._driver: InputReceiver | None = None
        self.closed = False
        self.overflowed = False

    # -- output ---------------------------------------------------------------

    def write(self, text: str) -> None:
        """Send text to the client, dropping the session if it stops reading."""
        if text:
            self._send(text.encode("utf-8", "replace"))

    def write_bytes(self, data: bytes) -> None:
        """Send output already encoded (UTF-8), e.g. relayed from a worker process."""
        if data:
            self._send(data)

    def _send(self, data: bytes) -> None:
        if self.closed:
            return
        if self._channel.is_closing():
            self.close("channel closed")
            return
        try:
            self._channel.write(data)
        except OSError:
            self.close("channel closed while writing")
            return
        self.output_queued(len(data))

    def output_queued(self, amount: int = 0) -> None:
        """``amount`` more bytes were queued to the client (the door's own: a
        pong, a ping; ``write`` calls it for the app's): hold the channel's
        whole backlog to the cap, and to the deadline to drain."""
        if self.closed:
            return
        self._written += amount
        buffered = self._channel.get_write_buffer_size()
        if buffered > self._write_buffer_cap:
            self._overflow(
                f"write buffer above {self._write_buffer_cap} bytes", "write buffer cap exceeded"
            )
        elif buffered > 0 and self._drain_handle is None and self._write_deadline is not None:
            self._drain_mark = (self._written, buffered)
            loop = asyncio.get_running_loop()
            self._drain_handle = loop.call_later(self._write_deadline, self._check_drained)

    def _check_drained(self) -> None:
        """The deadline passed with output queued: did any of it leave since?"""
        self._drain_handle = None
        if self.closed:
            return
        buffered = self._channel.get_write_buffer_size()
        if buffered <= 0:
            return  # armed again by the next output
        written, before = self._drain_mark
        sent = (self._written - written) - (buffered - before)
        if sent <= 0:
            self._overflow(
                f"nothing sent for {self._write_deadline:.0f} s", "write deadline passed"
            )
        else:
            self.output_queued()  # a slow client, but a reading one: watch the rest

    def _overflow(self, why: str, reason: str) -> None:
        """The client is not reading: abort rather than buffer without limit."""
        self.overflowed = True
        logger.info("%s (client not reading); dropping session", why)
        NON_READERS.refused(why)
        self.close(reason)
        with contextlib.suppress(OSError):
            self._channel.abort()  # discard the backlog instead of flushing it

    def close(self, reason: str) -> None:
        """Stop all further output and input; tell the owner once."""
        if self.closed:
            return
        self.closed = True
        self._pending.clear()
        self._pending_len = 0
        self._backlog.clear()
        driver, self._driver = self._driver, None
        if driver is not None:
            driver._cancel_tick()  # noqa: SLF001 - the module's own (InputReceiver)
        handles = (self._resume_handle, self._resize_handle, self._slice_handle, self._drain_handle)
        for handle in handles:
            if handle is not None:
                handle.cancel()
        self._resume_handle = self._resize_handle = self._slice_handle = None
        self._drain_handle = None
        if self._on_close is not None:
            self._on_close(reason)

    # -- input ----------------------------------------------------------------

    def feed(self, data: bytes | str) -> None:
        """Route client input to the driver (or buffer it until one attaches)."""
        if self.closed:
            return
        self.last_input = time.monotonic()
        self._charge_input(len(data))
        text = self._decode(data) if isinstance(data, bytes) else data
        if not text:
            return
        if self._driver is not None:
            self._hand_on(text)
        elif self._pending_len + len(text) <= self._pending_input_cap:
            self._pending.append(text)
            self._pending_len += len(text)

    def _hand_on(self, text: str) -> None:
        """Give ``text`` to the driver, a slice per turn of the loop when it is long.

        The input budget pauses a client that sends too much, but what it has
        sent is handed on: a whole SSH chunk (up to 32 KiB) parsed at once is
        thousands of key events in one go, and every other session of the
        process waits for them.
        """
        if self._backlog or len(text) > INPUT_SLICE:
            self._backlog.append(text)
            if self._slice_handle is None:
                self._next_slice()
        elif self._driver is not None:
            self._driver.feed(text)

    def _next_slice(self) -> None:
        self._slice_handle = None
        driver = self._driver
        if driver is None or self.closed or not self._backlog:
            return  # kept for the next driver (``attach``), or dropped by ``close``
        first = self._backlog[0]
        if len(first) > INPUT_SLICE:
            self._backlog[0] = first[INPUT_SLICE:]
            first = first[:INPUT_SLICE]
        else:
            del self._backlog[0]
        if self._backlog:
            self._slice_handle = asyncio.get_running_loop().call_soon(self._next_slice)
        driver.feed(first)

    def charge(self, amount: int) -> None:
        """A request from the client that is not input (a ping, a message the door
        ignored) costs ``amount`` characters of the input budget, and at least
        ``REQUEST_COST``."""
        if not self.closed:
            self._charge_input(max(amount, REQUEST_COST))

    def _charge_input(self, amount: int) -> None:
        """Spend input budget; over budget, stop reading until it refills."""
        if self._input_budget is None:
            return
        pause = self._input_budget.spend(amount)
        if pause <= 0 or self._resume_handle is not None:
            return
        self._channel.pause_reading()
        self.input_pauses += 1
        if self.input_pauses == 1:
            # In ms: most pauses are a few of them ("0.00 s" read as no pause at all).
            logger.info("client sends input too fast; pausing it for %.1f ms", pause * 1000)
        loop = asyncio.get_running_loop()
        self._resume_handle = loop.call_later(pause, self._resume_reading)

    def _resume_reading(self) -> None:
        self._resume_handle = None
        if not self.closed:
            self._channel.resume_reading()  # delivers what queued meanwhile

    def resize(self, width: int, height: int) -> None:
        """Apply a window-change request (clamped, coalesced, budgeted).

        Each resize lays the whole app out again: a client sending window
        changes in a loop would cost every player of its process.  A request
        costs ``REQUEST_COST`` of the input budget like any other; sizes are
        applied at most one every ``RESIZE_INTERVAL`` and as the resize budget
        allows (a few at once, then ``resize_rate`` a second; the host shares
        one budget among the sessions of a client address), and until then
        only the latest size is kept: the last one wins.
        """
        if self.closed:
            return
        self._charge_input(REQUEST_COST)
        self.size = clamp_size(width, height, self._min_size, self._max_size)
        if self._resize_handle is not None:
            return  # the pending one will apply the latest size
        wait = self._last_resize + RESIZE_INTERVAL - time.monotonic()
        if self._resize_budget is not None:
            wait = max(wait, self._resize_budget.delay())
        if wait > 0:
            self._resize_handle = asyncio.get_running_loop().call_later(wait, self._apply_size)
        else:
            self._apply_size()

    def _apply_size(self) -> None:
        self._resize_handle = None
        if self._resize_budget is not None and not self._resize_budget.take():
            # asyncio may run a timer a hair early: wait for the token.
            delay = max(self._resize_budget.delay(), _TICK_MARGIN)
            self._resize_handle = asyncio.get_running_loop().call_later(delay, self._apply_size)
            return
        self._last_resize = time.monotonic()
        if self._driver is not None and not self.closed:
            self._driver.resize(*self.size)

    def attach(self, driver: InputReceiver) -> None:
        """Make ``driver`` the receiver of input; replay what arrived early."""
        if self.closed:
            return
        self._driver = driver
        pending, self._pending, self._pending_len = self._pending, [], 0
        if self._backlog and self._slice_handle is None:
            self._next_slice()  # left by the driver before (received before the pending input)
        if pending:
            self._hand_on("".join(pending))

    def detach(self, driver: InputReceiver) -> None:
        """Stop routing input to ``driver`` (it is shutting down)."""
        if self._driver is driver:
            self._driver = None


class TerminalDriver(Driver):
    """Textual driver bound to a ``ChannelTerminal``.

    Textual constructs drivers itself as ``driver_class(app, debug=, mouse=,
    size=)``; the session binds the terminal with ``functools.partial`` (see
    ``server.termhost.hosted``).
    """

    def __init__(
        self,
        app: App[Any],
        *,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
        terminal: ChannelTerminal,
    ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size or terminal.size)
        self._terminal = terminal
        self._frame: list[str] | None = None
        """The frame being written, from its ``FRAME_START`` (see ``write``)."""
        self._parser: SessionXTermParser | None = None
        self._tick_handle: asyncio.TimerHandle | None = None

    # -- Driver API -------------------------------------------------------------

    def write(self, data: str) -> None:
        # Textual writes a frame in three pieces when the terminal has synchronized
        # updates: the start, the frame, the end, in one call of its own. Sent as one
        # piece, a frame is one relay message, one SSH packet or WebSocket message and
        # one send, not three of each.
        frame = self._frame
        if frame is not None:
            frame.append(data)
            if data == FRAME_END:
                self._end_frame()
        elif data == FRAME_START:
            self._frame = [data]
        else:
            self._terminal.write(data)

    def _end_frame(self) -> None:
        frame, self._frame = self._frame, None
        if frame:
            self._terminal.write("".join(frame))

    def start_application_mode(self) -> None:
        """Enter the alternate screen, enable input modes, start routing input."""
        write = self.write
        write("\x1b[?1049h")  # alternate screen
        self._enable_mouse_support()
        write("\x1b[?25l")  # hide cursor
        write("\x1b[?1004h")  # focus in/out reports
        if not constants.DISABLE_KITTY_KEY:
            write(f"\x1b[>{_KITTY_FLAGS}u")
        # Ask whether the terminal supports synchronized output.  The player's
        # TERM_PROGRAM matters here, not ours: Apple Terminal prints a stray 'p'.
        if self._terminal.env.get("TERM_PROGRAM") != "Apple_Terminal":
            write("\x1b[?2026$p")
        write("\x1b[?2004h")  # bracketed paste
        write("\x1b[?7l")  # no line wrap
        self._parser = SessionXTermParser()
        self.resize(*self._terminal.size)
        self._terminal.attach(self)

    def disable_input(self) -> None:
        self._terminal.detach(self)
        self._cancel_tick()
        self._parser = None

    def stop_application_mode(self) -> None:
        """Restore the client's terminal to how we found it."""
        self.disable_input()
        self._end_frame()  # a frame cut short by an error still ends
        write = self.write
        write("\x1b[?2004l")  # bracketed paste off
        write("\x1b[?7h")  # line wrap on
        self._disable_mouse_support()
        if not constants.DISABLE_KITTY_KEY:
            write("\x1b[<u")  # pop kitty keyboard mode (before leaving alt screen)
        write("\x1b[?1049l")  # main screen
        write("\x1b[?25h")  # show cursor
        write("\x1b[?1004l")  # focus reports off

    def close(self) -> None:
        self.disable_input()

    def send_message(self, message: Message) -> None:
        # The base class assumes an input *thread* and goes through
        # run_coroutine_threadsafe; we are already on the loop thread.
        app = self._app
        if isinstance(app, InputInTurnApp):
            app.post_input(message)  # in turn, as from any other driver
        else:
            app.post_message(message)

    # -- things that would act on the *server* machine --------------------------

    def open_url(self, url: str, new_tab: bool = True) -> None:
        """Refused: the stock driver would open a browser on the server."""
        logger.info("open_url refused for a hosted session: %r", url)

    def deliver_binary(
        self,
        binary: BinaryIO | TextIO,
        *,
        delivery_key: str,
        save_path: Path,
        open_method: Literal["browser", "download"] = "download",
        encoding: str | None = None,
        mime_type: str | None = None,
        name: str | None = None,
    ) -> None:
        """Refused: the stock driver would write a file on the server's disk."""
        logger.info("file delivery refused for a hosted session: %s", save_path)
        try:
            binary.close()  # Textual's contract: delivered files are closed.
        finally:
            self._app.post_message(
                events.DeliveryFailed(
                    key=delivery_key,
                    exception=PermissionError("file delivery is disabled on this server"),
                    name=name,
                )
            )

    # -- input ------------------------------------------------------------------

    def feed(self, text: str) -> None:
        """Parse client input and post the resulting events to the app."""
        parser = self._parser
        if parser is None:
            return
        if self._dispatch(lambda: parser.feed(text)):
            self._schedule_tick()

    def resize(self, width: int, height: int) -> None:
        """Tell the app the terminal is now ``width`` x ``height``."""
        self._size = (width, height)
        size = Size(width, height)
        self.send_message(events.Resize(size, size))

    def _schedule_tick(self) -> None:
        """A lone ESC is only reported once the escape delay passes: tick then."""
        self._cancel_tick()
        loop = self._loop
        self._tick_handle = loop.call_later(constants.ESCAPE_DELAY + _TICK_MARGIN, self._tick)

    def _tick(self) -> None:
        self._tick_handle = None
        parser = self._parser
        if parser is None:
            return
        if self._dispatch(parser.tick) and getattr(parser, "_timeout_time", None) is not None:
            self._schedule_tick()  # fired a hair early; try again

    def _dispatch(self, parse: Callable[[], Iterable[Message]]) -> bool:
        """Run one parser step and post its events; False if input broke.

        We are called from the door.s data callback or a loop timer, where an
        exception would escape into shared machinery.  Garbage from one client
        must only end that client's session.
        """
        try:
            for message in parse():
                self.process_message(message)
        except Exception:
            logger.exception("input could not be parsed; closing session")
            self._parser = None
            self._terminal.close("input error")
            return False
        return True

    def _cancel_tick(self) -> None:
        if self._tick_handle is not None:
            self._tick_handle.cancel()
            self._tick_handle = None

    # -- helpers ----------------------------------------------------------------

    def _enable_mouse_support(self) -> None:
        if self._mouse:
            self.write("\x1b[?1000h\x1b[?1003h\x1b[?1015h\x1b[?1006h")

    def _disable_mouse_support(self) -> None:
        if self._mouse:
            self.write("\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l")
