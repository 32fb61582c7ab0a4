"""What SSH sessions share: parsed CSS, and Textual's render caches made lazy."""

from __future__ import annotations

import gc
from pathlib import Path

import asyncssh
from rich.segment import Segment
from rich.style import Style
from textual.cache import FIFOCache
from textual.color import Color
from textual.filter import Monochrome
from textual.strip import Strip

from server.termhost.sharing import NO_CACHE, LazyFIFOCache, use_lazy_render_caches

from ..ssh.sshkit import closing, connect, open_terminal, poll_until
from ..ssh.standin import stand_in_door


def test_lazy_fifo_cache_behaves_like_fifo_cache() -> None:
    lazy: LazyFIFOCache[str, int] = LazyFIFOCache(2)
    eager: FIFOCache[str, int] = FIFOCache(2)
    other: LazyFIFOCache[str, int] = LazyFIFOCache(2)
    for cache in (lazy, eager):
        assert cache.get("a") is None and "a" not in cache and len(cache) == 0
        cache["a"] = 1
        cache["b"] = 2
        cache["c"] = 3  # first in, first out
        assert (cache.get("a"), cache.get("b"), cache["c"], len(cache)) == (None, 2, 3, 2)
        cache.clear()
        assert len(cache) == 0 and not cache
    assert len(other) == 0  # writing one never touched the shared empty dict


def test_no_cache_keeps_nothing() -> None:
    NO_CACHE["key"] = "value"
    assert NO_CACHE.get("key", "default") == "default"
    assert "key" not in NO_CACHE and len(NO_CACHE) == 0


def test_strips_render_the_same_with_lazy_caches() -> None:
    use_lazy_render_caches()
    strip = Strip([Segment("hello ", Style(bold=True)), Segment("world", Style(color="red"))])
    # nothing made yet
    assert strip._style_cache is NO_CACHE and strip._divide_cache is NO_CACHE  # noqa: SLF001 - the test looks inside
    for _ in range(2):  # computed, then (where cached) from the cache
        assert [s.text for s in strip.divide([3, 8, 11])] == ["hel", "lo wo", "rld"]
        assert strip.crop(2, 9).text == "llo wor"
        assert strip.apply_style(Style(italic=True)).text == "hello world"
        assert strip.adjust_cell_length(13).cell_length == 13
        filtered = strip.apply_filter(Monochrome(), Color(0, 0, 0))
        assert filtered.text == "hello world"
    assert strip._divide_cache is not NO_CACHE and len(strip._divide_cache) == 1  # noqa: SLF001 - the test looks inside
    assert strip._style_cache is NO_CACHE  # noqa: SLF001 - never pays off: not kept


def test_a_strip_divided_at_its_end_is_freed_without_the_cyclic_collector() -> None:
    """Textual caches ``[self]`` in the strip's own cache: a cycle for every line of every
    frame, freed only by collections that then pause a worker for 100+ ms (issue 11)."""
    use_lazy_render_caches()
    strip = Strip([Segment("hello", Style(bold=True)), Segment(" world")])
    assert strip.divide([strip.cell_length]) == [strip]
    assert [part.text for part in strip.divide([3, 11, 99])] == ["hel", "lo world"]
    gc.collect()
    debug = gc.get_debug()
    gc.set_debug(debug | gc.DEBUG_SAVEALL)
    try:
        whole = Strip([Segment("hello", Style(bold=True)), Segment(" world")])
        assert whole.divide([whole.cell_length]) == [whole]
        del whole
        gc.collect()
        assert not [item for item in gc.garbage if isinstance(item, Strip)]
    finally:
        gc.set_debug(debug)
        gc.garbage.clear()


async def test_sessions_share_parsed_css(tmp_path: Path) -> None:
    async with stand_in_door(tmp_path) as door:
        keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(2)]
        conns = [await connect(door.port, "skyjo", client_keys=[key]) for key in keys]
        async with closing(conns[0]), closing(conns[1]):
            async with open_terminal(conns[0]) as one, open_terminal(conns[1]) as two:
                await one.wait_for("ID=")
                await two.wait_for("ID=")
                first, second = door.apps
                assert first.stylesheet is not second.stylesheet
                shared = [
                    a is b
                    for a, b in zip(first.stylesheet.rules, second.stylesheet.rules, strict=True)
                ]
                assert shared and all(shared)

                # A theme of its own: that app parses again; the other is untouched.
                before = list(second.stylesheet.rules)
                first.theme = "textual-light"
                await poll_until(lambda: first.stylesheet.rules[0] is not before[0], "reparse")
                assert second.stylesheet.rules == before
