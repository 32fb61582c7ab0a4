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
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

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
    """A form's or a dialog's button, marked while it is focused: Enter presses it. Only the
    focused one is filled: a primary button filled blue read as focused (Enter on a field
    was thought to press it), so the primary one (and a dangerous one, red) differs by the
    colour of its words."""

    DEFAULT_CSS = """
    FormButton.-style-default {
        &.-primary { background: $surface; color: $text-primary; }
        &.-error { background: $surface; color: $text-error; }
        &:focus { background: $accent; color: $background; text-style: bold; }
    }
    """

    #: False while a dialog covers the button's screen (``show_focus_marks``): the mark is
    #: where the keyboard is, and it is then in the dialog.
    screen_active: reactive[bool] = reactive(True)

    def render(self) -> Content:
        # Textual redraws it on focus and blur.
        return marked(literal(self.label), self.has_focus and self.screen_active)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        # Room for the mark: a button as wide as its words wrapped them once marked.
        return super().get_content_width(container, viewport) + len(FOCUS_MARK)


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

    def _mark_rows(self, active: bool = True) -> None:
        focused = self.screen.focused if active else None
        path = set(focused.ancestors_with_self) if focused is not None else set()
        rows = list(self.children)
        for label, field in pairwise(rows):
            if isinstance(label, FieldLabel):
                label.marked = field in path


def show_focus_marks(screen: Widget, active: bool) -> None:
    """Mark where the keyboard is on ``screen``'s forms and buttons, or, while a dialog
    covers it (``active`` False), nowhere: a screen keeps its focused widget under a dialog,
    and two "▶" on the screen did not say which one Enter would press."""
    for grid in screen.query(FormGrid):
        grid._mark_rows(active)  # noqa: SLF001 (the module's own)
    for button in screen.query(FormButton):
        button.screen_active = active
