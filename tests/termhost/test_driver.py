"""The host's Textual driver and sessions (server/termhost), end to end over SSH.

A real asyncssh server on 127.0.0.1:0 serves a tiny counter app; real asyncssh
clients with a PTY type keys and read the screen.  Every wait is bounded in
time, and every server/connection is closed in ``finally`` blocks.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import io
import logging
import os
import signal
import sys
import termios
import weakref
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import asyncssh
import pytest
from textual._context import active_message_pump
from textual._xterm_parser import XTermParser
from textual.app import App, ComposeResult, SuspendNotSupported
from textual.binding import BindingType
from textual.geometry import Size
from textual.widgets import Label

from server.ssh.connection import SSHAppServer, create_app_server
from server.ssh.transport import SSHSessions
from server.termhost import HostLimits, SessionHost, SessionInfo
from server.termhost.driver import (
    INPUT_SLICE,
    NON_READERS,
    ChannelTerminal,
    SessionXTermParser,
    clamp_size,
)
from server.termhost.gcpolicy import GCPolicy
from server.termhost.hardening import (
    KEEP_PROCESS_STREAMS,
    clear_instance_keyed_caches,
    detect_color_system,
)

from ..ssh.sshkit import TIMEOUT, Term, poll_until

HOST_KEY = asyncssh.generate_private_key("ssh-ed25519")


# --------------------------------------------------------------------------
# the app under test
# --------------------------------------------------------------------------


class CounterApp(App[None]):
    """A label and a few key bindings."""

    BINDINGS: ClassVar[list[BindingType]] = [
        ("a", "bump"),
        ("q", "quit"),
        ("x", "boom"),
        ("s", "side_effects"),
        ("f", "flood"),
        ("escape", "escaped"),
        ("h", "hang"),
    ]

    def __init__(self, info: SessionInfo) -> None:
        super().__init__()
        self.info = info
        self.presses = 0
        self.side_effects_done = False
        self.suspend_refused = False

    def compose(self) -> ComposeResult:
        yield Label("READY", id="status")

    def action_bump(self) -> None:
        self.presses += 1
        self.query_one("#status", Label).update(f"PRESSED {self.presses}")

    def action_escaped(self) -> None:
        self.query_one("#status", Label).update("ESCAPED")

    async def action_hang(self) -> None:
        self.query_one("#status", Label).update("HANGING")
        await asyncio.sleep(60)  # blocks the app's message loop, so exit() waits

    def action_boom(self) -> None:
        raise RuntimeError("boom from the test app")

    def action_flood(self) -> None:
        # Write straight to the driver, faster than any client can read.
        self.set_interval(0.01, lambda: self._driver.write("x" * 32768))  # type: ignore[union-attr]

    def action_side_effects(self) -> None:
        where = os.getcwd()
        self.open_url("https://example.com")
        self.save_screenshot()
        self.save_screenshot(path=where)
        self.action_screenshot(path=where)
        self.deliver_screenshot(path=where)
        self.deliver_text(io.StringIO("hello"), save_directory=where, save_filename="t.txt")
        self.deliver_binary(io.BytesIO(b"hi"), save_directory=where, save_filename="b.bin")
        self.action_suspend_process()
        try:
            with self.suspend():
                pass
        except SuspendNotSupported:
            self.suspend_refused = True
        # The driver refuses too, in case an app reaches it directly.
        driver = self._driver
        assert driver is not None
        driver.open_url("https://example.com")
        driver.deliver_binary(
            io.BytesIO(b"x"),
            delivery_key="k",
            save_path=Path(where) / "d.bin",
        )
        self.side_effects_done = True
        self.query_one("#status", Label).update("SIDE EFFECTS DONE")


def remote_counter_app(info: SessionInfo, extra: dict[str, Any], connect: Any) -> CounterApp:
    """``CounterApp`` as a worker process builds it (``server.termhost.worker``)."""
    if info.username == "broken":
        raise RuntimeError("factory failed")
    return CounterApp(info)


class NoAuthServer(SSHAppServer):
    def begin_auth(self, username: str) -> bool:
        return False  # tests only: no authentication


# --------------------------------------------------------------------------
# harness
# --------------------------------------------------------------------------


@dataclass
class Harness:
    manager: SSHSessions
    port: int
    apps: dict[str, CounterApp] = field(default_factory=dict)

    async def app_for(self, username: str) -> CounterApp:
        await poll_until(lambda: username in self.apps, f"app for {username}")
        return self.apps[username]


@contextlib.asynccontextmanager
async def serve(
    limits: HostLimits | None = None,
) -> AsyncIterator[Harness]:
    harness: Harness

    def factory(info: SessionInfo) -> CounterApp:
        if info.username == "broken":
            raise RuntimeError("factory failed")
        app = CounterApp(info)
        harness.apps[info.username or ""] = app
        return app

    host = SessionHost(factory, limits=limits or HostLimits(stop_timeout=2.0))
    manager = SSHSessions(host)
    acceptor = await create_app_server(
        manager,
        "127.0.0.1",
        0,
        server_factory=lambda: NoAuthServer(manager),
        server_host_keys=[HOST_KEY],
    )
    harness = Harness(manager, acceptor.get_port())
    try:
        yield harness
    finally:
        acceptor.close()
        await manager.close(timeout=2.0)
        await host.close(timeout=2.0)
        await asyncio.wait_for(acceptor.wait_closed(), TIMEOUT)


@contextlib.asynccontextmanager
async def open_term(
    harness: Harness,
    username: str,
    *,
    term_type: str | None = "xterm-256color",
    term_size: tuple[int, int] = (80, 24),
    env: dict[str, str] | None = None,
    window: int | None = None,
    wait_ready: bool = True,
) -> AsyncIterator[Term]:
    conn = await asyncio.wait_for(
        asyncssh.connect(
            "127.0.0.1",
            harness.port,
            username=username,
            known_hosts=None,
            client_keys=None,
            agent_path=None,
            config=None,
        ),
        TIMEOUT,
    )
    try:
        options: dict[str, Any] = {"encoding": None}
        if term_type is not None:
            options.update(term_type=term_type, term_size=term_size)
        if env is not None:
            options["env"] = env
        if window is not None:
            options["window"] = window
        proc = await asyncio.wait_for(conn.create_process(**options), TIMEOUT)
        term = Term(proc)
        if wait_ready:
            await term.wait_for("READY")
        yield term
    finally:
        conn.close()
        await asyncio.wait_for(conn.wait_closed(), TIMEOUT)


@pytest.fixture
async def harness() -> AsyncIterator[Harness]:
    async with serve() as harness:
        yield harness


# --------------------------------------------------------------------------
# tests: sessions
# --------------------------------------------------------------------------


async def test_keys_reach_only_their_own_session(harness: Harness) -> None:
    async with open_term(harness, "alice") as alice, open_term(harness, "bob") as bob:
        alice_app, bob_app = await harness.app_for("alice"), await harness.app_for("bob")
        assert alice_app is not bob_app

        alice.press(b"a")
        await alice.wait_for("PRESSED 1")
        alice.press(b"a")
        await alice.wait_for("PRESSED 2")
        await bob.drain(0.2)

        assert alice_app.presses == 2
        assert bob_app.presses == 0
        assert "PRESSED" not in bob.text

        bob.press(b"a")
        await bob.wait_for("PRESSED 1")
        assert (alice_app.presses, bob_app.presses) == (2, 1)


async def test_resize_reaches_app_and_is_clamped(harness: Harness) -> None:
    async with open_term(harness, "carol", term_size=(5, 3)) as carol:
        app = await harness.app_for("carol")
        assert app.size == Size(20, 10)  # clamped up from 5x3

        carol.proc.change_terminal_size(100, 30)
        await poll_until(lambda: app.size == Size(100, 30), "resize to 100x30")

        carol.proc.change_terminal_size(5000, 4000)
        await poll_until(lambda: app.size == Size(500, 200), "resize clamped to 500x200")

        carol.proc.change_terminal_size(1, 1)
        await poll_until(lambda: app.size == Size(20, 10), "resize clamped to 20x10")


async def test_lone_escape_key_is_delivered_after_the_escape_delay(harness: Harness) -> None:
    async with open_term(harness, "alice") as alice:
        alice.press(b"\x1b")  # could start a sequence: the parser must time out
        await alice.wait_for("ESCAPED")


async def test_client_disconnect_stops_the_app(harness: Harness) -> None:
    async with open_term(harness, "alice") as alice, open_term(harness, "bob") as bob:
        app = await harness.app_for("alice")
        alice.proc.close()  # hang up without quitting
        await poll_until(lambda: not app.is_running, "app stopped after hang-up")
        await poll_until(lambda: len(harness.manager.sessions) == 1, "one session left")
        bob.press(b"a")
        await bob.wait_for("PRESSED 1")


async def test_app_that_ignores_exit_is_cancelled_after_stop_timeout(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="server")
    async with serve(HostLimits(stop_timeout=0.3)) as harness:
        async with open_term(harness, "alice") as alice:
            alice.press(b"h")
            await alice.wait_for("HANGING")
            task = harness.manager.sessions[0].task
            assert task is not None
            alice.proc.close()
            await poll_until(task.done, "stuck app cancelled", timeout=3.0)
            assert harness.manager.sessions == []
    assert "did not exit in time" in caplog.text


async def test_client_eof_ends_the_session_cleanly(harness: Harness) -> None:
    async with open_term(harness, "alice") as alice:
        alice.proc.stdin.write_eof()
        assert await alice.exit_status() == 0
        assert "\x1b[?1049l" in alice.raw.decode()  # terminal restored before closing


def test_clamp_size() -> None:
    assert clamp_size(0, 0) == (20, 10)
    assert clamp_size(80, 24) == (80, 24)
    assert clamp_size(10**6, 10**6) == (500, 200)


async def test_quitting_one_session_leaves_the_other_running(harness: Harness) -> None:
    async with open_term(harness, "alice") as alice, open_term(harness, "bob") as bob:
        alice.press(b"q")
        assert await alice.exit_status() == 0
        await poll_until(lambda: len(harness.manager.sessions) == 1, "one session left")

        bob.press(b"a")
        await bob.wait_for("PRESSED 1")
        assert bob.proc.exit_status is None


async def test_app_crash_closes_only_its_session(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="server")
    async with open_term(harness, "alice") as alice, open_term(harness, "bob") as bob:
        alice.press(b"x")
        assert await alice.exit_status() == 1
        assert "something went wrong" in alice.text
        assert "boom from the test app" not in alice.text  # no traceback to clients
        assert "boom from the test app" in caplog.text  # but logged

        bob.press(b"a")
        await bob.wait_for("PRESSED 1")
        assert len(harness.manager.sessions) == 1


async def test_factory_error_closes_only_that_session(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="server")
    async with open_term(harness, "bob") as bob:
        async with open_term(harness, "broken", wait_ready=False) as broken:
            assert await broken.exit_status() == 1
            assert "something went wrong" in broken.text
        assert "factory failed" in caplog.text
        bob.press(b"a")
        await bob.wait_for("PRESSED 1")


async def test_session_without_pty_gets_a_message(harness: Harness) -> None:
    async with open_term(harness, "nopty", term_type=None, wait_ready=False) as term:
        result = await asyncio.wait_for(term.proc.wait(), TIMEOUT)
    assert result.exit_status == 1
    assert isinstance(result.stderr, bytes) and b"needs a terminal" in result.stderr
    assert "nopty" not in harness.apps
    assert harness.manager.sessions == []


async def test_session_limit() -> None:
    async with serve(HostLimits(max_sessions=1, stop_timeout=2.0)) as harness:
        async with open_term(harness, "alice"):
            async with open_term(harness, "bob", wait_ready=False) as bob:
                result = await asyncio.wait_for(bob.proc.wait(), TIMEOUT)
            assert result.exit_status == 1
            assert isinstance(result.stdout, bytes)
            assert b"server is full" in result.stdout  # on the terminal, like every door


async def test_manager_close_ends_running_sessions() -> None:
    async with serve() as harness:
        async with open_term(harness, "alice") as alice:
            app = await harness.app_for("alice")
            await harness.manager.close(timeout=2.0)
            assert await alice.exit_status() == 0
            assert not app.is_running
            assert harness.manager.sessions == []


async def test_write_buffer_cap_drops_a_client_that_does_not_read(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="server")
    dropped = NON_READERS.count
    limits = HostLimits(write_buffer_cap=128 * 1024, stop_timeout=2.0)
    async with serve(limits) as harness:
        # A small receive window so the server-side buffer fills quickly.
        async with open_term(harness, "slow", window=32 * 1024) as slow:
            slow.press(b"f")  # start flooding; we never read again
            await poll_until(lambda: harness.manager.sessions == [], "session dropped")
            # The client still holds what fitted in its window; once that is
            # read it sees the channel closed (no exit status: it was aborted).
            await asyncio.wait_for(slow.proc.stdout.read(), TIMEOUT)
            await asyncio.wait_for(slow.proc.wait_closed(), TIMEOUT)
            assert slow.proc.exit_status is None
    assert "write buffer" in caplog.text  # said at INFO, by session
    assert NON_READERS.count == dropped + 1  # and counted in one WARNING a minute at most


class FakeChannel:
    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.buffered = 0
        self.aborted = False
        self.paused = False

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def get_write_buffer_size(self) -> int:
        return self.buffered

    def get_encoding(self) -> tuple[str | None, str]:
        return (None, "strict")

    def is_closing(self) -> bool:
        return self.aborted

    def abort(self) -> None:
        self.aborted = True

    def pause_reading(self) -> None:
        self.paused = True

    def resume_reading(self) -> None:
        self.paused = False


class FakeDriver:
    def __init__(self) -> None:
        self.fed: list[str] = []
        self.sizes: list[tuple[int, int]] = []

    def feed(self, text: str) -> None:
        self.fed.append(text)

    def resize(self, width: int, height: int) -> None:
        self.sizes.append((width, height))

    def _cancel_tick(self) -> None:
        pass


def test_channel_terminal_input_buffering_and_utf8() -> None:
    closed: list[str] = []
    term = ChannelTerminal(FakeChannel(), (80, 24), pending_input_cap=4, on_close=closed.append)
    term.feed(b"ab")
    term.feed(b"\xc3")  # first half of "é": nothing decoded yet
    term.feed(b"\xa9")
    term.feed(b"xyz")  # over the 4-character cap before the app is up: dropped
    driver = FakeDriver()
    term.attach(driver)
    assert driver.fed == ["ab\u00e9"]
    term.feed("é".encode()[:1])
    term.feed("é".encode()[1:] + b"!")
    assert driver.fed[1:] == ["é!"]
    term.resize(9999, 0)
    assert driver.sizes == [(500, 10)]
    term.detach(driver)
    term.feed(b"late")
    assert len(driver.fed) == 2
    assert closed == []


async def test_a_large_input_is_handed_on_a_slice_per_turn_of_the_loop() -> None:
    """A client's whole paste (an SSH chunk holds up to 32 KiB) reaches the app in
    order and complete, but a slice at a time with the loop turning in between:
    parsed at once it would be thousands of key events in one go, and every other
    session of the process would wait for them."""
    term = ChannelTerminal(FakeChannel(), (80, 24))
    driver = FakeDriver()
    term.attach(driver)
    paste = "".join(chr(ord("a") + n % 26) for n in range(5 * INPUT_SLICE + 7))
    term.feed(paste.encode())
    term.feed(b"!")  # typed after the paste: comes after it
    assert len(driver.fed) == 1 and len(driver.fed[0]) <= INPUT_SLICE
    others: list[int] = []
    asyncio.get_running_loop().call_soon(lambda: others.append(len(driver.fed)))
    for _turn in range(20):
        await asyncio.sleep(0)
    assert "".join(driver.fed) == paste + "!"
    assert all(len(piece) <= INPUT_SLICE for piece in driver.fed)
    assert others and others[0] < len(driver.fed)  # another callback ran before the end


def test_channel_terminal_write_cap() -> None:
    channel = FakeChannel()
    closed: list[str] = []
    term = ChannelTerminal(channel, (80, 24), write_buffer_cap=10, on_close=closed.append)
    term.write("héllo")
    assert channel.written == ["héllo".encode()]
    channel.buffered = 11  # the client stopped reading
    term.write("more")
    assert channel.aborted and term.overflowed
    assert closed == ["write buffer cap exceeded"]
    term.write("dropped")
    assert len(channel.written) == 2


# --------------------------------------------------------------------------
# tests: process-wide traps
# --------------------------------------------------------------------------

_SIGNALS = [
    signal.SIGTSTP,
    signal.SIGCONT,
    signal.SIGWINCH,
    signal.SIGINT,
    signal.SIGTERM,
    signal.SIGTTIN,
    signal.SIGTTOU,
]


_fake_factory_tasks: list[str] = []


def _fake_eager_task_factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> Any:
    """Stands in for asyncio.eager_task_factory: a working factory that records use."""
    _fake_factory_tasks.append(getattr(coro, "__qualname__", repr(coro)))
    return asyncio.Task(coro, loop=loop, **kwargs)


async def test_process_state_untouched(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """sys.stdout/stderr, signal handlers, termios and the loop's task factory."""
    loop = asyncio.get_running_loop()
    # Python 3.11 has no eager_task_factory, so Textual skips installing it;
    # provide one so run_async does what it does on 3.12+.
    monkeypatch.setattr(asyncio, "eager_task_factory", _fake_eager_task_factory, raising=False)
    factory_calls: list[Any] = []
    real_set_task_factory = loop.set_task_factory

    def spy_set_task_factory(factory: Any) -> None:
        factory_calls.append(factory)
        real_set_task_factory(factory)

    monkeypatch.setattr(loop, "set_task_factory", spy_set_task_factory)
    termios_calls: list[str] = []
    for name in ("tcgetattr", "tcsetattr", "tcflush"):
        monkeypatch.setattr(termios, name, lambda *a, _n=name: termios_calls.append(_n))

    stdout, stderr = sys.stdout, sys.stderr
    handlers = {sig: signal.getsignal(sig) for sig in _SIGNALS}
    task_factory = loop.get_task_factory()

    async def assert_untouched() -> None:
        assert sys.stdout is stdout and sys.stderr is stderr
        assert {sig: signal.getsignal(sig) for sig in _SIGNALS} == handlers
        assert termios_calls == []
        # Textual's own startup may use its factory; nobody else may.
        assert loop.get_task_factory() is task_factory
        used = len(_fake_factory_tasks)
        await asyncio.create_task(asyncio.sleep(0))
        assert len(_fake_factory_tasks) == used

    async with open_term(harness, "alice") as alice, open_term(harness, "bob") as bob:
        await assert_untouched()  # while two apps are running
        alice.press(b"q")
        assert await alice.exit_status() == 0
        await assert_untouched()  # one ended while the other runs (interleaved redirects)
        bob.press(b"a")
        await bob.wait_for("PRESSED 1")
        bob.press(b"q")
        assert await bob.exit_status() == 0
    await poll_until(lambda: harness.manager.sessions == [], "sessions ended")
    await assert_untouched()
    assert _fake_eager_task_factory in factory_calls  # Textual tried; we undid it


