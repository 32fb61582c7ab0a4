"""A form (a new game, Settings, a new table, joining a server): rows of a label and its
field, then buttons. Where Enter and typing go is shown twice over: a "▶" before the focused
row's label or button (seen without colour, read by a test), and the field or button filled
with the theme's accent: the one filled control of the form (the primary button shows its
words in the primary colour, unfilled)."""

from __future__ import annotations

from itertools import pairwise
from typing import Any, Final

from textual import events
from textual.containers import Grid, VerticalScroll
from textual.content import Content, ContentText
from textual.reactive import reactive

from .text import Button, Label, literal

#: Before the words of the row or button that has the keyboard; the same width of spaces
#: before the others, so nothing moves when the focus does.
FOCUS_MARK: Final = "▶ "
NO_MARK: Final = "  "


def marked(words: Content, mark: bool) -> Content:
    return Content(FOCUS_MARK if mark else NO_MARK) + words


class Form(VerticalScroll):
    """Scrolls when the form is taller than the terminal, but takes no Tab stop of its own:
    Tab goes from field to field (a stop on the container showed nothing focused, as if
    the key did nothing). The focused field is scrolled into view, so the keyboard still
    reaches every field of a form cut by a small terminal."""

    can_focus = False


class FieldLabel(Label):
    """A form row's label: ``marked`` (by its ``FormGrid``) while the row's field is focused."""

    marked: reactive[bool] = reactive(False, toggle_class="-marked")

    def __init__(self, words: ContentText, **options: Any) -> None:
        super().__init__(**options)
        self.words = literal(words)

    def render(self) -> Content:
        return marked(self.words, self.marked)


class FormButton(Button):
    """A form's button, marked while it is focused: Enter presses it. Only the focused one
    is filled: a primary button filled blue read as focused (Enter on a field was thought to
    press it), so the primary one differs by the colour of its words."""

    DEFAULT_CSS = """
    FormButton.-style-default {
        &.-primary { background: $surface; color: $text-primary; }
        &:focus { background: $accent; color: $background; text-style: bold; }
    }
    """

    def render(self) -> Content:
        return marked(literal(self.label), self.has_focus)  # Textual redraws it on focus and blur


class FormGrid(Grid):
    """The rows of a form: a ``FieldLabel``, then its field (a ``Select`` or an ``Input``).

    Textual's compact fields show focus only by a 5 % lighter background (one step of the
    grey ramp): people pressed Enter on Start or Back thinking a field was focused."""

    DEFAULT_CSS = """
    FormGrid {
        grid-size: 2; grid-columns: 26 1fr; grid-rows: 1; grid-gutter: 0 1; height: auto;
        & > FieldLabel { height: 1; }
        & > FieldLabel.-marked { color: $accent; text-style: bold; }
        & > Select, & > Input { width: 30; }
        /* No tint over the accent: Textual's focus look is a 5 % tint alone. */
        & > Select:focus-within > SelectCurrent, & > Input:focus {
            background: $accent; background-tint: $accent 0%; color: $background;
            text-style: bold;
        }
        & > Select:focus-within > SelectCurrent > Static#label, & > Select:focus-within .arrow {
            color: $background;
        }
    }
    """

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self._mark_rows()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self._mark_rows()

    def _mark_rows(self) -> None:
        focused = self.screen.focused
        path = set(focused.ancestors_with_self) if focused is not None else set()
        rows = list(self.children)
        for label, field in pairwise(rows):
            if isinstance(label, FieldLabel):
                label.marked = field in path
