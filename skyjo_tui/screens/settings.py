"""The player's settings: name, language, the pace of others' moves, highlights, the theme,
the signals that it is your turn, and (on their own screen) the keys."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal

from server.protocol import DEFAULT_NAME_MAX_LENGTH

from ..host import Unsaved
from ..i18n import LANGUAGE_INFO, Translator
from ..local_game import default_name
from ..table.pacing import PACES
from ..theme import THEMES, chosen_theme
from ..widgets.footer import KeyFooter
from ..widgets.form import FieldLabel, Form, FormButton, FormGrid
from ..widgets.text import Button, Input, Label, Select
from .base import SkyjoScreen


class SettingsScreen(SkyjoScreen[None]):
    AUTO_FOCUS = "#name"  # the cursor where typing goes, not an invisible scroll container
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "keys.save", id="settings.save"),
        Binding("ctrl+b", "keys", "keys.keys", id="settings.keys"),
        Binding("escape", "back", "keys.back", id="settings.back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        # The choices as the form showed them when it opened: leaving with others asks first.
        self._opened_with: dict[str, Any] | None = None

    def compose(self) -> ComposeResult:
        tr, prefs = self.tr, self.skyjo.prefs
        with Form(classes="form"):
            yield Label(tr("settings.title"), classes="title")
            with FormGrid(classes="form-grid"):
                yield FieldLabel(tr("settings.name"))
                # Left empty, the name games here go by (the login's, or "Player"): shown.
                # As long as a server takes by default (the local game's takes that much).
                placeholder = default_name(self.skyjo.options.environ, tr)
                yield Input(
                    prefs.name,
                    placeholder=placeholder,
                    max_length=DEFAULT_NAME_MAX_LENGTH,
                    compact=True,
                    id="name",
                )
                yield FieldLabel(tr("settings.language"))
                yield Select(
                    # Each in its own words: the one a player reads is the one they look for.
                    [(language.name, lang) for lang, language in LANGUAGE_INFO.items()],
                    value=tr.lang,
                    allow_blank=False,
                    compact=True,
                    id="language",
                )
                yield FieldLabel(tr("settings.pace"))
                yield Select(
                    [(tr(f"pace.{pace}"), pace) for pace in PACES],
                    value=prefs.pace,
                    allow_blank=False,
                    compact=True,
                    id="pace",
                )
                yield FieldLabel(tr("settings.highlight"))
                yield self._on_off(prefs.highlight, "highlight")
                yield FieldLabel(tr("settings.theme"))
                yield Select(
                    [(tr(f"theme.{theme}"), theme) for theme in THEMES],
                    value=chosen_theme(prefs.theme),
                    allow_blank=False,
                    compact=True,
                    id="theme",
                )
                yield FieldLabel(tr("settings.turn_title"))
                yield self._on_off(prefs.turn_title, "turn-title")
                yield FieldLabel(tr("settings.turn_bell"))
                yield self._on_off(prefs.turn_bell, "turn-bell")
            with Horizontal(classes="buttons"):
                yield FormButton(tr("settings.save"), variant="primary", id="save", compact=True)
                yield FormButton(tr("settings.keys"), id="open-keys", compact=True)
                yield FormButton(tr("settings.back"), id="back", compact=True)
        yield KeyFooter()

    def _on_off(self, value: bool, id: str) -> Select[bool]:
        tr = self.tr
        return Select(
            [(tr("settings.on"), True), (tr("settings.off"), False)],
            value=value,
            allow_blank=False,
            compact=True,
            id=id,
        )

    def on_mount(self) -> None:
        self._opened_with = self._choices()

    def _choices(self) -> dict[str, Any]:
        """The form's choices, by the name of the preference each one sets."""
        return {
            "name": self.query_one("#name", Input).value.strip()[:DEFAULT_NAME_MAX_LENGTH],
            "lang": str(self.query_one("#language", Select).value),
            "pace": str(self.query_one("#pace", Select).value),
            "highlight": bool(self.query_one("#highlight", Select).value),
            "theme": str(self.query_one("#theme", Select).value),
            "turn_title": bool(self.query_one("#turn-title", Select).value),
            "turn_bell": bool(self.query_one("#turn-bell", Select).value),
        }

    @on(Button.Pressed, "#save")
    def action_save(self) -> None:
        prefs = replace(self.skyjo.prefs, **self._choices())
        lang = prefs.lang
        self.skyjo.save_prefs(prefs)
        self.app.theme = prefs.theme
        self.skyjo.set_language(lang)
        self.app.pop_screen()
        # set_language redraws in the background: say it in the new language now
        self.notify(Translator(lang)("settings.saved"))

    @on(Button.Pressed, "#open-keys")
    def action_keys(self) -> None:
        self.skyjo.nav.keys()

    @on(Button.Pressed, "#back")
    def action_back(self) -> None:
        """Back to the screen before; changes are not dropped without asking."""
        if self._choices() == self._opened_with:
            self.app.pop_screen()
            return

        def answered(answer: Unsaved | None) -> None:
            if answer is Unsaved.SAVE:
                self.action_save()
            elif answer is Unsaved.DISCARD:
                self.app.pop_screen()

        self.skyjo.nav.unsaved(self.tr("unsaved.question"), answered)
