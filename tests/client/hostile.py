"""Text that would be markup, typed by people who mean harm, and how to see it on screen.

Names, table names and chat lines the server accepts (printable, within its
lengths) that Textual would read as markup: a closing tag that does not
match (a ``MarkupError``), a hyperlink, styles, a click action. On screen
each must read exactly as typed, with no link, no blinking and no style
switched on or off inside it.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from typing import Any

from rich.segment import Segment
from textual.app import App

from server.netclient import ServerConnection, ServerError

LINK = '[link="https://evil.example/"]free[/]'
#: Player names (at most 20 characters).
CLOSE_TAG = "[/x]"
STYLES = "[reverse][blink]x"
CLICK = "[@click=app.quit]x"
BOLD_UNICODE = "[b]Zoë ★ 日本[/b]"
#: Table names (at most 40 characters).
LINK_TABLE = LINK
CLOSE_TABLE = "[/x] party"
LONG_TABLE = "[@click=app.quit][b]Ünïcødé ☃ ★ 日本語 [/b]"
#: Chat lines.
LOBBY_CHAT = f"{LINK} {CLOSE_TAG}"
TABLE_CHAT = f"{CLICK} [/] [b]"


@dataclass(frozen=True)
class Cell:
    char: str
    link: str | None
    blink: bool
    reverse: bool
    click: bool


def screen_lines(app: App[Any]) -> list[list[Cell]]:
    """The current screen as the terminal would get it, one cell per character."""
    lines = []
    for strip in app.screen._compositor.render_strips():  # noqa: SLF001 - what export_screenshot draws
        cells: list[Cell] = []
        for segment in strip:
            cells.extend(_cells(segment))
        lines.append(cells)
    return lines


def _cells(segment: Segment) -> list[Cell]:
    style = segment.style
    link = style.link if style else None
    blink = bool(style and (style.blink or style.blink2))
    reverse = bool(style and style.reverse)
    click = bool(style and any(str(key).startswith("@") for key in (style.meta or {})))
    return [Cell(char, link, blink, reverse, click) for char in segment.text]


def screen_text(app: App[Any]) -> str:
    return "\n".join("".join(cell.char for cell in line) for line in screen_lines(app))


def shows_literally(app: App[Any], *texts: str) -> list[str]:
    """What is wrong with how ``texts`` are shown (empty: each is on screen as typed, unstyled).

    Anywhere on the screen, no cell links anywhere, blinks, or runs an action
    when clicked (the client does none of these); within each text, no style
    changes from one cell to the next (no ``[reverse]`` taking effect).
    """
    lines = screen_lines(app)
    problems = []
    for y, line in enumerate(lines):
        for cell in line:
            if cell.link or cell.blink or cell.click:
                problems.append(f"line {y} has {cell}")
                break
    for text in texts:
        found = False
        for y, line in enumerate(lines):
            plain = "".join(cell.char for cell in line)
            start = plain.find(text)
            while start != -1:
                found = True
                reverses = {cell.reverse for cell in line[start : start + len(text)]}
                if len(reverses) > 1:
                    problems.append(f"{text!r} changes style on line {y}")
                start = plain.find(text, start + 1)
        if not found:
            problems.append(f"{text!r} is not on screen")
    return problems


class Mischief:
    """A person on a plain protocol connection with a name that would be markup.

    Plays the first legal move and is always ready, unless ``hold()``: then
    waits (so others' screens show that it is their turn) until ``go()``.
    """

    def __init__(self, conn: ServerConnection, name: str) -> None:
        self.conn, self.name = conn, name
        self.table: dict[str, Any] = {}
        self.view: dict[str, Any] | None = None
        self._news = asyncio.Event()
        self._free = asyncio.Event()
        self._free.set()
        self._tasks: list[asyncio.Task[None]] = []

    @classmethod
    async def arrive(cls, port: int, name: str) -> Mischief:
        conn = await ServerConnection.open("127.0.0.1", port)
        await conn.hello(name=name)
        person = cls(conn, name)
        person._tasks = [
            asyncio.ensure_future(person._listen()),
            asyncio.ensure_future(person._play()),
        ]
        return person

    def hold(self) -> None:
        self._free.clear()

    def go(self) -> None:
        self._free.set()
        self._news.set()

    async def _listen(self) -> None:
        async for push in self.conn.pushes():
            if push["type"] == "table":
                self.table = push["table"]
            elif push["type"] == "game":
                self.view = push["view"]
                self._news.set()

    async def _play(self) -> None:
        while True:
            await self._news.wait()
            self._news.clear()
            await self._free.wait()
            view = self.view
            if view is None:
                continue
            with contextlib.suppress(ServerError):
                if view["legal_actions"]:
                    await self.conn.act(view["legal_actions"][0])
                elif view["phase"] == "round_over":
                    await self.conn.request({"type": "ready", "ready": True})

    async def leave(self) -> None:
        # Closing first ends the pushes, so the tasks stop even if a cancel is lost
        # (Python 3.11's wait_for can swallow one when its reply lands at that moment).
        await self.conn.close()
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=10)
