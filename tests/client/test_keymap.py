"""Which new key clashes: with another action of the same place, or with a key that works everywhere."""

from __future__ import annotations

from skyjo_tui import keymap


def test_a_key_of_the_same_place_clashes() -> None:
    found = keymap.clash("table.chat", "d", {})
    assert found is not None and found.binding.id == "table.draw" and found.place == "table"


def test_a_key_of_another_place_is_free() -> None:
    assert keymap.clash("table.chat", "w", {}) is None  # the lobby's Watch


def test_the_lobby_list_keys_count() -> None:
    found = keymap.clash("lobby.watch", "enter", {})
    assert found is not None and found.binding.id == "list.choose"


def test_keys_that_work_everywhere_clash_in_every_place() -> None:
    found = keymap.clash("home.stats", "f1", {})
    assert found is not None and found.binding.id == "app.help" and found.place == "everywhere"
    found = keymap.clash("app.help", "d", {})
    assert found is not None and found.binding.id == "table.draw"


def test_the_players_keys_are_the_ones_checked() -> None:
    moved = keymap.remapped({}, "table.draw", "p")
    assert keymap.clash("table.chat", "d", moved) is None  # d is free once Draw is on p
    found = keymap.clash("table.chat", "p", moved)
    assert found is not None and found.binding.id == "table.draw"


def test_a_key_back_to_its_default_leaves_the_keymap() -> None:
    assert keymap.remapped({"table.draw": "p"}, "table.draw", "d") == {}
