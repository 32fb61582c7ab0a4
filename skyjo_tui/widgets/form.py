"""The scrolling container of a form (a new game, Settings, a new table, joining a server)."""

from __future__ import annotations

from textual.containers import VerticalScroll


class Form(VerticalScroll):
    """Scrolls when the form is taller than the terminal, but takes no Tab stop of its own:
    Tab goes from field to field (a stop on the container showed nothing focused, as if
    the key did nothing). The focused field is scrolled into view, so the keyboard still
    reaches every field of a form cut by a small terminal."""

    can_focus = False
