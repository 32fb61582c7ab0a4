"""The four variants of RULES.md as a small form, for local games and new tables."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from textual.app import ComposeResult
from textual.validation import Integer

from server.engine import Settings
from server.engine.settings import MAX_END_SCORE, MIN_END_SCORE

from ..i18n import Translator
from .form import FieldLabel, FormGrid
from .text import Input, Select

#: The engine's own bounds and default: the rules live there.
END_SCORE_RANGE: Final = (MIN_END_SCORE, MAX_END_SCORE)
DEFAULT_END_SCORE: Final = Settings().end_score
#: Each choice variant: its name and its values (the first is the default).
CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "starter": ("highest-pair", "closer-starts"),
    "clear-columns": ("on", "off"),
    "closer-penalty": ("double", "off"),
}


class VariantsForm(FormGrid):
    """A label and a one-line control per variant; ``settings()`` reads them."""

    def __init__(
        self, tr: Translator, chosen: Mapping[str, Any] | None = None, *, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.tr = tr
        self.chosen = chosen or {}
        """The settings to show first (the last ones chosen); a value it does not offer
        shows the rule's default instead."""

    def compose(self) -> ComposeResult:
        for name, values in CHOICES.items():
            yield FieldLabel(self.tr(f"variant.{name}"))
            chosen = self.chosen.get(name)
            yield Select(
                [(self.tr(f"variant.{name}.{value}"), value) for value in values],
                value=chosen if chosen in values else values[0],
                allow_blank=False,
                compact=True,
                id=f"variant-{name}",
            )
        yield FieldLabel(self.tr("variant.end-score"))
        low, high = END_SCORE_RANGE
        end_score = self.chosen.get("end-score")
        if type(end_score) is not int or not low <= end_score <= high:
            end_score = DEFAULT_END_SCORE
        yield Input(
            str(end_score),
            type="integer",
            compact=True,
            validators=[Integer(minimum=low, maximum=high)],
            id="variant-end-score",
        )

    def settings(self) -> dict[str, Any]:
        """The chosen settings under RULES.md names; raises ValueError on a bad end score."""
        chosen: dict[str, Any] = {
            name: self.query_one(f"#variant-{name}", Select).value for name in CHOICES
        }
        text = self.query_one("#variant-end-score", Input).value.strip()
        low, high = END_SCORE_RANGE
        if not text.lstrip("-").isdigit() or not low <= int(text) <= high:
            raise ValueError(self.tr("variant.end-score.invalid", low=low, high=high))
        chosen["end-score"] = int(text)
        return chosen
