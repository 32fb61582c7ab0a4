"""Fixes for the traps of running many Textual apps inside one server process.

Textual assumes one app per process.  Each function here neutralises one
process-wide side effect so that a hosted session can only affect itself:

* ``install_stdio_guard`` / ``KEEP_PROCESS_STREAMS`` - ``App._process_messages``
  redirects ``sys.stdout``/``sys.stderr`` for the app's lifetime.
* ``run_app_preserving_task_factory`` - ``App.run_async`` installs
  ``asyncio.eager_task_factory`` on the *whole* event loop (Python 3.12+).
* ``harden_app`` - screenshots, file delivery, ``open_url`` and suspend would
  act on the server machine; the error console would print to server stderr.
* ``configure_terminal`` - colour depth must come from the player's terminal
  (pty TERM / env COLORTERM / NO_COLOR), not from the server's environment;
  and the escape codes rich and Textual cache on shared styles must not carry
  one player's colour depth to another's terminal.
* ``clear_instance_keyed_caches`` - method ``lru_cache``s keyed on ``self`` keep
  objects of finished apps alive.
* ``end_leftover_workers`` - Textual cancels an app's workers as it exits but
  never waits for them: one that lost its cancellation would outlive its app.

The garbage collector, which pauses every session at once, has its own
module: ``gcpolicy``.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import sys
import types
from collections.abc import Callable, Coroutine, Generator, Iterator, Mapping
from typing import Any, Final, Literal, TypeVar

from rich.color import ColorSystem
from rich.console import Console
from rich.style import Style as RichStyle
from textual.app import App, SuspendNotSupported
from textual.filter import Monochrome, NoColor
from textual.strip import Strip
from textual.worker import Worker

from ..ratelog import RefusalLog

logger = logging.getLogger(__name__)

T = TypeVar("T")

# --------------------------------------------------------------------------
# stdout / stderr redirection
# --------------------------------------------------------------------------


class _KeepProcessStreams:
    """Marker put in ``app._capture_stdout``/``_capture_stderr``.

    ``App._process_messages`` does ``with redirect_stdout(app._capture_stdout)``
    around the whole app run.  ``contextlib.redirect_stdout`` assigns the
    *process-global* ``sys.stdout`` on enter and restores whatever it saw on
    exit, so with two overlapping sessions A and B: A sets capA, B saves capA
    and sets capB, A restores the original, B "restores" capA - the process is
    left printing into a dead app (and keeps it alive forever).  Our patched
    ``redirect_stdout`` returns a no-op context for this marker, so a hosted
    app never touches ``sys.stdout``; its ``print()`` goes to the server's
    real stdout (the operator's log), which is the honest destination anyway.
    """

    def write(self, text: str) -> int:  # pragma: no cover - never installed
        return len(text)

    def flush(self) -> None:  # pragma: no cover - never installed
        pass


KEEP_PROCESS_STREAMS: Final = _KeepProcessStreams()

_stdio_guard_installed = False


def _guarded(real: Callable[[Any], contextlib.AbstractContextManager[Any]]) -> Callable[..., Any]:
    def redirect(new_target: Any) -> contextlib.AbstractContextManager[Any]:
        if new_target is KEEP_PROCESS_STREAMS:
            return contextlib.nullcontext(new_target)
        return real(new_target)

    redirect.__wrapped__ = real  # type: ignore[attr-defined]
    return redirect


def install_stdio_guard() -> None:
    """Make ``textual.app``'s redirects skip apps marked ``KEEP_PROCESS_STREAMS``.

    Idempotent.  Apps that are not marked (e.g. a local client run in the same
    interpreter) keep Textual's stock behaviour.
    """
    global _stdio_guard_installed
    if _stdio_guard_installed:
        return
    import textual.app as textual_app

    for name in ("redirect_stdout", "redirect_stderr"):
        real = getattr(textual_app, name, None)
        if real is None:  # Textual changed; the stdout test will tell us.
            logger.warning("textual.app.%s not found; stdio guard not installed", name)
            continue
        setattr(textual_app, name, _guarded(real))
    _stdio_guard_installed = True


# --------------------------------------------------------------------------
# eager task factory
# --------------------------------------------------------------------------


@types.coroutine
def _resume(coro: Coroutine[Any, Any, T], pending: Any) -> Generator[Any, Any, T]:
    """Continue driving ``coro`` after its first step: ``yield from`` by hand.

    Every value the inner coroutine yields (futures, or None for a bare
    yield) goes to the owning Task unchanged, and whatever the Task sends or
    throws (results, CancelledError) goes back in, exactly like ``await``.
    """
    while True:
        try:
            sent = yield pending
        except GeneratorExit:
            coro.close()
            raise
        except BaseException as error:  # noqa: BLE001 - forwarded, not handled
            try:
                pending = coro.throw(error)
            except StopIteration as stop:
                return stop.value
        else:
            try:
                pending = coro.send(sent)
            except StopIteration as stop:
                return stop.value


async def run_app_preserving_task_factory(app: App[Any], **run_kwargs: Any) -> Any:
    """``await app.run_async(**run_kwargs)`` without leaking its task factory.

    On Python 3.12+, ``App.run_async`` starts with
    ``loop.set_task_factory(asyncio.eager_task_factory)`` - for the whole loop,
    i.e. for asyncssh and every other session.  The call happens in the first
    synchronous slice of the coroutine, so we run that slice ourselves and put
    the previous factory back before anything else on the loop can run; then
    we keep driving the coroutine normally.  Restored again at the end in
    case Textual sets it later.
    """
    loop = asyncio.get_running_loop()
    original = loop.get_task_factory()
    coro = app.run_async(**run_kwargs)
    try:
        try:
            pending = coro.send(None)
        except StopIteration as stop:
            return stop.value
        finally:
            _restore_task_factory(loop, original)
        return await _resume(coro, pending)
    finally:
        _restore_task_factory(loop, original)


def _restore_task_factory(loop: asyncio.AbstractEventLoop, original: Any) -> None:
    if loop.get_task_factory() is not original:
        loop.set_task_factory(original)


# --------------------------------------------------------------------------
# server-side effects: screenshots, downloads, browser, suspend, error output
# --------------------------------------------------------------------------


def _refuse_open_url(url: str, *, new_tab: bool = True) -> None:
    logger.info("open_url refused for a hosted app: %r", url)


def _refuse_delivery(path_or_file: Any, **_options: Any) -> None:
    logger.info("file delivery refused for a hosted app")
    if not isinstance(path_or_file, (str, bytes)) and hasattr(path_or_file, "close"):
        path_or_file.close()  # Textual's contract: delivered file objects are closed.


def _refuse_save_screenshot(
    filename: str | None = None, path: str | None = None, time_format: str | None = None
) -> str:
    logger.info("save_screenshot refused for a hosted app")
    return ""


def _refuse_screenshot(*_args: Any, **_kwargs: Any) -> None:
    logger.info("screenshot refused for a hosted app")


def _refuse_suspend_process() -> None:
    logger.info("suspend refused for a hosted app")


@contextlib.contextmanager
def _refuse_suspend() -> Iterator[None]:
    raise SuspendNotSupported("App.suspend is not supported on this server.")
    yield  # pragma: no cover - makes this a generator


# Instance attributes shadow the class's methods, so this works for any App
# the factory returns (no mixin needed) and also catches actions bound to keys
# or the command palette ("screenshot", "suspend_process").  The replacements
# hold no reference to the app, so they create no reference cycles.
_REFUSALS: Final[Mapping[str, Callable[..., Any]]] = {
    "open_url": _refuse_open_url,
    "deliver_text": _refuse_delivery,
    "deliver_binary": _refuse_delivery,
    "deliver_screenshot": _refuse_screenshot,
    "save_screenshot": _refuse_save_screenshot,
    "action_screenshot": _refuse_screenshot,
    "action_suspend_process": _refuse_suspend_process,
    "suspend": _refuse_suspend,
}


def harden_app(app: App[Any]) -> io.StringIO:
    """Disarm everything in ``app`` that would act on the server machine.

    Returns the buffer that now receives the app's error console (Textual
    prints crash tracebacks there on exit; by default that is the server's
    stderr).  The session logs it instead.
    """
    install_stdio_guard()
    app._capture_stdout = KEEP_PROCESS_STREAMS  # type: ignore[assignment]  # noqa: SLF001 - (private.py)
    app._capture_stderr = KEEP_PROCESS_STREAMS  # type: ignore[assignment]  # noqa: SLF001 - (private.py)
    for name, replacement in _REFUSALS.items():
        setattr(app, name, replacement)
    errors = io.StringIO()
    app.error_console = Console(
        file=errors, width=120, markup=False, highlight=False, color_system=None
    )
    return errors


# --------------------------------------------------------------------------
# colour depth from the player's terminal
# --------------------------------------------------------------------------

ColorSystemName = Literal["standard", "256", "truecolor"]


def detect_color_system(term: str | None, env: Mapping[str, str]) -> ColorSystemName:
    """Colour depth of the *client's* terminal, from its TERM and COLORTERM.

    Mirrors rich's detection (which Textual would otherwise run against the
    server's own environment).
    """
    colorterm = env.get("COLORTERM", "").strip().lower()
    if colorterm in ("truecolor", "24bit"):
        return "truecolor"
    term = (term or env.get("TERM") or "").strip().lower()
    if term.endswith("-direct") or "kitty" in term:
        return "truecolor"
    if term.endswith("256color"):
        return "256"
    return "standard"


class _NullFile:
    """Sink for the app console: Textual renders through the driver."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True


