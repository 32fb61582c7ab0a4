"""Per-game settings: every variant of RULES.md, chosen per table."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
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
        text = str(value).strip().lower()
        try:
            if name == "starter":
                return _replace(self, starter=Starter(text))
            if name == "clear-columns":
                return _replace(self, clear_columns=_on_off(text, on="on", off="off"))
            if name == "closer-penalty":
                return _replace(self, closer_penalty=_on_off(text, on="double", off="off"))
            if name == "end-score":
                return _replace(self, end_score=int(text))
        except ValueError:
            pass
        else:
            raise InvalidSetup(f"unknown setting {name!r}; known: {', '.join(OPTIONS)}")
        raise InvalidSetup(f"bad value {value!r} for {name}; allowed: {OPTIONS[name]}")


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


def _replace(settings: Settings, **changes: Any) -> Settings:
    values = {f.name: getattr(settings, f.name) for f in fields(settings)}
    values.update(changes)
    return Settings(**values)
