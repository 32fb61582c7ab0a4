"""Every private attribute of a library (Textual, rich, asyncssh, asyncio, argparse) that the
server and the client rely on.

Running many apps in one process, and serving them over a door's transport,
means reaching into places their authors did not promise to keep.  They are
all listed here, with why each is needed, so that an upgrade that moves one
fails one contract test (``tests/termhost/test_private_contract.py``) loudly,
by name, instead of silently undoing an isolation or a saving.  The versions
this was checked against are pinned in ``pyproject.toml`` (Textual 8.x,
asyncssh 2.x); raise a pin only after this test passes on the new version.

The same test reads ``server/`` and ``skyjo_tui/`` for private names of a library reached
on an object, by name (``getattr``), from a private module, or used, overridden or set by a
subclass, and fails on one not listed here; ruff's SLF001 marks each line that reaches in
(``noqa: SLF001`` there, naming this list). The tests' own reaches fail in their own test.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class PrivateUse:
    """``module.owner.attribute`` (owner None: a module attribute), and why."""

    module: str
    owner: str | None
    attribute: str
    why: str
    where: str
    instance: bool = False
    """Set on instances only (``__init__``): checked on a fresh instance."""


PRIVATE_USES: Final[tuple[PrivateUse, ...]] = (
    # -- textual: one app per player in one process (hardening) -------------------
    PrivateUse(
        "textual.app",
        "App",
        "_capture_stdout",
        "an app would redirect the whole process's stdout for its lifetime",
        "hardening.harden_app",
        instance=True,
    ),
    PrivateUse(
        "textual.app",
        "App",
        "_capture_stderr",
        "likewise for stderr",
        "hardening.harden_app",
        instance=True,
    ),
    PrivateUse(
        "textual.app",
        "App",
        "_process_messages",
        "where the redirect happens (guarded by KEEP_PROCESS_STREAMS)",
        "hardening.install_stdio_guard",
    ),
    PrivateUse(
        "textual.app",
        "App",
        "_filters",
        "colour filters must follow the player's terminal, not the server's environment",
        "hardening.configure_terminal",
        instance=True,
    ),
    PrivateUse(
        "textual.app",
        "App",
        "_exception",
        "a crashed app's exception, for its exit status and the log",
        "hosted.app_exit_status",
        instance=True,
    ),
    PrivateUse(
        "textual.worker",
        "Worker",
        "_task",
        "a worker still running once its app exited is cancelled again and waited for",
        "hardening.end_leftover_workers",
        instance=True,
    ),
    PrivateUse(
        "rich.style",
        "Style",
        "_make_ansi_codes",
        "escape codes cached on shared styles must not carry one player's colour depth to another",
        "hardening._render_per_terminal",
    ),
    PrivateUse(
        "rich.style",
        "Style",
        "_ansi",
        "the cached codes reset per terminal",
        "hardening._render_per_terminal",
        instance=True,
    ),
    PrivateUse(
        "textual._xterm_parser",
        "XTermParser",
        "_parse_extended_key",
        "an lru_cache keyed on self keeps finished apps alive; also unwrapped by the driver",
        "hardening.clear_instance_keyed_caches, driver.SessionXTermParser",
    ),
    PrivateUse(
        "textual.widgets._data_table",
        "DataTable",
        "_get_styles_to_render_cell",
        "an lru_cache keyed on self",
        "hardening.clear_instance_keyed_caches",
    ),
    PrivateUse(
        "textual._styles_cache",
        "StylesCache",
        "get_inner_outer",
        "an lru_cache keyed on self",
        "hardening.clear_instance_keyed_caches",
    ),
    # -- textual: what many apps can share (sharing) --------------------------------
    PrivateUse(
        "textual.css.stylesheet",
        "Stylesheet",
        "_parse_cache",
        "parsed CSS shared by every app with the same CSS (set by a wrapped __init__, so that "
        "the fresh stylesheet of a reparse shares it too)",
        "sharing.share_parsed_css",
        instance=True,
    ),
    PrivateUse(
        "textual.css.stylesheet",
        "Stylesheet",
        "_variables",
        "the theme's variables, part of a shared parse's key",
        "sharing.SharedParseCache",
        instance=True,
    ),
    PrivateUse(
        "textual.strip",
        None,
        "FIFOCache",
        "Strip caches made on first use",
        "sharing.use_lazy_render_caches",
    ),
    *(
        PrivateUse(
            "textual.cache",
            "FIFOCache",
            attribute,
            "the lazy cache keeps the base class's state where its methods read it: " + why,
            "sharing.LazyFIFOCache",
            instance=True,
        )
        for attribute, why in (("_cache", "the entries"), ("_maxsize", "their number at most"))
    ),
    PrivateUse(
        "textual.widget",
        None,
        "FIFOCache",
        "widget caches allocate on first write",
        "sharing.use_lazy_render_caches",
    ),
    PrivateUse(
        "textual.content",
        None,
        "FIFOCache",
        "content caches allocate on first write",
        "sharing.use_lazy_render_caches",
    ),
    PrivateUse(
        "textual.strip",
        "Strip",
        "_divide_cache",
        "a cache slot made lazy",
        "sharing._STRIP_CACHES_IN_USE",
        instance=True,
    ),
    PrivateUse(
        "textual.strip",
        "Strip",
        "_filter_cache",
        "a cache slot made lazy",
        "sharing._STRIP_CACHES_IN_USE",
        instance=True,
    ),
    PrivateUse(
        "textual.strip",
        "Strip",
        "_crop_cache",
        "a cache slot made lazy",
        "sharing._STRIP_CACHES_IN_USE",
        instance=True,
    ),
    # -- textual: painting only the lines an update touches (painting) -------------------
    PrivateUse(
        "textual._compositor",
        "Compositor",
        "_get_renders",
        "replaced by a walk that asks widgets only for the lines an update touches",
        "painting.paint_changed_lines_only",
    ),
    PrivateUse(
        "textual._compositor",
        "Compositor",
        "visible_widgets",
        "the widgets on screen, front to back, with their regions and clips",
        "painting._renders_within",
    ),
    # -- textual: the client's screens (every door's app) -------------------------------
    *(
        PrivateUse(
            "textual.screen",
            "Screen",
            handler,
            "Textual calls a screen's private handler of each class in turn: ours "
            "beside its own (" + why + ")",
            "skyjo_tui.screens.base.SkyjoScreenMixin." + handler,
        )
        for handler, why in (
            ("_on_screen_resume", "a first resume skips restyling what just mounted"),
            ("_on_screen_suspend", "the focus marks go with the keyboard"),
            ("_on_resize", "a resize to where the screen stands is not laid out again"),
        )
    ),
    PrivateUse(
        "textual.screen",
        "Screen",
        "_update_auto_focus",
        "the focus given again after a recompose removed the widget that had it",
        "skyjo_tui.screens.base.SkyjoScreenMixin._focus_again",
    ),
    PrivateUse(
        "textual.dom",
        "DOMNode",
        "_merged_bindings",
        "a node's declared bindings, from which its translated copy is made",
        "skyjo_tui.bindings.localize_bindings",
    ),
    PrivateUse(
        "textual.dom",
        "DOMNode",
        "_bindings",
        "the bindings Textual applies: replaced by the translated copy (no public setter)",
        "skyjo_tui.bindings.localize_bindings",
        instance=True,
    ),
    PrivateUse(
        "textual._context",
        None,
        "active_app",
        "the running app's translator, for a screen built while it runs",
        "skyjo_tui.screens.base._running_translator",
    ),
    PrivateUse(
        "textual.widgets",
        "Input",
        "_on_paste",
        "a paste into a one-line field keeps all its lines, joined (Textual's own handler "
        "keeps the first line only)",
        "skyjo_tui.widgets.text.Input._on_paste",
    ),
    PrivateUse(
        "textual.app",
        "App",
        "_handle_exception",
        "a widget gone as the app ends is not a crash",
        "skyjo_tui.app.SkyjoApp._handle_exception",
    ),
    PrivateUse(
        "textual.app",
        "App",
        "_exit",
        "whether the app was asked to exit (set by exit())",
        "skyjo_tui.app.SkyjoApp._handle_exception",
        instance=True,
    ),
    PrivateUse(
        "textual.screen",
        "Screen",
        "_compositor",
        "a screen's first layout resizes the screen to where it stands: not laid out twice",
        "skyjo_tui.screens.base.SkyjoScreenMixin._on_resize",
        instance=True,
    ),
    PrivateUse(
        "textual._compositor",
        "Compositor",
        "size",
        "the size the screen was last laid out at",
        "skyjo_tui.screens.base.SkyjoScreenMixin._on_resize",
        instance=True,
    ),
    PrivateUse(
        "textual.app",
        "App",
        "_bindings",
        "a node's bindings as declared: the footer shows a remapped key where it was "
        "declared (Textual moves it to the end of the copy it applies the keymap to)",
        "skyjo_tui.widgets.footer._action_ranks",
        instance=True,
    ),
    # -- textual: the driver ----------------------------------------------------------
    PrivateUse(
        "textual.driver",
        "Driver",
        "_app",
        "where input events are posted",
        "driver.TerminalDriver",
        instance=True,
    ),
    *(
        PrivateUse("textual.driver", "Driver", attribute, why, "driver.TerminalDriver", True)
        for attribute, why in (
            ("_loop", "the loop the driver's timers run on (set by Driver.__init__)"),
            ("_size", "the terminal's size, which the base class reports"),
            ("_mouse", "whether the app wants the mouse"),
        )
    ),
    PrivateUse(
        "textual._xterm_parser",
        "XTermParser",
        "_timeout_time",
        "when a lone Esc is due: the tick tries again if it fired a hair early",
        "driver.TerminalDriver._tick",
        instance=True,
    ),
    PrivateUse(
        "textual.app",
        "App",
        "_driver",
        "the terminal's title reaches the player's "
        "terminal through it, as App.bell does (Textual has no title writer)",
        "skyjo_tui.app.SkyjoApp.write_to_terminal",
        instance=True,
    ),
    # -- textual: keys in turn (keyturns: whether an app is done with a key) ------------
    PrivateUse(
        "textual.message_pump",
        "MessagePump",
        "_post_message",
        "where every Textual driver posts its input to the app (LinuxDriver from its input "
        "thread, through the loop; Pilot's headless driver): overridden to take it in turn",
        "keyturns.InputInTurnApp._post_message",
    ),
    PrivateUse(
        "textual.app",
        "App",
        "_registry",
        "every node of the app, whose message pumps must be quiet before its next key",
        "keyturns.until_quiet",
        instance=True,
    ),
    PrivateUse(
        "textual.app",
        "App",
        "_message_queue",
        "a pump's waiting messages (Textual's own Queue: no count of those in hand)",
        "keyturns.until_quiet",
    ),
    *(
        PrivateUse(
            "textual.app",
            "App",
            attribute,
            "a pump's state between messages: " + why,
            "keyturns.until_quiet",
            instance=True,
        )
        for attribute, why in (
            ("_closed", "it takes none any more"),
            ("_pending_message", "one taken from the queue, not handled yet"),
            ("_next_callbacks", "callbacks run once its queue is empty"),
        )
    ),
    PrivateUse(
        "textual._queue",
        "Queue",
        "values",
        "the messages in a pump's queue",
        "keyturns.until_quiet",
        instance=True,
    ),
    PrivateUse(
        "textual._queue",
        "Queue",
        "ready_event",
        "its pump waits on it between messages, and only then",
        "keyturns.until_quiet",
        instance=True,
    ),
    PrivateUse(
        "asyncio",
        "Event",
        "_waiters",
        "who waits on a pump's ready_event: its task, when it is not in a handler",
        "keyturns.until_quiet",
        instance=True,
    ),
    # -- argparse: the config file's keys are the parser's own options -------------------
    PrivateUse(
        "argparse",
        "ArgumentParser",
        "_actions",
        "a parser's options (argparse has no public list of them; there since 2.7)",
        "server.configfile.file_options",
        instance=True,
    ),
    PrivateUse(
        "argparse",
        None,
        "_AppendAction",
        "a repeatable option takes a list in the file",
        "server.configfile._convert",
    ),
    # -- asyncssh: a bounded environment per channel -----------------------------------
    PrivateUse(
        "asyncssh",
        "SSHServerChannel",
        "_process_env_request",
        "every env request would be stored without limit",
        "server.ssh.channels._CappedEnvChannel",
    ),
    PrivateUse(
        "asyncssh",
        "SSHServerChannel",
        "_env",
        "the environment the override fills",
        "server.ssh.channels._CappedEnvChannel",
        instance=True,
    ),
    # -- asyncssh: one budget for every byte of a connection ----------------------------
    PrivateUse(
        "asyncssh",
        "SSHServerConnection",
        "_transport",
        "asyncssh writes its own answers there without flow control: its buffer is "
        "counted against the write cap, and its reading paused with the input budget",
        "server.ssh.flow.ConnectionFlow",
        instance=True,
    ),
)


def _instance(module: str, owner: str) -> object | None:
    """A fresh instance of ``owner`` for attributes set in ``__init__`` (None: none made)."""
    if (module, owner) == ("textual.app", "App"):
        from textual.app import App

        return App()
    if (module, owner) == ("textual.worker", "Worker"):
        from textual.app import App
        from textual.worker import Worker

        return Worker(App(), lambda: None)
    if (module, owner) == ("rich.style", "Style"):
        from rich.style import Style

        return Style(bold=True)
    if (module, owner) == ("textual.css.stylesheet", "Stylesheet"):
        from textual.css.stylesheet import Stylesheet

        return Stylesheet()
    if (module, owner) == ("textual.strip", "Strip"):
        from textual.strip import Strip

        return Strip([])
    if (module, owner) == ("textual.screen", "Screen"):
        from textual.screen import Screen

        return Screen()
    if (module, owner) == ("textual._compositor", "Compositor"):
        from textual._compositor import Compositor

        return Compositor()
    if (module, owner) == ("textual.driver", "Driver"):
        from textual.app import App
        from textual.drivers.headless_driver import HeadlessDriver

        return HeadlessDriver(App())
    if (module, owner) == ("textual._queue", "Queue"):
        from textual._queue import Queue

        return Queue()
    if (module, owner) == ("textual.dom", "DOMNode"):
        from textual.dom import DOMNode

        return DOMNode()
    if (module, owner) == ("textual._xterm_parser", "XTermParser"):
        from textual._xterm_parser import XTermParser

        return XTermParser()
    if (module, owner) == ("textual.cache", "FIFOCache"):
        from textual.cache import FIFOCache

        return FIFOCache(1)
    if (module, owner) == ("argparse", "ArgumentParser"):
        import argparse

        return argparse.ArgumentParser()
    if (module, owner) == ("asyncio", "Event"):
        import asyncio

        return asyncio.Event()
    if (module, owner) in (("asyncssh", "SSHServerChannel"), ("asyncssh", "SSHServerConnection")):
        return None  # needs a connection: checked on a real channel by the SSH tests
    raise LookupError(f"no way to make a {module}.{owner}")


def missing() -> list[str]:
    """Every listed use that the installed versions no longer provide (call it
    with an event loop running: a Textual driver needs one)."""
    gone: list[str] = []
    for use in PRIVATE_USES:
        name = f"{use.module}.{use.owner + '.' if use.owner else ''}{use.attribute}"
        try:
            target: object = importlib.import_module(use.module)
            if use.owner is not None:
                target = getattr(target, use.owner)
                if use.instance:
                    made = _instance(use.module, use.owner)
                    if made is None:
                        continue
                    target = made
        except (ImportError, AttributeError) as exc:
            gone.append(f"{name} ({exc}; used by {use.where}: {use.why})")
            continue
        if not hasattr(target, use.attribute):
            gone.append(f"{name} (used by {use.where}: {use.why})")
    return gone
