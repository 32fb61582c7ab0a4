"""What many Textual apps in one process can share, to cost less each.

Textual assumes one app per process, so each app parses its stylesheets on
its own and every rendered line (``Strip``) allocates seven small caches up
front.  With one app per player both multiply by the number of players:

* ``share_parsed_css()`` - parsed CSS rules are pure data (selectors and
  declarations); apps with the same CSS and the same theme variables can use
  the same ``RuleSet`` objects.  Saves the parse time (~50 ms of a session's
  start, twice: an app that sets its theme parses again into a fresh
  ``Stylesheet`` when it starts) and its memory for every session after the
  first.
* ``use_lazy_render_caches()`` - every rendered line (``Strip``) allocates
  seven small caches (an object and a dict each) up front, and a game screen
  holds over a thousand strips: ~10,000 objects per session, of which fewer
  than one in ten is ever written.  Strips now get caches on first use, and
  only the three that are hit; the others compute each time (they saw no
  hit in a whole game screen).  About 0.6 MiB less per session, and ten
  thousand fewer objects for the garbage collector to walk.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Hashable
from typing import Any, Final, TypeVar

from textual.cache import FIFOCache, LRUCache
from textual.css.stylesheet import Stylesheet

logger = logging.getLogger(__name__)

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

# --------------------------------------------------------------------------
# parsed CSS
# --------------------------------------------------------------------------

_PARSED_RULES: Final[LRUCache[tuple[Any, ...], Any]] = LRUCache(256)
"""(the stylesheet's own parse key, its variables) -> list of RuleSet."""


class SharedParseCache:
    """Stands in for one ``Stylesheet._parse_cache``, backed by ``_PARSED_RULES``.

    The stylesheet's key is (css, location, is_default, tie_breaker, scope);
    parsing also substitutes the theme's variables, so they join the key.
    ``clear()`` (called when the variables change) has nothing to do: the
    entries of other variables simply stop matching.
    """

    __slots__ = ("_stylesheet",)

    def __init__(self, stylesheet: Any) -> None:
        self._stylesheet = stylesheet

    def _key(self, key: tuple[Any, ...]) -> tuple[Any, ...]:
        variables = self._stylesheet._variables  # noqa: SLF001 - (private.py)
        return (key, tuple(sorted(variables.items())))

    def __getitem__(self, key: tuple[Any, ...]) -> Any:
        return _PARSED_RULES[self._key(key)]

    def __setitem__(self, key: tuple[Any, ...], rules: Any) -> None:
        _PARSED_RULES[self._key(key)] = rules

    def clear(self) -> None:
        pass


def share_parsed_css() -> None:
    """Make every stylesheet in this process reuse rules parsed for earlier apps.

    Every one, not only each app's own: ``Stylesheet.reparse`` (when an app sets
    its theme, as every app does when it starts) parses into a fresh
    ``Stylesheet``. Idempotent.
    """
    init = Stylesheet.__init__
    if getattr(init, "shares_parsed_css", False):
        return
    if not hasattr(Stylesheet(), "_parse_cache") or not hasattr(Stylesheet(), "_variables"):
        logger.warning("textual's Stylesheet changed; parsed CSS is not shared")
        return

    @functools.wraps(init)
    def init_sharing(self: Stylesheet, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        self._parse_cache = SharedParseCache(self)  # type: ignore[assignment]  # duck-typed LRUCache

    init_sharing.shares_parsed_css = True  # type: ignore[attr-defined]
    Stylesheet.__init__ = init_sharing  # type: ignore[method-assign]


# --------------------------------------------------------------------------
# render caches
# --------------------------------------------------------------------------

_NOTHING_CACHED: Final[dict[Any, Any]] = {}
"""The shared empty dict of every lazy cache not written yet (never written to)."""


class LazyFIFOCache(FIFOCache[K, V]):
    """``FIFOCache`` that allocates its dict on the first write.

    Reads of a cache never written see the shared empty dict; ``set`` swaps
    in a dict of its own first, so the shared one stays empty.
    """

    __slots__ = ()

    def __init__(self, maxsize: int) -> None:
        self._maxsize = maxsize
        self._cache = _NOTHING_CACHED
        self.hits = 0
        self.misses = 0

    def set(self, key: K, value: V) -> None:
        if self._cache is _NOTHING_CACHED:
            self._cache = {}
        FIFOCache.set(self, key, value)

    __setitem__ = set

    def clear(self) -> None:
        self._cache = _NOTHING_CACHED


class _NoCache:
    """A cache that keeps nothing: what a ``Strip`` gets until it uses a cache."""

    __slots__ = ()
    hits = misses = 0

    def get(self, key: object, default: Any = None) -> Any:
        return default

    def __getitem__(self, key: object) -> Any:
        raise KeyError(key)

    def __contains__(self, key: object) -> bool:
        return False

    def set(self, key: object, value: object) -> None:
        pass

    __setitem__ = set

    def __len__(self) -> int:
        return 0

    def keys(self) -> tuple[()]:
        return ()

    def clear(self) -> None:
        pass


NO_CACHE: Final = _NoCache()

_STRIP_CACHES_IN_USE: Final = {
    # method -> (its cache slot, the size Textual 8 gives it)
    "divide": ("_divide_cache", 4),
    "apply_filter": ("_filter_cache", 4),
    "crop": ("_crop_cache", 16),
}
"""The Strip caches that are hit while a game is on screen (measured); the
four others (style, line length, crop-extend, offsets) saw no hit and stay
``NO_CACHE``: those operations are simply computed each time."""


def _no_cache(maxsize: int) -> _NoCache:
    return NO_CACHE


def _cache_on_first_use(method: Any, slot: str, size: int) -> Any:
    def with_cache(self: Any, *args: Any, **kwargs: Any) -> Any:
        if getattr(self, slot) is NO_CACHE:
            setattr(self, slot, LazyFIFOCache(size))
        return method(self, *args, **kwargs)

    with_cache.__wrapped__ = method  # type: ignore[attr-defined]
    with_cache.__name__ = method.__name__
    with_cache.__doc__ = method.__doc__
    return with_cache


def _whole_strip_without_cycle(divide: Any) -> Any:
    """``Strip.divide`` that hands back ``[self]`` for a cut at the strip's own end
    without caching it: Textual keeps that list in the strip's own cache, a
    reference cycle made for every line of every frame, which only the cyclic
    collector could free (about 160 objects a key press, freed 30,000 at a
    time in 120-140 ms pauses of a worker with 60 players)."""

    def divide_strip(self: Any, cuts: Any) -> Any:
        cell_length = self.cell_length
        kept = [cut for cut in cuts if cut <= cell_length]
        if kept == [cell_length]:
            return [self]
        return divide(self, kept)

    divide_strip.__wrapped__ = divide  # type: ignore[attr-defined]
    divide_strip.__name__ = divide.__name__
    divide_strip.__doc__ = divide.__doc__
    return divide_strip


_lazy_caches_installed = False


def use_lazy_render_caches() -> None:
    """Make Textual's per-line and per-widget caches lazy, process-wide (idempotent).

    A ``Strip`` starts with ``NO_CACHE`` in all seven cache slots (nothing
    allocated); the three caches that pay off are made on first use.
    Widgets' and contents' caches allocate their dict on first write.
    """
    global _lazy_caches_installed
    if _lazy_caches_installed:
        return
    import textual.content
    import textual.strip
    import textual.widget

    for module in (textual.widget, textual.content):
        _replace_fifo_cache(module, LazyFIFOCache)
    strip_class = textual.strip.Strip
    if all(hasattr(strip_class, name) for name in _STRIP_CACHES_IN_USE) and _replace_fifo_cache(
        textual.strip, _no_cache
    ):
        for name, (slot, size) in _STRIP_CACHES_IN_USE.items():
            setattr(strip_class, name, _cache_on_first_use(getattr(strip_class, name), slot, size))
        strip_class.divide = _whole_strip_without_cycle(strip_class.divide)  # type: ignore[method-assign]
    _lazy_caches_installed = True


def _replace_fifo_cache(module: Any, replacement: Any) -> bool:
    if getattr(module, "FIFOCache", None) is not FIFOCache:
        logger.warning("textual's %s changed; its caches stay as they are", module.__name__)
        return False
    module.FIFOCache = replacement
    return True