async def test_finished_apps_are_garbage_collected(harness: Harness) -> None:
    refs: list[weakref.ref[CounterApp]] = []
    for name in ("alice", "bob"):
        async with open_term(harness, name, wait_ready=False) as term:
            # Typed before the app is up: buffered, then replayed by the driver
            # while the app's context is active, so the parsed Key events carry
            # the app as sender.  "a" in kitty keyboard encoding (ESC [ 97 u)
            # is what Textual's lru_cache stores: with the stock parser this
            # pins the app forever.
            term.press(b"\x1b[97u")
            await term.wait_for("PRESSED 1")
            refs.append(weakref.ref(await harness.app_for(name)))
            term.press(b"a")
            await term.wait_for("PRESSED 2")
            term.press(b"\x1b[97u")
            await term.wait_for("PRESSED 3")
            term.press(b"q")
            assert await term.exit_status() == 0
    await poll_until(lambda: harness.manager.sessions == [], "sessions ended")
    harness.apps.clear()

    for _ in range(20):
        gc.collect()
        if all(ref() is None for ref in refs):
            break
        await asyncio.sleep(0.05)
    alive = [ref() for ref in refs if ref() is not None]
    assert not alive, gc.get_referrers(*alive)


def test_stock_parser_cache_pins_its_message_pump_but_ours_does_not() -> None:
    """The trap itself: XTermParser's lru_cache keeps the active pump alive."""

    class Pump:
        pass

    def parse_key_under(parser_class: type[XTermParser]) -> weakref.ref[Pump]:
        pump = Pump()
        token = active_message_pump.set(pump)  # type: ignore[arg-type]
        try:
            parser = parser_class() if parser_class is SessionXTermParser else parser_class(False)
            list(parser.feed("\x1b[98u"))  # kitty "b": goes through the cache
        finally:
            active_message_pump.reset(token)
        return weakref.ref(pump)

    try:
        stock = parse_key_under(XTermParser)
        gc.collect()
        assert stock() is not None  # the trap is real in this Textual version
        ours = parse_key_under(SessionXTermParser)
        gc.collect()
        assert ours() is None
        clear_instance_keyed_caches()
        gc.collect()
        assert stock() is None  # and clearing releases what the stock parser pinned
    finally:
        XTermParser._parse_extended_key.cache_clear()  # noqa: SLF001 - the test looks inside


