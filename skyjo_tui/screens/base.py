"""What every screen of the client shares: the app (as ``Host``), its words, its minimum size."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar, cast

from textual import events
from textual._context import active_app  # private: see server/termhost/private.py
from textual.binding import Binding
from textual.screen import ModalScreen, Screen

from ..bindings import localize_bindings, word_of
from ..host import Host
from ..i18n import Translator
from ..keymap import keys_now
from ..layout import MENU_MIN_SIZE, upright
from ..widgets.form import show_focus_marks

ResultType = TypeVar("ResultType")

if TYPE_CHECKING:
    # What the mixin is mixed into (a screen or a modal screen), for mypy to check it by.
    _MixedInto = Screen[Any]
else:
    _MixedInto = object


class SkyjoScreenMixin(_MixedInto):
    """The client's own attributes, for screens and modal screens alike."""

    stands_for_lobby: bool = False
    """True for a table's room or board opened in the lobby's place
    (``Navigator.take_a_seat``): leaving it brings a lobby back."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._has_resumed = False
        # (language, key) -> how the app shows it (``key_label``): French names keys its way.
        self._key_displays: dict[tuple[str, str], str] = {}
        # Before anything is composed, so the footer never shows a locale key.
        tr = _running_translator()
        if tr is not None:
            localize_bindings(self, tr)

    @property
    def skyjo(self) -> Host:
        """The app, as a screen may ask it (``host.Host``: the app is checked to be one)."""
        return cast(Host, self.app)

    @property
    def tr(self) -> Translator:
        return self.skyjo.tr

    def key_label(self, binding_id: str) -> str:
        """The key that runs ``binding_id`` now, as the footer shows it (the player's own,
        if remapped; the first, if it has several): the one way a hint names a key."""
        key = next(iter(keys_now(binding_id, self.skyjo.keymap)), "?")
        # Asked for at every key pressed at the table (its prompt names keys), and a key
        # is shown the same way each time in one language.
        seen = (self.tr.lang, key)
        shown = self._key_displays.get(seen)
        if shown is None:
            shown = self._key_displays[seen] = self.app.get_key_display(Binding(key, ""))
        return shown

    def key_labels(self, *binding_ids: str) -> dict[str, str]:
        """The placeholders of a string that names keys: ``{"ready_key": "r"}`` for
        ``"room.ready"`` (the binding id's last part, then ``_key``)."""
        return {f"{b.rpartition('.')[2]}_key": self.key_label(b) for b in binding_ids}

    def fits(self, width: int, height: int) -> bool:
        """True when this screen can be drawn whole at ``width`` x ``height``."""
        return width >= MENU_MIN_SIZE[0] and height >= MENU_MIN_SIZE[1]

    def needed_size(self, width: int, height: int) -> tuple[int, int]:
        """The smallest width that fits, then the smallest height at that width (or wider)."""
        wide = next((w for w in range(20, 400) if self.fits(w, 200)), 400)
        tall = next((h for h in range(8, 200) if self.fits(max(width, wide), h)), 200)
        return wide, tall

    def on_mount(self) -> None:
        localize_bindings(self, self.tr)
        self._localize_widgets()
        self._stand(self.app.size.width, self.app.size.height)

    def _stand(self, width: int, height: int) -> None:
        """The class ``upright`` on a phone held upright (as the table's portrait plan): the
        stylesheet stacks there what stands side by side on a wider screen."""
        self.set_class(upright(width, height), "upright")

    def _localize_widgets(self) -> None:
        for widget in self.query("*"):
            if any(word_of(b.description) for _, b in widget._bindings):  # noqa: SLF001
                localize_bindings(widget, self.tr)

    async def retranslate(self) -> None:
        """Draw again in the app's (new) language, keeping the keyboard where it was."""
        localize_bindings(self, self.tr)
        focused = self.focused
        focused_id = focused.id if focused is not None else None
        await self.recompose()
        self._localize_widgets()
        self.after_recompose()
        self._focus_again(focused_id)

    def _focus_again(self, focused_id: str | None) -> None:
        """Give the focus back after a recompose removed the widget that had it.

        Without this the screen keeps its focus on the removed widget (Textual
        may even hand the focus to it while it is being removed, when the
        screen resumes at that moment): only that dead widget's bindings are
        left, and no key, not even Ctrl+Q, does anything.
        """
        focused = self.focused
        if focused is not None and focused.is_attached:
            return
        found = self.query(f"#{focused_id}") if focused_id else None
        if found and found.first().focusable:
            self.set_focus(found.first())
        else:
            self.set_focus(None)
            self._update_auto_focus()

    def after_recompose(self) -> None:
        """Fill freshly composed widgets with the state they showed (screens override)."""

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        # Textual runs this after a screen's own ``on_screen_resume``, before its
        # own handler, which restyles the screen from the whole stylesheet to
        # catch what changed while it was covered. The first time, its widgets
        # were styled as they mounted, a moment before: doing it again was a
        # sixth of a hosted player's start.
        if not self._has_resumed:
            event.refresh_styles = False
            self._has_resumed = True
        show_focus_marks(self, True)
        self.skyjo.check_size()
        self.skyjo.tell_page_about_typing()  # the field that had the focus may be covered
        # The footer listens from its own on_mount, which may come after ours:
        # tell it once this screen has been drawn.
        self.call_after_refresh(self.refresh_bindings)

    def _on_screen_suspend(self) -> None:
        # Textual runs this beside its own handler (one a class, as for resume).
        show_focus_marks(self, False)  # the keyboard is in what covers it

    async def _on_resize(self, event: events.Resize) -> None:
        # A screen's first layout sends the screen itself a Resize to the size it
        # was just laid out at, and Textual's handler lays it all out again.
        # A resize to where the screen stands already changes nothing.
        self._stand(event.size.width, event.size.height)
        if event.size == self._compositor.size:
            event.prevent_default()  # not Textual's handler: nothing to redo


def _running_translator() -> Translator | None:
    """The running app's translator (screens are built while it runs)."""
    app = active_app.get(None)
    return getattr(app, "tr", None)


class SkyjoScreen(SkyjoScreenMixin, Screen[ResultType]):
    pass


class SkyjoModal(SkyjoScreenMixin, ModalScreen[ResultType]):
    pass
