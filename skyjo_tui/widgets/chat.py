"""A chat: the lines so far and a line to type; posts ``ChatPanel.Send``."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input

from .line_log import LineLog
from .text import literal


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


class ChatPanel(Vertical):
    DEFAULT_CSS = """
    ChatPanel { height: 1fr; border: round $panel; border-title-color: $text-muted; }
    ChatPanel LineLog { height: 1fr; }
    ChatPanel Input { height: 1; }
    """

    class Send(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(
        self,
        title: str,
        placeholder: str,
        max_length: int = 300,
        *,
        newer_below: str = "▼",
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.border_title = literal(title)
        self._placeholder, self._max_length = placeholder, max_length
        self._newer_below = newer_below

    def compose(self) -> ComposeResult:
        yield LineLog(newer_below=self._newer_below)
        yield ChatInput(placeholder=self._placeholder, max_length=self._max_length, compact=True)

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

    def focus_input(self) -> None:
        self.query_one(ChatInput).focus()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        event.input.value = ""
        if text:
            self.post_message(self.Send(text))
