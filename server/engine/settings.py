"""Per-game settings: every variant of RULES.md, chosen per table."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from enum import Enum
from typing import Any

from .errors import InvalidSetup

MIN_PLAYERS = 2
MAX_PLAYERS = 8
MIN_END_SCORE = 10
MAX_END_SCORE = 1000


class Starter(str, Enum):
    HIGHEST_PAIR = "highest-pair"
    CLOSER_STARTS = "closer-starts"


@dataclass(frozen=True, slots=True)
class Settings:
    """The variants of one game. Defaults are the first option of each rule."""

    starter: Starter = Starter.HIGHEST_PAIR
    clear_columns: bool = True
    closer_penalty: bool = True
    end_score: int = 100

    def __post_init__(self) -> None:
        if not isinstance(self.starter, Starter):
            object.__setattr__(self, "starter", Starter(self.starter))
        if not MIN_END_SCORE <= self.end_score <= MAX_END_SCORE:
            raise InvalidSetup(
                f"end-score must be a whole number from {MIN_END_SCORE} to {MAX_END_SCORE}"
            )

    def to_dict(self) -> dict[str, Any]:
        """The settings under their RULES.md names, as plain data."""
        data = asdict(self)
        return {
            "starter": self.starter.value,
            "clear-columns": "on" if data["clear_columns"] else "off",
            "closer-penalty": "double" if data["closer_penalty"] else "off",
            "end-score": self.end_score,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        settings = cls()
        for name, value in data.items():
            settings = settings.with_option(name, value)
        return settings

    def with_option(self, name: str, value: Any) -> Settings:
        """A copy with one variant set by its RULES.md name (``clear-columns``)."""
        if name not in _PARSERS:
            raise InvalidSetup(f"unknown setting {name!r}; known: {', '.join(OPTIONS)}")
        field_name, parse = _PARSERS[name]
        try:
            parsed = parse(str(value).strip().lower())
        except ValueError:
            raise InvalidSetup(
                f"bad value {value!r} for {name}; allowed: {OPTIONS[name]}"
            ) from None
        return replace(self, **{field_name: parsed})


#: Each setting's name and the values it accepts, for help texts and errors.
OPTIONS: dict[str, str] = {
    "starter": "highest-pair | closer-starts",
    "clear-columns": "on | off",
    "closer-penalty": "double | off",
    "end-score": f"a whole number from {MIN_END_SCORE} to {MAX_END_SCORE}",
}


def _on_off(text: str, *, on: str, off: str) -> bool:
    if text == on:
        return True
    if text == off:
        return False
    raise ValueError(text)


#: Each RULES.md name: the Settings field it sets, and how its text is read.
_PARSERS: dict[str, tuple[str, Callable[[str], Any]]] = {
    "starter": ("starter", Starter),
    "clear-columns": ("clear_columns", lambda text: _on_off(text, on="on", off="off")),
    "closer-penalty": ("closer_penalty", lambda text: _on_off(text, on="double", off="off")),
    "end-score": ("end_score", int),
}
