"""Who is here, in words: the lines told from two successive table maps (pure)."""

from __future__ import annotations

from typing import Any

from skyjo_tui.i18n import Translator
from skyjo_tui.presence import presence_news

TR = Translator("en")


def person(player_id: int, name: str, **state: Any) -> dict[str, Any]:
    return {
        "kind": "human",
        "player_id": player_id,
        "name": name,
        "connected": True,
        "autoplay": False,
        "autoplay_in": None,
        **state,
    }


def table(*seats: dict[str, Any] | None, watchers: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"seats": list(seats), "watchers": list(watchers)}


def test_a_player_away_then_played_for_then_back_is_told_at_each_step() -> None:
    here = table(person(1, "Ann"), person(2, "[b]Bob"))
    away = table(person(1, "Ann"), person(2, "[b]Bob", connected=False, autoplay_in=59.2))
    played = table(person(1, "Ann"), person(2, "[b]Bob", connected=False, autoplay=True))
    assert presence_news(here, away, TR) == ["[b]Bob is away: a bot plays for them in 60 s."]
    assert presence_news(away, played, TR) == ["A bot plays for [b]Bob until they come back."]
    assert presence_news(played, here, TR) == ["[b]Bob is back."]
    assert presence_news(here, here, TR) == []


def test_someone_sitting_down_for_the_first_time_joined_and_is_not_back() -> None:
    room = table(person(1, "Ann"))
    assert presence_news(room, table(person(1, "Ann"), person(2, "[b]Bob")), TR) == [
        "[b]Bob joined the table."
    ]
    # Not to the one who sat down (their room is theirs from then on), nor on arrival.
    assert presence_news(room, table(person(1, "Ann"), person(2, "Bob")), TR, me=2) == []
    assert presence_news(None, table(person(1, "Ann"), person(2, "Bob")), TR) == []
    away = table(person(1, "Ann"), person(2, "Bob", connected=False))
    assert presence_news(away, table(person(1, "Ann"), person(2, "Bob")), TR) == ["Bob is back."]


def test_seats_are_matched_by_player_when_they_close_up() -> None:
    before = table(person(1, "Ann"), None, person(3, "Cy"))
    after = table(person(1, "Ann"), person(3, "Cy"), None)
    assert presence_news(before, after, TR) == []


def test_watchers_coming_and_going_and_those_there_on_arrival() -> None:
    assert presence_news(None, table(watchers=("Dee", "Eve")), TR) == ["Watching: Dee and Eve"]
    assert presence_news(None, table(), TR) == []
    news = presence_news(table(watchers=("Dee",)), table(watchers=("Eve",)), TR)
    assert news == ["Eve is watching.", "Dee stopped watching."]


def test_whom_the_host_removed_is_told_as_the_server_said_it() -> None:
    before = table(person(1, "Ann"), person(2, "[b]Bob"), person(3, "Cy"))
    after = table(person(1, "Ann"), person(3, "Cy"), None)
    removed = {"player_id": 2, "name": "[b]Bob", "by": 1}
    assert presence_news(before, after, TR) == []  # a seat that empties: nobody says why
    assert presence_news(before, after, TR, removed, me=1) == ["You removed [b]Bob from the table."]
    assert presence_news(before, after, TR, removed, me=3) == [
        "The host removed [b]Bob from the table."
    ]
    fr = Translator("fr")
    assert presence_news(before, after, fr, removed, me=1) == [
        "Vous avez retiré [b]Bob de la table."
    ]
    assert presence_news(before, after, fr, removed, me=3) == [
        "L'hôte a retiré [b]Bob de la table."
    ]


def test_someone_removed_during_a_game_is_not_said_to_be_away() -> None:
    before = table(person(1, "Ann"), person(2, "Bob"))
    after = table(person(1, "Ann"), person(2, "Bob", connected=False, autoplay=True))
    removed = {"player_id": 2, "name": "Bob", "by": 1}
    assert presence_news(before, after, TR, removed, me=3) == [
        "The host removed Bob from the table."
    ]


def test_someone_who_left_the_game_is_told_once_never_away_nor_back() -> None:
    here = table(person(1, "Ann"), person(2, "[b]Bob"))
    left = table(person(1, "Ann"), person(2, "[b]Bob", connected=False, autoplay=True, left=True))
    assert presence_news(here, left, TR) == [
        "[b]Bob left the game: a bot plays for them to its end."
    ]
    assert presence_news(left, left, TR) == []
    assert presence_news(here, left, Translator("fr")) == [
        "[b]Bob a quitté la partie : un robot joue à sa place jusqu'à la fin."
    ]
