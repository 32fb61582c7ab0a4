"""Keys that reach the hosted app in one read (one SSH packet, one WebSocket frame) do
what the same keys typed one by one do.

Over SSH a quick Esc and the letter after it often travel in one packet: "\\x1bn". Read
as Alt+N, the Esc was lost and the letter went into the chat line as text.
"""

from __future__ import annotations

from skyjo_tui.screens.create_table import CreateTableScreen
from skyjo_tui.screens.lobby import LobbyScreen
from skyjo_tui.widgets.chat import ChatInput

from .conftest import HostedClients
from .pyteterm import until


async def test_esc_then_a_letter_in_one_read_leaves_the_chat_and_the_letter_is_a_key(
    hosted: HostedClients,
) -> None:
    session, transport = await hosted.lobby("ann")
    app = session.app
    assert app is not None and isinstance(app.screen, LobbyScreen)
    session.feed("c")
    await until(lambda: isinstance(app.focused, ChatInput), "the chat line focused")
    session.feed("hi")
    chat_line = app.focused
    assert isinstance(chat_line, ChatInput)
    await until(lambda: chat_line.value == "hi", "'hi' typed on the chat line")

    session.feed("\x1bn")  # Esc, then n (new table), in one packet
    await until(
        lambda: isinstance(app.screen, CreateTableScreen) or chat_line.value != "hi",
        "the Esc and the n handled",
    )
    assert chat_line.value == "hi", "the n was typed into the chat line"
    await until(lambda: "New table" in transport.text, "the new-table dialog drawn")
    assert isinstance(app.screen, CreateTableScreen)


async def test_letters_and_a_backspace_in_one_read_edit_in_the_order_typed(
    hosted: HostedClients,
) -> None:
    # Textual issue #6605: its text box inserts a letter as the key reaches it, but runs
    # a bound key (Backspace, the arrows) only once the key has bubbled up to the app.
    session, _ = await hosted.lobby("ann")
    app = session.app
    assert app is not None
    session.feed("c")
    await until(lambda: isinstance(app.focused, ChatInput), "the chat line focused")
    chat_line = app.focused
    assert isinstance(chat_line, ChatInput)

    session.feed("helo\x7flo")  # a quick typist: "helo", Backspace, "lo", in one packet
    await until(lambda: len(chat_line.value) >= 5, "five letters on the chat line")
    session.feed("\x1b[D\x1b[D!")  # then Left, Left and "!" in one packet
    await until(lambda: "!" in chat_line.value, "the '!' typed")
    assert chat_line.value == "hel!lo"
