"""``Heard``: what the server said, kept without an app; each push in, what changed out."""

from __future__ import annotations

from typing import Any

from skyjo_tui.heard import CHAT_KEPT, Heard, HeardChat


def table(table_id: str = "t1", status: str = "waiting", **more: Any) -> dict[str, Any]:
    return {"table_id": table_id, "status": status, "seats": [], **more}


def chat(text: str, scope: str = "table", at: float = 1.0, name: str = "Ann") -> dict[str, Any]:
    """A chat push as the server sends it (``server.protocol.ChatPush``)."""
    table_id = "t1" if scope == "table" else None
    return {
        "type": "chat",
        "scope": scope,
        "table_id": table_id,
        "from_id": 7,
        "from_name": name,
        "text": text,
        "at": at,
    }


def test_a_table_push_keeps_the_table_and_says_who_was_removed() -> None:
    heard = Heard()
    removed = {"name": "Bob", "seat": 1}
    changed = heard.hear({"type": "table", "table": table(), "removed": removed})
    assert heard.table == table()
    assert changed.table == table() and changed.removed == removed and changed.story is None
    assert not changed.held


def test_arriving_with_a_story_keeps_it_for_the_board_to_tell_once() -> None:
    heard = Heard()
    story = [{"seq": 1}]
    changed = heard.hear({"type": "table", "table": table(status="finished"), "log": story})
    assert changed.story == story and heard.arrival_story == story
    assert heard.take_story() == story
    assert heard.take_story() is None  # told once


def test_another_table_forgets_the_last_ones_chat_and_story() -> None:
    heard = Heard()
    heard.hear({"type": "table", "table": table("t1"), "log": [{"seq": 1}]})
    heard.hear(chat("at the first table"))
    heard.hear(chat("in the lobby", scope="lobby"))
    heard.hear({"type": "table", "table": table("t2")})
    assert [line.text for line in heard.chat_lines] == ["in the lobby"]
    assert heard.arrival_story is None


def test_the_same_table_again_keeps_its_chat() -> None:
    heard = Heard()
    heard.hear({"type": "table", "table": table("t1")})
    heard.hear(chat("hello"))
    heard.hear({"type": "table", "table": table("t1", status="playing")})
    assert [line.text for line in heard.chat_lines] == ["hello"]


def test_arriving_at_a_table_shows_only_the_lines_said_since_the_last_we_had() -> None:
    heard = Heard()
    heard.hear({"type": "table", "table": table("t1")})
    heard.hear(chat("one", at=1.0))
    said = [chat("one", at=1.0), chat("two", at=2.0)]  # back after a drop: the chat so far
    changed = heard.hear({"type": "table", "table": table("t1"), "chat": said})
    assert [line.text for line in changed.chat] == ["two"]
    assert [line.text for line in heard.chat_lines] == ["one", "two"]


def test_a_chat_line_is_kept_and_to_be_shown() -> None:
    heard = Heard()
    changed = heard.hear(chat("hi", scope="lobby", at=5.0, name="Zoé"))
    assert changed.chat == (HeardChat("lobby", "Zoé", "hi", 5.0),)
    assert heard.chat_lines == [HeardChat("lobby", "Zoé", "hi", 5.0)]


def test_the_chat_keeps_its_last_lines_only() -> None:
    heard = Heard()
    for n in range(CHAT_KEPT + 5):
        heard.hear(chat(f"line {n}", at=float(n)))
    assert len(heard.chat_lines) == CHAT_KEPT
    assert heard.chat_lines[0].text == "line 5"
    assert heard.chat_lines[-1].text == f"line {CHAT_KEPT + 4}"


def test_the_lobbys_chat_so_far_replaces_its_lines_and_keeps_the_tables() -> None:
    heard = Heard()
    heard.hear(chat("old lobby line", scope="lobby"))
    heard.hear({"type": "table", "table": table()})
    heard.hear(chat("table line"))
    said = [chat("new", scope="lobby", at=3.0, name="Bob"), "not a line", {"text": "half"}]
    changed = heard.hear({"type": "lobby_chat", "lines": said})
    assert changed.lobby_chat
    assert [(line.scope, line.text) for line in heard.chat_lines] == [
        ("table", "table line"),
        ("lobby", "new"),
    ]


def test_the_lobbys_tables_are_kept_as_the_pages_say() -> None:
    heard = Heard()
    page = {"type": "tables", "tables": [{"table_id": "a"}, {"table_id": "b"}], "total": 2}
    assert heard.hear(page).tables
    changed = heard.hear(
        {"type": "tables_changed", "changed": [{"table_id": "b", "name": "B"}], "order": ["b"]}
    )
    assert changed.tables
    assert heard.lobby_tables.tables == [{"table_id": "b", "name": "B"}]


def test_who_is_on_line_is_kept() -> None:
    heard = Heard()
    page = {"type": "who", "players": [{"name": "Ann"}], "total": 1}
    assert heard.hear(page).who == page and heard.who == page


def test_a_game_update_is_passed_on() -> None:
    push = {"type": "game", "view": {}, "events": []}
    assert Heard().hear(push).game == push


def test_being_sent_from_a_table_is_said_until_we_sit_again() -> None:
    heard = Heard()
    heard.hear({"type": "table", "table": table()})
    changed = heard.hear({"type": "left_table", "table_id": "t1", "reason": "kicked"})
    assert changed.left == "kicked" and heard.table is None and heard.left_reason == "kicked"
    heard.hear({"type": "table", "table": table("t2")})
    assert heard.left_reason == ""


def test_leaving_by_choice_leaves_no_note() -> None:
    heard = Heard()
    heard.hear({"type": "table", "table": table()})
    changed = heard.hear({"type": "left_table", "table_id": "t1", "reason": "left"})
    assert changed.left == "left" and heard.left_reason == "" and heard.table is None


def test_a_notice_is_passed_on() -> None:
    assert (
        Heard().hear({"type": "notice", "text": "restart at noon", "at": 1.0}).notice
        == "restart at noon"
    )


def test_table_pushes_wait_while_held_and_come_back_in_order() -> None:
    heard = Heard()
    heard.hold()
    pushes: list[dict[str, Any]] = [
        {"type": "table", "table": table()},
        {"type": "game", "view": {}},
        {"type": "game_over"},
        {"type": "left_table", "table_id": "t1", "reason": "closed"},
    ]
    assert all(heard.hear(push).held for push in pushes)
    assert heard.table is None and heard.left_reason == ""  # nothing kept yet
    assert not heard.hear(chat("said meanwhile", scope="lobby")).held  # not a table's push
    assert heard.release() == pushes
    assert not heard.holding and heard.release() == []
    assert not heard.hear(pushes[0]).held and heard.table == table()


def test_an_unknown_push_changes_nothing() -> None:
    heard = Heard()
    changed = heard.hear({"type": "from_a_newer_server", "x": 1})
    assert changed.kind == "from_a_newer_server" and changed.table is None and not changed.chat
    assert heard.chat_lines == [] and heard.table is None
