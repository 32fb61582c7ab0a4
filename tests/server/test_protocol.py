"""The framing codec and message checks, without sockets."""

from __future__ import annotations

from dataclasses import MISSING, fields

import pytest

from server.engine import Game, ViewPhase, view_for
from server.protocol import (
    MESSAGES,
    ActRequest,
    BadFrame,
    ChatPush,
    ErrorCode,
    FrameDecoder,
    GameOverPush,
    GamePush,
    LeftReason,
    LeftTablePush,
    LobbyChatPush,
    NameReason,
    NoticePush,
    ProtocolError,
    Record,
    TablePush,
    TablesChangedPush,
    TablesPush,
    TableStatus,
    WhoPush,
    check_message,
    decode_body,
    encode_frame,
    frame,
)

RECORDS: tuple[type[Record], ...] = (
    TablePush,
    GamePush,
    GameOverPush,
    TablesPush,
    TablesChangedPush,
    ChatPush,
    LobbyChatPush,
    WhoPush,
    LeftTablePush,
    NoticePush,
    ActRequest,
)


def test_frames_split_anywhere_and_joined_together_decode_the_same() -> None:
    messages = [{"type": "ping", "id": n, "pad": "é" * n} for n in range(20)]
    stream = b"".join(encode_frame(m) for m in messages)
    for chunk in (1, 3, 7, 64, len(stream)):
        decoder = FrameDecoder()
        decoded: list[object] = []
        for start in range(0, len(stream), chunk):
            decoder.feed(stream[start : start + chunk])
            decoded.extend(decoder)
        assert decoded == messages


def test_a_bad_body_is_skipped_and_the_stream_stays_in_step() -> None:
    decoder = FrameDecoder()
    decoder.feed(frame(b"\xc1\xc1\xc1") + encode_frame({"type": "ping"}))
    bad, good = list(decoder)
    assert isinstance(bad, BadFrame) and not bad.fatal and bad.error.code is ErrorCode.BAD_FRAME
    assert good == {"type": "ping"}


def test_a_length_over_the_limit_stops_the_decoder_without_buffering_it() -> None:
    decoder = FrameDecoder(max_frame=100)
    decoder.feed(frame(b"x" * 101))
    (bad,) = list(decoder)
    assert isinstance(bad, BadFrame) and bad.fatal and bad.error.code is ErrorCode.FRAME_TOO_LARGE
    decoder.feed(encode_frame({"type": "ping"}))
    assert list(decoder) == [] and decoder.failed


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ([1, 2], ErrorCode.BAD_MESSAGE),
        ({"id": 1}, ErrorCode.BAD_MESSAGE),
        ({"type": "launch"}, ErrorCode.UNKNOWN_TYPE),
        ({"type": "game"}, ErrorCode.UNKNOWN_TYPE),  # a push, not a request
        ({"type": "hello"}, ErrorCode.BAD_FIELD),
        ({"type": "hello", "version": True}, ErrorCode.BAD_FIELD),
        ({"type": "create_table", "name": "t", "seats": 4.0}, ErrorCode.BAD_FIELD),
        ({"type": "kick", "seat": None}, ErrorCode.BAD_FIELD),
    ],
)
def test_messages_of_the_wrong_shape_are_named_precisely(message: object, code: ErrorCode) -> None:
    with pytest.raises(ProtocolError) as caught:
        check_message(message, sender="client")
    assert caught.value.code is code


def test_every_request_and_push_is_in_the_catalogue_and_the_documentation() -> None:
    from pathlib import Path

    doc = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text()
    for sender in ("client", "server"):
        for name in MESSAGES[sender]:
            assert f"`{name}`" in doc, name
    for code in ErrorCode:
        assert f"`{code.value}`" in doc, code
    for reason in NameReason:  # a bad_name's reason
        assert f"| `{reason.value}` |" in doc, reason


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.TYPE)
def test_each_typed_record_is_its_catalogue_entry(record: type[Record]) -> None:
    """A record has the catalogue's fields, required exactly where the catalogue says:
    the one codec and the checks cannot drift apart."""
    spec = MESSAGES[record.SENDER][record.TYPE].fields
    for item in fields(record):
        assert item.name in spec, item.name
        required = item.default is MISSING
        assert spec[item.name].required == required, item.name
    missing = {name for name, rule in spec.items() if rule.required} - {
        f.name for f in fields(record)
    }
    assert not missing


def test_records_go_over_the_wire_and_back_as_they_were() -> None:
    view = view_for(Game(2, seed=1), 0).to_dict()
    records: list[Record] = [
        TablePush({"table_id": "t1", "status": TableStatus.BETWEEN_ROUNDS}),
        TablePush({"table_id": "t1"}, {"player_id": 2, "name": "Bob", "by": 1}, [], [{}]),
        GamePush("t1", 0, [], True, view, None, earlier_scores=[]),
        GameOverPush("t1", None, ["Alice", "Bob"], [99, 120], [0]),
        TablesPush([{"table_id": "t1"}], 1),
        TablesChangedPush(0, 2, ["t1", "t2"], [{"table_id": "t2"}]),
        ChatPush("lobby", None, 1, "Alice", "hi", 12.5),
        LobbyChatPush([ChatPush("lobby", None, 1, "Alice", "hi", 12.5).to_wire()]),
        WhoPush([], 0, 0),
        LeftTablePush("t1", LeftReason.KICKED),
        NoticePush("restarting soon", 3.0),
        ActRequest({"kind": "draw"}),
    ]
    for record in records:
        message = decode_body(encode_frame(record.to_wire())[4:])
        assert type(record).from_wire(message) == record
    # An optional field that is None is left out (a v1 client never sees a null there).
    assert TablePush({"table_id": "t1"}).to_wire() == {"type": "table", "table": {"table_id": "t1"}}
    # A required one that may be null is sent as null.
    assert ChatPush("lobby", None, 1, "A", "x", 1.0).to_wire()["table_id"] is None


def test_the_wire_words_are_the_strings_v1_clients_know() -> None:
    message = decode_body(encode_frame(TablePush({"status": TableStatus.FINISHED}).to_wire())[4:])
    assert message["table"]["status"] == "finished" and type(message["table"]["status"]) is str
    assert [s.value for s in TableStatus] == ["waiting", "playing", "between_rounds", "finished"]
    assert view_for(Game(2, seed=1), 0).to_dict()["phase"] == "initial_flips"
    assert {p.value for p in ViewPhase} == {
        "initial_flips",
        "choose",
        "drawn",
        "round_over",
        "game_over",
    }


@pytest.mark.parametrize(
    ("record", "message", "named"),
    [
        (ChatPush, {"type": "chat", "scope": "lobby", "text": "hi"}, "table_id"),
        (LeftTablePush, {"type": "left_table", "table_id": "t1", "reason": 3}, "reason"),
        (TablePush, {"type": "table", "table": {}, "chat": "not a list"}, "chat"),
        (NoticePush, {"type": "chat", "text": "x", "at": 1.0}, "chat"),
    ],
)
def test_a_record_read_from_a_bad_message_says_what_is_wrong(
    record: type[Record], message: dict[str, object], named: str
) -> None:
    with pytest.raises(ProtocolError) as caught:
        record.from_wire(message)
    assert named in caught.value.message