async def test_server_side_effects_are_refused(
    harness: Harness,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    import webbrowser

    opened: list[Any] = []
    killed: list[Any] = []
    monkeypatch.setattr(webbrowser, "open", lambda *a, **k: opened.append(a))
    monkeypatch.setattr(os, "kill", lambda *a: killed.append(a))  # would SIGTSTP pytest
    monkeypatch.chdir(tmp_path)

    async with open_term(harness, "alice") as alice:
        app = await harness.app_for("alice")
        alice.press(b"s")
        await alice.wait_for("SIDE EFFECTS DONE")
        assert app.side_effects_done and app.suspend_refused
        alice.press(b"a")
        await alice.wait_for("PRESSED 1")  # still alive and well

    assert opened == []
    assert killed == []
    assert list(tmp_path.iterdir()) == []


async def test_print_in_an_app_does_not_redirect_process_stdout(harness: Harness) -> None:
    async with open_term(harness, "alice"):
        app = await harness.app_for("alice")
        assert app._capture_stdout is KEEP_PROCESS_STREAMS  # noqa: SLF001 - the test looks inside
        assert sys.stdout is not app._capture_stdout  # noqa: SLF001 - the test looks inside


async def test_colour_depth_comes_from_the_client(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The server's own environment must not matter.
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLORTERM", "truecolor")
    async with (
        open_term(harness, "plain", term_type="xterm"),
        open_term(
            harness,
            "rich",
            term_type="xterm-256color",
            env={"COLORTERM": "truecolor", "NO_COLOR": "1"},
        ),
        open_term(harness, "eight", term_type="xterm-256color"),
    ):
        plain, rich_, eight = [await harness.app_for(n) for n in ("plain", "rich", "eight")]
        assert plain.console.color_system == "standard"
        assert not plain.no_color
        assert rich_.console.color_system == "truecolor"
        assert rich_.no_color
        assert eight.console.color_system == "256"
        assert not eight.no_color


def test_detect_color_system() -> None:
    assert detect_color_system("xterm-256color", {}) == "256"
    assert detect_color_system("xterm-256color", {"COLORTERM": "24bit"}) == "truecolor"
    assert detect_color_system("xterm-kitty", {}) == "truecolor"
    assert detect_color_system("xterm-direct", {}) == "truecolor"
    assert detect_color_system("xterm", {}) == "standard"
    assert detect_color_system("dumb", {}) == "standard"
    assert detect_color_system(None, {}) == "standard"


def test_gc_policy_applies_and_undoes() -> None:
    before = gc.get_threshold()
    policy = GCPolicy(thresholds=(12_345, 11, 12))
    undo = policy.apply()
    try:
        assert gc.get_threshold() == (12_345, 11, 12)
        assert gc.get_freeze_count() > 0
    finally:
        undo()
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
