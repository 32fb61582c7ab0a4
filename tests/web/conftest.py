"""The real-browser tests share one Chromium per module (a fresh context per test).

Playwright's objects live on the event loop that made them, so these tests
and their async fixtures run on the module's loop: each module says
``pytestmark = IN_BROWSER`` (browserkit), and its async fixtures take
``loop_scope="module"``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest_asyncio
from playwright.async_api import Browser, BrowserContext

from .browserkit import TIMEOUT, VIEWPORT, chromium


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Browser]:
    async with chromium() as browser:
        yield browser


@pytest_asyncio.fixture(loop_scope="module")
async def context(browser: Browser) -> AsyncIterator[BrowserContext]:
    """A fresh profile (no cookies) for one test."""
    context = await browser.new_context(viewport=VIEWPORT)
    try:
        yield context
    finally:
        await asyncio.wait_for(context.close(), TIMEOUT)
