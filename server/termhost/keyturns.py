"""Input given to the app one key at a time, each once the app is done with the last.

Keys that arrive in one read (a quick typist, a paste, an SSH packet, a WebSocket frame,
tmux ``send-keys``) are posted to a Textual app together, whatever its driver, and Textual
then applies them out of order: the app hands every key to the widget focused *when the
app reads it*, a text box inserts a letter as the key reaches it but runs a bound key
(Backspace, the arrows) only once the key has bubbled back up to the app, and a key that
moves the focus (Esc leaving the chat line) moves it a few messages later (Textual issue
#6605). So "helo⌫lo" became "helol", and a letter typed just after Esc still went into
the chat line.

A terminal typed on key by key never shows it: each key is done before the next one
comes. So the app takes its next key only once every message pump of that app is quiet
(what Textual's own ``Pilot.press`` waits for, but for this one app, not the whole
process), bounded in time: an app that is never quiet (a flood of its own messages) gets
its keys every ``SETTLE_TIMEOUT`` at the latest. The first key of a read goes at once;
only the keys behind it wait, never more than ``MAX_BACKLOG`` of them. Whether the app is
done is looked at when the next key comes, once, and waited for in a task only if it is
not: a key typed on its own costs one look and no task (a task for every key cost about
0.7 ms of CPU a key in ``benchmarks/appcpu.py``).

This is the app's, not a driver's (``InputInTurnApp``): every Textual driver hands its
input to the app through ``App._post_message`` (Textual's ``LinuxDriver`` from its input
thread, by way of the event loop; the headless driver of ``Pilot``), and a driver that
runs on the loop itself (the doors' ``server.termhost.driver.TerminalDriver``) calls
``post_input``. So a local ``skyjo`` and a hosted one take their keys the same way.
It lives in the host, which knows no Skyjo, because the host's driver hands input to it;
the client's app is one (``skyjo_tui.app.SkyjoApp``).

An Esc and a character in one read are the two keys, not Alt and the character: over a
network a quick Esc and the key after it are often merged into one packet, and a
terminal's own Alt+letter is that same Esc and letter, which this app binds to nothing
(an Alt+arrow is an escape sequence of its own, unchanged).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections import deque
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Final, TypeVar

from textual import events
from textual.app import App
from textual.message import Message

if TYPE_CHECKING:
    from textual._queue import Queue
    from textual.message_pump import MessagePump

SETTLE_TIMEOUT: Final = 1.0
"""Seconds a key waits at most for the app to be done with the one before it: a key is
mostly done in milliseconds, and on a loaded machine still well within it; an app that is
never quiet gets the keys held back once a second."""
MAX_BACKLOG: Final = 256
"""Events held back at most; past it they are all posted at once (as Textual would)."""
_ALT: Final = "alt+"
_QUICK_LOOKS: Final = 8
_LOOK_AGAIN: Final = 0.005
ReturnType = TypeVar("ReturnType")


def unmerged(message: Message) -> tuple[Message, ...]:
    """``message``, or an Alt+character read from one read's Esc and character as the two."""
    if not isinstance(message, events.Key) or not message.key.startswith(_ALT):
        return (message,)
    character = message.character
    if character is None or len(character) != 1 or not character.isprintable():
        return (message,)
    key = message.key.removeprefix(_ALT)  # "n", "shift+n", "left_square_bracket"
    if key.startswith("shift+") and character.isupper():
        key = character  # Textual names an upper-case letter by itself
    return (events.Key("escape", "\x1b"), events.Key(key, character))


def typed(message: Message) -> bool:
    """A key, or a paste: what goes to the widget focused when the app reads it, so what
    waits for the app to be done with the key before (``c`` opening the chat line, then a
    paste in the same read: the paste went to the screen's table, and was lost)."""
    return isinstance(message, (events.Key, events.Paste))


