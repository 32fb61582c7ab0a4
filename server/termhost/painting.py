"""Partial updates that paint only the lines that changed (process-wide, idempotent).

A key press at the table changes one widget: the player's tableau, ten lines
of a 24-line screen.  Textual's compositor then paints the region that
changed, but it asks every widget whose *clip* (its container's region)
touches that region for all of its lines: at 80x24 that is every widget on
the screen, ten of them, the screen's own 24 lines and the footer's included,
to keep the few lines that changed.  That was about two thirds of the CPU
time of a key press in a hosted app (``benchmarks/appcpu.py``).

``paint_changed_lines_only()`` replaces ``Compositor._get_renders`` with the
same walk that skips the widgets the update does not touch and asks the
others only for the lines within the update.  It crops lines, never columns:
the compositor cuts each line at the widgets' edges, and a strip that began
between two cuts would be shifted (Textual's own crop is a widget's visible
region, whose edges are always cuts).  A full update (the whole screen) is
painted as before.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from textual.geometry import Region
from textual.strip import Strip

logger = logging.getLogger(__name__)

_installed = False


def paint_changed_lines_only() -> None:
    """Install the line-cropping walk on Textual's compositor (once)."""
    global _installed
    if _installed:
        return
    from textual._compositor import Compositor

    if not hasattr(Compositor, "_get_renders") or not hasattr(Compositor, "visible_widgets"):
        logger.warning("textual's compositor changed; partial updates stay as they are")
        return
    Compositor._get_renders = _renders_within  # type: ignore[method-assign]  # noqa: SLF001 - (private.py)
    _installed = True


def _renders_within(
    self: Any, crop: Region | None = None
) -> Iterable[tuple[Region, Region, list[Strip]]]:
    """``(region, painted, strips)`` for each visible widget the update touches,
    front to back: ``painted`` is the part of the widget that is shown and within
    the update's lines, and ``strips`` its lines there (the compositor places
    them at ``region`` clipped to ``painted``).

    A widget hidden, within the update, behind one already painted is skipped: the
    compositor keeps the front one's cells (the first painted wins), so its lines
    would be drawn only to be thrown away. A key at the table changes the player's
    tableau, and the three containers behind it were each asked for those lines."""
    fronts: list[Region] = []
    for widget, (region, clip) in self.visible_widgets.items():
        shown = region.intersection(clip)
        if crop:  # as Textual's: an empty crop paints everything
            if not shown.overlaps(crop):
                continue
            within = shown.intersection(crop)
            if any(front.contains_region(within) for front in fronts):
                continue
            fronts.append(within)
            top = max(shown.y, crop.y)
            bottom = min(shown.bottom, crop.bottom)
            shown = Region(shown.x, top, shown.width, bottom - top)
        if shown.width and shown.height:
            yield (
                region,
                shown,
                widget.render_lines(
                    Region(shown.x - region.x, shown.y - region.y, shown.width, shown.height)
                ),
            )
