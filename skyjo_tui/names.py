"""How players are named on screen: bots in the player's language, long names shortened.

The server names a bot after its level, in English ("Greedy bot 2"), and
says in the table's seats (and a record in its seats) that the seat is a bot
and of which level. So the client can name it in the player's language
("Robot glouton 2"), with a short form for narrow places ("Glouton 2"). A
name the server did not make from the level (a renamed or unknown bot, a
person) is shown as it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rich.cells import cell_len

from .i18n import Translator


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits at a seat, from the server's table description or a record."""

    name: str  # as the server or the record gives it
    bot: str | None = None  # the bot's level, None for a person
    away: bool = False  # a person who dropped (a bot may be playing for them)
    left: bool = False  # a person who left the game in play: a bot plays it to the end

    def shown(self, tr: Translator) -> str:
        """The name in the player's language."""
        number = bot_number(self.name, self.bot)
        if number is None or self.bot is None:
            return self.name
        return _level_text(tr, "bot.name", self.bot, number) or self.name

    def short(self, tr: Translator) -> str:
        """A shorter name for narrow places: a bot without the word "bot"."""
        number = bot_number(self.name, self.bot)
        if number is None or self.bot is None:
            return self.name
        return _level_text(tr, "bot.short", self.bot, number) or f"{self.bot.capitalize()} {number}"


def bot_number(name: str, level: str | None) -> int | None:
    """The number in a bot name the server made ("Greedy bot 2" -> 2), else None."""
    if level is None:
        return None
    prefix = f"{level.capitalize()} bot "
    number = name[len(prefix) :] if name.startswith(prefix) else ""
    return int(number) if number.isdigit() and number.isascii() else None


def default_level(levels: Sequence[str]) -> str:
    """The middle level (levels weakest first): a fair game for a first try."""
    return levels[len(levels) // 2] if levels else ""


def level_name(level: str, tr: Translator) -> str:
    """A bot level in words ("greedy", "glouton"); an unknown level as it is."""
    key = f"level.{level}"
    text = tr(key)
    return level if text == key else text


def seat_names(
    seats: Sequence[SeatInfo], count: int, tr: Translator, own: int | None = None
) -> list[str]:
    """The shown name of seats ``0..count-1`` ("#3" for a seat not described).

    ``own`` is the viewer's seat: it reads "You" (sentences about it use their ``.you`` form,
    ``Translator.about``). A spectator (None) sees everyone's names.
    """
    return [
        tr("word.you") if s == own else seats[s].shown(tr) if s < len(seats) else f"#{s + 1}"
        for s in range(count)
    ]


def shorten(name: str, room: int) -> str:
    """``name`` in ``room`` cells; a short last word (a number) survives: "Greedy b…2".

    Cells, as the terminal draws them: an emoji or a CJK character takes two."""
    if cell_len(name) <= room:
        return name
    head, _, last = name.rpartition(" ")
    if head and len(last) <= 3 and room >= cell_len(last) + 3:
        return cropped(name, room - cell_len(last) - 1) + "…" + last
    return cropped(name, max(0, room - 1)) + "…"


def cropped(text: str, room: int) -> str:
    """The longest start of ``text`` that fits in ``room`` cells."""
    used = 0
    for index, character in enumerate(text):
        used += cell_len(character)
        if used > room:
            return text[:index]
    return text


def _level_text(tr: Translator, kind: str, level: str, number: int) -> str | None:
    key = f"{kind}.{level}"
    text = tr(key, number=number)
    return None if text == key else text


def seats_of(table: Mapping[str, Any]) -> list[SeatInfo]:
    """Who plays each seat of the table's game, by player number, as the board names them.

    The game's own seats (``game_seats``: who sat where when it was dealt) name them,
    never the table's seats now: once the game is over, someone leaves and someone new
    sits down for the rematch, and the game's players stay who they were. Each person's
    presence (away, left) is their seat's at the table now; a person no longer seated
    there left. A server from before ``game_seats``: the table's seats, empty ones
    skipped (they close up when a game starts)."""
    roster = table.get("game_seats")
    seats = [seat for seat in table.get("seats") or [] if isinstance(seat, Mapping)]
    if not isinstance(roster, list):
        return [seat_info(seat) for seat in seats]
    here = {seat.get("player_id"): seat for seat in seats if seat.get("kind") == "human"}
    return [game_seat_info(entry, here) for entry in roster]


def game_seat_info(entry: Any, here: Mapping[Any, Mapping[str, Any]]) -> SeatInfo:
    """One of the game's seats (``game_seats``), with its person's presence: ``here`` is
    the table's seats of people, by player id."""
    if not isinstance(entry, Mapping):
        return SeatInfo("?")
    if entry.get("kind") != "human":
        return seat_info(entry)
    seat = here.get(entry.get("player_id"))
    if seat is None:
        return replace(seat_info(entry), left=True)  # no longer at the table
    return seat_info({**seat, "name": entry.get("name", "?")})


def seat_info(seat: Mapping[str, Any]) -> SeatInfo:
    """One seat of the table map: who sits there."""
    person = seat.get("kind") == "human"
    away = person and (not seat.get("connected", True) or seat.get("autoplay"))
    level = seat.get("level") if seat.get("kind") == "bot" else None
    left = person and bool(seat.get("left"))
    return SeatInfo(str(seat.get("name", "?")), str(level) if level else None, bool(away), left)
