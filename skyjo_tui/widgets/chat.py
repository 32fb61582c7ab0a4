"""A chat: the lines so far and a line to type; posts ``ChatPanel.Send``.

Every chat (the lobby's, a table's room, the table's) is typed on a ``ChatField``: it
holds at most the server's limit, says how much of it is used, joins a pasted text's
lines and cuts a paste at the limit saying so, so that no chat throws away a text on
Enter that it took without a word (the table's took any length, which the server then
refused whole; the lobby's refused a paste over the limit whole, silently).
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message

from server.protocol import DEFAULT_CHAT_MAX_LENGTH

from ..i18n import Translator
from .line_log import LineLog
from .text import Input, Label, literal


class ChatInput(Input):
    """The line a chat message is typed on. Esc leaves it (posts ``ChatInput.Closed``),
    and the footer says so: while typing, every letter key of the screen is text,
    so these two are the only keys the footer can show."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "submit", "keys.send", id="chat.send"),
        Binding("escape", "close", "keys.close_chat", id="chat.close"),
    ]

    class Closed(Message):
        """The player left the chat line (the screen decides where the keyboard goes)."""

        def __init__(self, chat_input: ChatInput) -> None:
            super().__init__()
            self.chat_input = chat_input

        @property
        def control(self) -> ChatInput:
            return self.chat_input

    def action_close(self) -> None:
        self.post_message(self.Closed(self))

    def take_back(self, text: str) -> None:
        """``text``, sent and not taken (the server refused it, the connection is lost), on
        the line again to be sent later, unless something new is typed there already."""
        if not self.value:
            self.value = text[: self.max_length] if self.max_length else text
            self.cursor_position = len(self.value)


class ChatField(Horizontal):
    """A ``ChatInput`` and, once something is typed, how much of the limit it uses
    ("287/300"), and that a paste was cut to fit ("300/300 · paste cut")."""

    DEFAULT_CSS = """
    ChatField { height: 1; }
    ChatField ChatInput { width: 1fr; }
    ChatField #chat-count { width: auto; height: 1; padding: 0 0 0 1; color: $text-muted; }
    ChatField #chat-count.full { color: $warning; text-style: bold; }
    """

    def __init__(
        self,
        tr: Translator,
        max_length: int = DEFAULT_CHAT_MAX_LENGTH,
        *,
        id: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(id=id, disabled=disabled)
        self.tr = tr
        self._max_length = max_length
        self._cut: str | None = None
        """The text as a paste cut to fit left it (said until it changes)."""

    def compose(self) -> ComposeResult:
        yield ChatInput(
            placeholder=self.tr("chat.placeholder"),
            max_length=self._max_length,
            compact=True,
            id="chat-input",
        )
        count = Label("", id="chat-count")
        count.display = False  # until something is typed
        yield count

    @property
    def chat_input(self) -> ChatInput:
        return self.query_one(ChatInput)

    def say_in(self, tr: Translator) -> None:
        """Speak ``tr``'s language from now on (Settings changed it)."""
        self.tr = tr
        self.chat_input.placeholder = tr("chat.placeholder")
        self._count()

    @on(Input.Changed, "#chat-input")
    def _changed(self) -> None:
        self._count()

    @on(Input.Cut, "#chat-input")
    def _paste_cut(self, event: Input.Cut) -> None:
        event.stop()
        self._cut = event.field.value
        self._count()

    def _count(self) -> None:
        value, limit = self.chat_input.value, self._max_length
        if self._cut is not None and value != self._cut:
            self._cut = None
        words = self.tr("chat.count", count=len(value), max_length=limit) if value else ""
        if self._cut is not None:
            words = self.tr("chat.count_cut", count=len(value), max_length=limit)
        count = self.query_one("#chat-count", Label)
        count.update(words)
        count.display = bool(words)
        count.set_class(len(value) >= limit, "full")


class ChatPanel(Vertical):
    DEFAULT_CSS = """
    ChatPanel { height: 1fr; border: round $panel; border-title-color: $text-muted; }
    ChatPanel LineLog { height: 1fr; }
    """

    class Send(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(
        self,
        title: str,
        tr: Translator,
        max_length: int = DEFAULT_CHAT_MAX_LENGTH,
        *,
        newer_below: str = "▼",
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.border_title = literal(title)
        self._tr, self._max_length = tr, max_length
        self._newer_below = newer_below

    def compose(self) -> ComposeResult:
        yield LineLog(newer_below=self._newer_below)
        yield ChatField(self._tr, self._max_length)

    def add_line(self, name: str, text: str) -> None:
        self.query_one(LineLog).write_chat(name, text)

    def add_note(self, text: str) -> None:
        self.query_one(LineLog).write(Text(text, style="dim italic"))

    def clear(self) -> None:
        self.query_one(LineLog).clear()

    @property
    def text(self) -> str:
        """Everything shown so far, as plain text."""
        return "\n".join(self.query_one(LineLog).lines)

    @property
    def chat_input(self) -> ChatInput:
        return self.query_one(ChatInput)

    def focus_input(self) -> None:
        self.chat_input.focus()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        event.input.value = ""
        if text:
            self.post_message(self.Send(text))