def configure_terminal(app: App[Any], term: str | None, env: Mapping[str, str]) -> None:
    """Set the app's colour system and NO_COLOR from the client's terminal.

    ``App.__init__`` built ``app.console`` and the NO_COLOR filter from
    ``os.environ`` - the server's.  Rebuild both from what the client sent.
    """
    term_name = term or env.get("TERM") or "xterm"
    console_env = {"TERM": term_name, "COLORTERM": env.get("COLORTERM", "")}
    app.console = Console(
        color_system=detect_color_system(term_name, env),
        file=_NullFile(),  # type: ignore[arg-type]
        markup=True,
        highlight=False,
        emoji=False,
        legacy_windows=False,
        _environ=console_env,
        force_terminal=True,
        safe_box=False,
        soft_wrap=False,
    )
    no_color = "NO_COLOR" in env
    app.no_color = no_color
    filters = [f for f in app._filters if not isinstance(f, (NoColor, Monochrome))]  # noqa: SLF001 - (private.py)
    if no_color:
        filters.append(NoColor() if app.native_ansi_color else Monochrome())
    app._filters[:] = filters  # noqa: SLF001 - (private.py)
    _render_per_terminal()


_rendering_per_terminal = False


def _render_per_terminal() -> None:
    """Keep each terminal's escape sequences to itself (process-wide, idempotent).

    Textual and rich assume one terminal per process: a style keeps the
    escape codes of the first colour system it was written in on itself
    (``Style._ansi``, read by ``Strip.render_style`` and rich's
    ``Style.render``), and styles are shared by every app (parsed CSS,
    Textual's style caches).  A 256-colour player would pass their codes to
    the next truecolor player, and a truecolor player theirs to a 16-colour
    terminal that cannot show them.  Here a style's codes always come from
    the cache keyed by colour system (``Strip.render_ansi``), or are computed.
    """
    global _rendering_per_terminal
    if _rendering_per_terminal:
        return
    render_style = Strip.__dict__["render_style"].__func__
    make_ansi_codes = RichStyle._make_ansi_codes  # noqa: SLF001 - (private.py)

    def render_style_for(
        cls: type[Strip], style: RichStyle, text: str, color_system: ColorSystem
    ) -> str:
        # whichever terminal it was for: render_ansi knows this one's
        style._ansi = None  # noqa: SLF001 - (private.py)
        return render_style(cls, style, text, color_system)

    def ansi_codes_for(style: RichStyle, color_system: ColorSystem) -> str:
        style._ansi = None  # noqa: SLF001 - (private.py)
        return make_ansi_codes(style, color_system)

    Strip.render_style = classmethod(render_style_for)  # type: ignore[method-assign, assignment]
    RichStyle._make_ansi_codes = ansi_codes_for  # type: ignore[method-assign, assignment]  # noqa: SLF001 - (private.py)
    _rendering_per_terminal = True


