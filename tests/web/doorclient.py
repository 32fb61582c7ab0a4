"""A plain WebSocket client of the browser door (aiohttp's real client), speaking
textual.js's protocol, with the terminal output on a pyte screen."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Mapping

import aiohttp
import pyte

TIMEOUT = 30.0
"""Seconds a screen may take to show what a player waits for (bounded; generous under load)."""


class DoorClient:
    """One browser-like connection: keys in, screen out, every text frame kept."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, size: tuple[int, int]) -> None:
        self.ws = ws
        self.screen = pyte.Screen(*size)
        self._stream = pyte.ByteStream(self.screen)
        self.text_frames: list[str] = []
        self.received = 0
        self.frames = 0
        """Binary frames (terminal output) received so far."""
        self._changed = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.ws:
            if message.type is aiohttp.WSMsgType.BINARY:
                self.received += len(message.data)
                self.frames += 1
                self._stream.feed(message.data)
            elif message.type is aiohttp.WSMsgType.TEXT:
                self.text_frames.append(message.data)
            self._changed.set()
        self._changed.set()

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def shows(self, needle: str, timeout: float = TIMEOUT) -> str:
        """Until the screen shows ``needle`` (fails after ``timeout``); the screen."""

        async def wait() -> None:
            while needle not in self.text:
                if self._reader.done():
                    raise AssertionError(
                        f"closed ({self.ws.close_code}) before {needle!r}:\n{self.text}"
                    )
                self._changed.clear()
                await self._changed.wait()

        try:
            await asyncio.wait_for(wait(), timeout)
        except TimeoutError:
            raise AssertionError(f"{needle!r} not shown in {timeout} s:\n{self.text}") from None
        return self.text

    async def until_frames(
        self, count: int, timeout: float = TIMEOUT, *, or_shows: str | None = None
    ) -> bool:
        """Until ``count`` frames of output arrived, or the screen shows ``or_shows``
        (True: a screen drawn in fewer frames than another time, the machine being busy,
        sends no more), or the connection ended before (False)."""

        async def wait() -> bool:
            while self.frames < count and not (or_shows is not None and or_shows in self.text):
                if self._reader.done():
                    return False
                self._changed.clear()
                await self._changed.wait()
            return True

        return await asyncio.wait_for(wait(), timeout)

    async def closed(self, timeout: float = TIMEOUT) -> int | None:
        """Until the server closed the connection; its close code."""
        await asyncio.wait_for(asyncio.shield(self._reader), timeout)
        return self.ws.close_code

    async def type(self, text: str) -> None:
        await self.ws.send_str(json.dumps(["stdin", text]))

    async def send(self, message: object) -> None:
        await self.ws.send_str(json.dumps(message))

    async def close(self) -> None:
        await self.ws.close()
        self._reader.cancel()
        await asyncio.gather(self._reader, return_exceptions=True)


@contextlib.asynccontextmanager
async def door_client(
    url: str,
    *,
    size: tuple[int, int] = (100, 30),
    headers: Mapping[str, str] | None = None,
    cookies: Mapping[str, str] | None = None,
    max_msg_size: int = 4 * 1024 * 1024,
    autoping: bool = True,
) -> AsyncIterator[DoorClient]:
    """A connection to the door's WebSocket at ``url`` (the page's), closed at the end.

    ``autoping=False``: a browser that vanished (it never answers the door's pings)."""
    ws_url = f"{url.rstrip('/')}/ws?width={size[0]}&height={size[1]}"
    sent = dict(headers or {})
    if cookies:
        sent["Cookie"] = "; ".join(f"{name}={value}" for name, value in cookies.items())
    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(
            ws_url,
            headers=sent,
            max_msg_size=max_msg_size,
            autoping=autoping,
            timeout=aiohttp.ClientWSTimeout(ws_close=5.0),
        )
        client = DoorClient(ws, size)
        try:
            yield client
        finally:
            await client.close()


async def page_cookie(url: str, headers: Mapping[str, str] | None = None) -> tuple[str, str]:
    """GET the page as a browser would: the ``skyjo_id`` value and the raw Set-Cookie line."""
    async with aiohttp.ClientSession() as session:
        async with session.get(url, headers=dict(headers or {})) as reply:
            assert reply.status == 200
            line = reply.headers.get("Set-Cookie", "")
            return reply.cookies["skyjo_id"].value, line