class KeysInTurn:
    """Posts an app's input events in order, each key once the app is quiet."""

    def __init__(self, app: App[Any], post: Callable[[Message], object]) -> None:
        self._app = app
        self._post = post
        self._backlog: deque[Message] = deque()
        self._task: asyncio.Task[None] | None = None
        self._key_in_hand = False
        """A key was posted and the app was not seen done with it since."""

    def post(self, message: Message) -> None:
        keys = unmerged(message)
        if len(keys) > 1:
            for key in keys:
                key.set_sender(self._app)  # as the driver did for the merged one
        for event in keys:
            self._post_in_turn(event)

    def _post_in_turn(self, message: Message) -> None:
        if self._task is None:
            key = typed(message)
            if key and self._key_in_hand and not quiet(self._app):
                # Not done with the last key: this one waits its turn.
                self._backlog.append(message)
                self._task = asyncio.get_running_loop().create_task(self._next_keys())
                return
            self._post(message)
            # Whether the app is done with it is looked at when another key comes.
            self._key_in_hand = self._key_in_hand or key
            return
        self._backlog.append(message)
        if len(self._backlog) > MAX_BACKLOG:
            self._flush()

    def _flush(self) -> None:
        """Everything held back, at once: Textual's order rather than none."""
        while self._backlog:
            self._post(self._backlog.popleft())

    async def _next_keys(self) -> None:
        try:
            while True:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(SETTLE_TIMEOUT):
                        await until_quiet(self._app)
                if not self._backlog:
                    self._key_in_hand = False  # done with the last: it was seen quiet
                    return
                while self._backlog:  # up to the next key, which waits its turn again
                    message = self._backlog.popleft()
                    self._post(message)
                    if typed(message):
                        break
        finally:
            self._task = None

    def close(self) -> None:
        """Input has stopped: what was held back is dropped with the app's session."""
        self._backlog.clear()
        if self._task is not None:
            self._task.cancel()
            self._task = None


def _pumps(app: App[Any]) -> Iterator[MessagePump]:
    yield app
    yield from list(app._registry)  # noqa: SLF001 - every node of this app (private.py)


def _quiet(pump: MessagePump) -> bool:
    """Nothing waits in ``pump``'s queue and its task waits for the next message (not in a
    handler, where the queue is empty too): the one waiter on its queue's event."""
    if pump._closed:  # noqa: SLF001
        return True
    queue: Queue[Message | None] = pump._message_queue  # noqa: SLF001
    return (
        not queue.values
        and pump._pending_message is None  # noqa: SLF001
        and not pump._next_callbacks  # noqa: SLF001
        and bool(queue.ready_event._waiters)  # noqa: SLF001
    )


def quiet(app: App[Any]) -> bool:
    """Every message pump of ``app`` is quiet now."""
    return all(_quiet(pump) for pump in _pumps(app))


async def until_quiet(app: App[Any]) -> None:
    """Until every message pump of ``app`` is quiet (unbounded: the caller bounds it).

    Textual keeps no count of the messages in hand, so this looks again shortly after:
    at once the first times (a key is mostly done in a few turns of the loop)."""
    for turn in itertools.count():
        if quiet(app):
            return
        await asyncio.sleep(0 if turn < _QUICK_LOOKS else _LOOK_AGAIN)


class InputInTurnApp(App[ReturnType]):
    """A Textual app that takes its input events in turn, whichever driver reads them."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._input_in_turn = KeysInTurn(self, self.post_message)

    def post_input(self, message: Message) -> None:
        """An input event from the terminal, given to the app in its turn (on the loop)."""
        self._input_in_turn.post(message)

    async def _post_message(self, message: Message) -> bool:
        # Where every Textual driver posts its input (private.py lists it); the app's own
        # messages go through post_message, never held back.
        self.post_input(message)
        return True

    def _on_unmount(self) -> None:
        # Input has stopped (the driver's is disabled before Unmount): no task outlives the app.
        self._input_in_turn.close()