# --------------------------------------------------------------------------
# caches that keep finished apps alive
# --------------------------------------------------------------------------

# ``lru_cache`` on *methods* is keyed on ``self`` and shared process-wide, so
# it pins instances of finished apps.  SessionXTermParser avoids the worst
# one; these are cleared when a session ends (they are only caches, so
# clearing them costs the live sessions a few recomputations).
_INSTANCE_KEYED_CACHES: Final = (
    ("textual._xterm_parser", "XTermParser", "_parse_extended_key"),
    ("textual.widgets._data_table", "DataTable", "_get_styles_to_render_cell"),
    ("textual._styles_cache", "StylesCache", "get_inner_outer"),
    ("textual.filter", "ANSIToTruecolor", "truecolor_style"),
)


def clear_instance_keyed_caches() -> None:
    """Drop per-instance ``lru_cache`` entries that would pin finished apps."""
    for module_name, class_name, attr in _INSTANCE_KEYED_CACHES:
        module = sys.modules.get(module_name)
        if module is None:  # never imported, so nothing cached
            continue
        cached = getattr(getattr(module, class_name, None), attr, None)
        cache_clear = getattr(cached, "cache_clear", None)
        if cache_clear is not None:
            cache_clear()


# --------------------------------------------------------------------------
# workers that outlive their app
# --------------------------------------------------------------------------


LEFTOVER_WORKERS: Final = RefusalLog(
    logger, "apps that exited with workers still running (cancelled again)"
)
"""Counts ``end_leftover_workers``'s finds, whichever session's (one WARNING a minute)."""


async def end_leftover_workers(app: App[Any], timeout: float, session: str) -> None:
    """Once ``app`` has exited: cancel again, and wait for, its workers still running.

    Textual cancels every worker as the app stops, and does not wait.  A worker
    whose cancellation was lost (Python 3.11's ``asyncio.wait_for`` drops one that
    comes in the same moment as its result; so does ``suppress(CancelledError)``
    around an await) runs on against an app that is gone, typically waiting for a
    screen's answer that never comes.  Nothing owns it any more: it keeps the
    finished app alive until the collector destroys it mid-await (a
    ``Worker._run`` coroutine closed in another context, an unraisable error).
    Each one ended here is logged, by name, at INFO, and counted in one WARNING a
    minute at most (``LEFTOVER_WORKERS``): the place that lost it wants fixing, but
    a stranger whose connections end as they open must not pour a line each into the
    log.
    """
    leftover = {
        worker: task
        for worker in app.workers
        if (task := _task_of(worker)) is not None and not task.done()
    }
    if not leftover:
        return
    names = ", ".join(worker.name or worker.description for worker in leftover)
    logger.info(
        "%s: the app exited with workers still running (%s); cancelling them", session, names
    )
    LEFTOVER_WORKERS.refused(f"{session}: {names}")
    for worker in leftover:
        worker.cancel()
    _done, pending = await asyncio.wait(leftover.values(), timeout=timeout)
    if pending:
        logger.error("%s: %d workers did not end once cancelled", session, len(pending))


def _task_of(worker: Worker[Any]) -> asyncio.Task[Any] | None:
    """The worker's task (None before it starts)."""
    return worker._task  # noqa: SLF001 - Textual keeps it to itself (private.py)
